"""PausedTurn: a turn that waits for a person's decision, as a value that outlives the process.

When a call needs approval and the approver defers it, the tool loop ends
the turn. What it must keep to go on later is small: the assistant message
that asked for the calls, the answers of the calls that did run, and the
calls that wait (with their deadlines). With chat memory it is stored next
to the conversation (its own record, so the message window never trims it
apart); without, the application keeps the JSON of it.

A paused turn is decided all at once: the request that resumes it brings a
decision for every call still waiting (calls whose deadline passed count as
denied). ``PausedTurn.with_decisions`` checks that and is what the
stores run inside their compare-and-set.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from springtail.execution._deferred import (
    PendingApproval,
    ToolCallDecision,
    as_decisions,
    denial_reason,
    denial_text,
)
from springtail.execution._errors import ApprovalConflictError
from springtail.memory._codec import (
    dumps_json,
    message_data,
    message_from_data,
    response_data,
    response_from_data,
)
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
)

__all__ = ["PausedTurn", "already_paused", "nothing_paused"]

_VERSION = 1


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class PausedTurn:
    """A turn that waits for a decision on some of its tool calls.

    Attributes:
        assistant: The model's reply with all its tool calls.
        pending: The calls that wait for a person, with their deadlines.
        results: The answers of the reply's other calls, which already ran.
        messages: The conversation before ``assistant`` (system messages
            left out), for resuming without chat memory; empty when a chat
            memory keeps the conversation.
        decisions: A decision per pending call once the turn is decided
            (taken from its store to be resumed); empty while it waits.
        paused_at: When the turn paused (UTC).
    """

    assistant: AssistantMessage
    pending: tuple[PendingApproval, ...]
    results: tuple[ToolResponse, ...] = ()
    messages: tuple[Message, ...] = ()
    decisions: Mapping[str, ToolCallDecision] = field(default_factory=dict, hash=False)
    paused_at: datetime = field(default_factory=_now)

    def __post_init__(self) -> None:
        for name in ("pending", "results", "messages"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        if not self.pending:
            raise ValueError("A paused turn needs at least one pending approval")

    @property
    def decided(self) -> bool:
        """Whether every pending call has its decision (the turn can resume)."""
        return bool(self.decisions)

    def waiting(self, now: datetime | None = None) -> tuple[PendingApproval, ...]:
        """The calls still waiting at ``now``: undecided and not expired."""
        if self.decisions:
            return ()
        now = now or _now()
        return tuple(p for p in self.pending if not p.expired(now))

    def with_decisions(
        self,
        decisions: Mapping[str, ToolCallDecision | bool],
        *,
        now: datetime | None = None,
        conversation_id: str | None = None,
    ) -> PausedTurn:
        """This turn decided: ``decisions`` for the waiting calls, denials for the expired ones.

        Raises:
            ApprovalConflictError: the turn was decided already, or a decision
                names a call that does not wait (unknown, answered, expired).
            ValueError: a waiting call has no decision (decide them all at once).
        """
        where = f" in conversation {conversation_id!r}" if conversation_id else ""
        if self.decisions:
            raise ApprovalConflictError(
                f"The paused turn{where} was decided already; nothing waits for approval.",
                conversation_id=conversation_id,
            )
        given = as_decisions(decisions)
        now = now or _now()
        by_id = {p.id: p for p in self.pending}
        answered = {r.id for r in self.results}
        for call_id in given:
            pending = by_id.get(call_id)
            if pending is None:
                state = "already ran" if call_id in answered else "is not part of this turn"
                raise ApprovalConflictError(
                    f"Call {call_id!r}{where} does not wait for approval (it {state}); the calls "
                    f"that wait are {_names(self.waiting(now))}.",
                    conversation_id=conversation_id,
                )
            if pending.expired(now):
                raise ApprovalConflictError(
                    f"The approval of {pending.name} (call {call_id!r}){where} expired at "
                    f"{_when(pending.deadline)}; it counts as denied.",
                    conversation_id=conversation_id,
                )
        missing = [p for p in self.pending if p.id not in given and not p.expired(now)]
        if missing:
            raise ValueError(
                f"Decide every call that waits at once: {_names(missing)} has no decision{where}."
            )
        complete: dict[str, ToolCallDecision] = {}
        for pending in self.pending:
            decision = given.get(pending.id)
            if decision is None:  # expired
                decision = ToolCallDecision.deny(
                    f"its approval expired at {_when(pending.deadline)}"
                )
            complete[pending.id] = decision
        return replace(self, decisions=complete)

    def denied_exchange(self) -> tuple[AssistantMessage, ToolResponseMessage]:
        """The reply and its answers when no pending call was approved (nothing runs).

        This is how an expired turn is closed when the conversation goes on
        with a new message: the calls that ran keep their answers, the others
        are answered as denials, in call order.

        Raises:
            ValueError: the turn is not decided, or a call was approved (run it instead).
        """
        if not self.decisions or any(d.approved for d in self.decisions.values()):
            raise ValueError("Only a decided turn without approvals closes without running calls")
        answers = {r.id: r for r in self.results}
        responses: list[ToolResponse] = []
        for call in self.assistant.tool_calls:
            answer = answers.get(call.id)
            if answer is None:
                decision = self.decisions.get(call.id)
                if decision is None:
                    continue
                text = denial_text(call.name, denial_reason(decision))
                answer = ToolResponse(call.id, call.name, text, True)
            responses.append(answer)
        return self.assistant, ToolResponseMessage(tuple(responses))

    def to_json(self) -> str:
        """The turn as one line of JSON (see [`from_json`][])."""
        data: dict[str, Any] = {
            "version": _VERSION,
            "paused_at": self.paused_at.isoformat(),
            "assistant": message_data(self.assistant),
            "pending": [
                {
                    "id": p.call.id,
                    "name": p.call.name,
                    "arguments": p.call.arguments,
                    "deadline": p.deadline.isoformat() if p.deadline is not None else None,
                }
                for p in self.pending
            ],
            "results": [response_data(r) for r in self.results],
        }
        if self.messages:
            data["messages"] = [message_data(m) for m in self.messages]
        if self.decisions:
            data["decisions"] = {
                call_id: {"approved": d.approved, "message": d.message}
                for call_id, d in self.decisions.items()
            }
        return dumps_json(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> PausedTurn:
        """The turn [`to_json`][] wrote.

        Raises:
            ValueError: ``text`` is not a paused turn (the message says what is wrong).
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"A paused turn must be JSON ({exc})") from None
        try:
            return _from_data(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"Not a paused turn springtail can read: {exc}") from None


