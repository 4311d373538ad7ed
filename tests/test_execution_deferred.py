"""Deferred approvals in the ToolCallingManager: a call waits for a person, the others run.

And the resume: decisions instead of the approver, known answers kept as
they are, denials answered in words the model reads.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from approval_tools import RAN, lookup, reserve
from springtail.execution import (
    DEFER,
    Defer,
    PendingApproval,
    ToolCallDecision,
    ToolCallingManager,
    defer_approval,
)
from springtail.execution._deferred import as_decisions, deadline_after
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Prompt,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.tools import ToolDefinition, tool, tool_callbacks


@pytest.fixture(autouse=True)
def _fresh() -> None:
    RAN.clear()


def prompt() -> Prompt:
    return Prompt(
        [UserMessage("Check SKU-1 and reserve 2")],
        ChatOptions(tool_callbacks=tuple(tool_callbacks(reserve, lookup))),
    )


def reply(*calls: tuple[str, str, dict[str, Any]]) -> ChatResponse:
    return ChatResponse.of(
        AssistantMessage("", tuple(ToolCall(i, n, json.dumps(a)) for i, n, a in calls))
    )


BOTH = reply(
    ("c1", "lookup", {"sku": "SKU-1"}),
    ("c2", "reserve", {"sku": "SKU-1", "quantity": 2}),
)


class Heard:
    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def on_tool_start(self, call: ToolCall, definition: ToolDefinition | None) -> None:
        self.events.append(("start", call.id))

    def on_tool_approval(
        self, call: ToolCall, definition: ToolDefinition, approved: bool, wait_s: float
    ) -> None:
        self.events.append(("approval", call.id, approved))

    def on_tool_deferred(
        self, call: ToolCall, definition: ToolDefinition, deadline: datetime | None
    ) -> None:
        self.events.append(("deferred", call.id, deadline))

    def on_tool_end(self, call: ToolCall, definition: Any, response: Any, duration: float) -> None:
        self.events.append(("end", call.id))


def test_a_deferred_call_waits_while_the_other_calls_of_the_reply_run() -> None:
    heard = Heard()
    manager = ToolCallingManager(approver=defer_approval, approval_timeout=60, listeners=[heard])
    before = datetime.now(UTC)
    result = manager.execute_tool_calls(prompt(), BOTH)

    assert RAN == ["lookup SKU-1"]
    assert result.paused
    assert not result.return_direct
    (pending,) = result.pending_approvals
    assert (pending.id, pending.name, json.loads(pending.arguments)) == (
        "c2",
        "reserve",
        {"sku": "SKU-1", "quantity": 2},
    )
    assert pending.deadline is not None
    assert before + timedelta(seconds=59) < pending.deadline <= datetime.now(UTC) + timedelta(60)
    # The history holds the reply and only the answers known: not ready for the model yet.
    assert result.conversation_history[-2] == BOTH.results[0].output
    assert result.conversation_history[-1] == ToolResponseMessage(
        (ToolResponse("c1", "lookup", "SKU-1: 12 in stock"),)
    )
    assert result.answered == (ToolResponse("c1", "lookup", "SKU-1: 12 in stock"),)
    # Listeners hear the deferral instead of an end, and no approval decision yet.
    assert ("deferred", "c2", pending.deadline) in heard.events
    assert ("end", "c2") not in heard.events
    assert not [e for e in heard.events if e[0] == "approval"]


def test_without_other_calls_the_history_ends_with_the_reply() -> None:
    result = ToolCallingManager(approver=defer_approval).execute_tool_calls(
        prompt(), reply(("c2", "reserve", {"sku": "SKU-1", "quantity": 2}))
    )
    assert RAN == []
    assert isinstance(result.conversation_history[-1], AssistantMessage)
    assert result.answered == ()
    assert result.pending_approvals[0].deadline is None  # no approval_timeout: no deadline


async def test_an_approver_defers_some_calls_and_decides_others() -> None:
    async def approver(call: ToolCall, definition: ToolDefinition) -> bool | Defer:
        quantity = json.loads(call.arguments)["quantity"]
        return True if quantity < 5 else Defer(timeout=5)

    result = await ToolCallingManager(approver=approver, approval_timeout=3600).aexecute_tool_calls(
        prompt(),
        reply(
            ("small", "reserve", {"sku": "SKU-1", "quantity": 1}),
            ("big", "reserve", {"sku": "SKU-1", "quantity": 9}),
        ),
    )
    assert RAN == ["reserve SKU-1 1"]
    (big,) = result.pending_approvals
    assert big.id == "big"
    assert big.deadline is not None
    assert big.deadline - datetime.now(UTC) < timedelta(seconds=6)  # Defer's own timeout wins


def test_an_identical_call_in_the_same_reply_waits_for_the_same_decision() -> None:
    result = ToolCallingManager(approver=lambda c, d: DEFER).execute_tool_calls(
        prompt(),
        reply(
            ("a", "reserve", {"sku": "SKU-1", "quantity": 2}),
            ("b", "reserve", {"quantity": 2, "sku": "SKU-1"}),
        ),
    )
    assert [p.id for p in result.pending_approvals] == ["a", "b"]
    assert RAN == []


def test_decisions_resume_the_reply_approved_calls_run_and_known_answers_stay() -> None:
    manager = ToolCallingManager(approver=defer_approval)
    paused = manager.execute_tool_calls(prompt(), BOTH)
    heard = Heard()
    resumed = manager.execute_tool_calls(
        prompt(), BOTH, decisions={"c2": True}, results=paused.answered, listeners=[heard]
    )
    assert RAN == ["lookup SKU-1", "reserve SKU-1 2"]  # lookup did not run again
    assert not resumed.paused
    assert resumed.conversation_history[-1] == ToolResponseMessage(
        (
            ToolResponse("c1", "lookup", "SKU-1: 12 in stock"),
            ToolResponse("c2", "reserve", "Reserved 2 of SKU-1"),
        )
    )
    assert ("approval", "c2", True) in heard.events
    assert ("start", "c1") not in heard.events


def test_a_denied_call_is_answered_with_the_reason_the_model_reads() -> None:
    manager = ToolCallingManager(approver=defer_approval)
    paused = manager.execute_tool_calls(prompt(), BOTH)
    resumed = manager.execute_tool_calls(
        prompt(),
        BOTH,
        decisions={"c2": ToolCallDecision.deny("the shop is closed today")},
        results=paused.answered,
    )
    assert RAN == ["lookup SKU-1"]
    denied = resumed.answered[1]
    assert denied.is_error
    assert denied.response_data == (
        "The call to tool 'reserve' was not approved (the shop is closed today), so it did not run."
    )
    plain = manager.execute_tool_calls(prompt(), BOTH, decisions={"c2": False})
    assert "(the person declined it)" in plain.answered[1].response_data


def test_a_decision_for_a_call_that_needs_no_approval_changes_nothing() -> None:
    result = ToolCallingManager().execute_tool_calls(
        prompt(), BOTH, decisions={"c1": False, "c2": True}
    )
    assert [r.is_error for r in result.answered] == [False, False]


@pytest.mark.parametrize(
    ("decisions", "message"),
    [
        ({"": True}, "name its call by id"),
        ({"c1": "yes"}, "must be True, False or a ToolCallDecision"),
    ],
)
def test_malformed_decisions_are_refused_in_one_sentence(
    decisions: dict[str, Any], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        as_decisions(decisions)


def test_timeouts_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive number of seconds"):
        Defer(timeout=0)
    with pytest.raises(ValueError, match="approval_timeout must be a positive"):
        ToolCallingManager(approval_timeout=-1)
    assert ToolCallingManager(approval_timeout=30).approval_timeout == 30
    assert deadline_after(None) is None


def test_a_pending_approval_expires_at_its_deadline() -> None:
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    pending = PendingApproval(ToolCall("c", "reserve", "{}"), now + timedelta(minutes=5))
    assert not pending.expired(now)
    assert pending.expired(now + timedelta(minutes=5))
    assert not PendingApproval(ToolCall("c", "reserve", "{}")).expired()


def test_concurrent_calls_still_run_together_while_one_waits() -> None:
    started: list[str] = []

    @tool
    async def slow(name: str) -> str:
        """Slow."""
        started.append(name)
        await asyncio.sleep(0.01)
        return name

    options = ChatOptions(tool_callbacks=tuple(tool_callbacks(slow, reserve)))
    result = ToolCallingManager(approver=defer_approval).execute_tool_calls(
        Prompt([UserMessage("x")], options),
        reply(
            ("s1", "slow", {"name": "a"}),
            ("r", "reserve", {"sku": "SKU-1", "quantity": 1}),
            ("s2", "slow", {"name": "b"}),
        ),
    )
    assert sorted(started) == ["a", "b"]
    assert [r.id for r in result.answered] == ["s1", "s2"]  # in call order
    assert [p.id for p in result.pending_approvals] == ["r"]