def _from_data(data: Any) -> PausedTurn:
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    if data.get("version") != _VERSION:
        raise ValueError(f"unknown version {data.get('version')!r} (expected {_VERSION})")
    assistant = message_from_data(data["assistant"])
    if not isinstance(assistant, AssistantMessage):
        raise ValueError("'assistant' must be an assistant message")
    pending = tuple(
        PendingApproval(
            ToolCall(_text(p, "id"), _text(p, "name"), _text(p, "arguments")),
            _time(p.get("deadline")),
        )
        for p in data["pending"]
    )
    decisions = {
        str(call_id): ToolCallDecision(bool(d["approved"]), d.get("message"))
        for call_id, d in data.get("decisions", {}).items()
    }
    paused_at = _time(data["paused_at"])
    assert paused_at is not None
    return PausedTurn(
        assistant,
        pending,
        tuple(map(response_from_data, data["results"])),
        tuple(map(message_from_data, data.get("messages", ()))),
        decisions,
        paused_at,
    )


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"{key!r} must be a string, got {type(value).__name__}")
    return value


def _time(value: Any) -> datetime | None:
    if value is None:
        return None
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        raise ValueError(f"time {value!r} has no time zone")
    return moment


def _when(moment: datetime | None) -> str:
    if moment is None:
        return "(never)"
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _names(pending: tuple[PendingApproval, ...] | list[PendingApproval]) -> str:
    if not pending:
        return "none"
    return ", ".join(f"{p.name} (call {p.id!r})" for p in pending)


def already_paused(conversation_id: str) -> ApprovalConflictError:
    """The error for pausing a conversation that waits for a decision already."""
    return ApprovalConflictError(
        f"Conversation {conversation_id!r} already waits for a decision; decide that turn "
        "before pausing another.",
        conversation_id=conversation_id,
    )


def nothing_paused(conversation_id: str) -> ApprovalConflictError:
    """The error for deciding a conversation in which nothing waits (any more)."""
    return ApprovalConflictError(
        f"Nothing waits for approval in conversation {conversation_id!r}: no turn paused, or "
        "it was decided already (by another request or process).",
        conversation_id=conversation_id,
    )
