"""Approvals that wait inside a durable turn: ``DBOS.recv`` on a topic per call.

Without DBOS, a call whose approver answers ``DEFER`` ends the turn and is
stored as a paused turn; a later request brings the decision. In a durable
turn the workflow itself waits instead: it publishes the waiting call as a
workflow event, then receives the decision on the call's topic, for at most
the approval timeout (after which the call counts as denied, as a paused
call whose deadline passed does). The decision is sent with ``DBOS.send``,
from any process, or from outside through ``DBOSClient``; the workflow may
have been recovered by another process meanwhile, the message waits in the
system database.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from dbos import DBOS, DBOSClient

from springtail.client import ToolApprovalRequested
from springtail.durable._stream import EVENTS_STREAM, streaming
from springtail.execution import Approver, Defer, ToolCallDecision
from springtail.execution._deferred import deadline_after
from springtail.memory._paused import _when
from springtail.messages import ToolCall
from springtail.tools import ToolDefinition

__all__ = [
    "APPROVAL_EVENT",
    "DurableApprover",
    "WaitingCall",
    "aapprove",
    "adeny",
    "approval_topic",
    "approve",
    "deny",
]

APPROVAL_EVENT: Final[str] = "springtail.approval.waiting"
"""The workflow event naming the call that waits for a decision (``None`` when none waits)."""

ASK_STEP: Final[str] = "springtail.approval.ask"

_FOREVER_S: Final[float] = 10 * 365 * 24 * 3600.0
"""How long "until decided" is: DBOS.recv needs a number."""


def approval_topic(call_id: str) -> str:
    """The topic a call's decision is sent on."""
    if not call_id:
        raise ValueError("call_id must not be empty")
    return f"springtail.approval:{call_id}"


@dataclass(frozen=True, slots=True)
class WaitingCall:
    """A call of a durable turn that waits for a person's decision.

    Attributes:
        id: The call id a decision names.
        name: The tool.
        arguments: The model's JSON arguments.
        timeout: Seconds the call waits before it counts as denied (``None``:
            until decided).
        deadline: When the wait ends (UTC), as the stream's
            ``ToolApprovalRequested`` says; ``None`` until decided.
    """

    id: str
    name: str
    arguments: str
    timeout: float | None
    deadline: datetime | None = None


class DurableApprover:
    """The approver of a durable turn: the application's, and a durable wait for DEFER.

    Args:
        approver: The application's approver (``None``: calls are denied, as
            without DBOS).
        timeout: The manager's approval timeout, used when a ``Defer`` names none.

    Outside a workflow it is the application's approver. Inside one, that
    approver's answer is recorded as a step (a person at a terminal answers
    once, not again on recovery), and a ``DEFER`` makes the workflow wait for
    the decision message.
    """

    __slots__ = ("_approver", "_timeout")

    def __init__(self, approver: Approver | None, timeout: float | None) -> None:
        self._approver = approver
        self._timeout = timeout

    @property
    def approver(self) -> Approver | None:
        """The application's approver."""
        return self._approver

    async def _ask(self, call: ToolCall, definition: ToolDefinition) -> Any:
        approver = self._approver
        if approver is None:
            return False
        verdict: Any = approver(call, definition)
        if inspect.isawaitable(verdict):
            verdict = await verdict
        return verdict

    async def __call__(self, call: ToolCall, definition: ToolDefinition) -> bool | Defer | Any:
        """Ask; in a workflow, record the answer and wait durably for a deferred call."""
        if DBOS.workflow_id is None or DBOS.step_id is not None:
            return await self._ask(call, definition)
        verdict: Any = await DBOS.run_step_async({"name": ASK_STEP}, self._ask, call, definition)
        if not isinstance(verdict, Defer):
            return verdict
        timeout = verdict.timeout if verdict.timeout is not None else self._timeout
        deadline = deadline_after(timeout)
        waiting = WaitingCall(call.id, call.name, call.arguments, timeout, deadline)
        await DBOS.set_event_async(APPROVAL_EVENT, waiting)
        if streaming.get() is not None:  # as the paused-turn path reports a deferred call
            requested = ToolApprovalRequested(call.id, call.name, call.arguments, deadline)
            await DBOS.write_stream_async(EVENTS_STREAM, requested)
        decision: Any = await DBOS.recv_async(
            approval_topic(call.id), timeout if timeout is not None else _FOREVER_S
        )
        await DBOS.set_event_async(APPROVAL_EVENT, None)
        if decision is None:
            # The paused-turn path's words for an expired approval: the model reads the same.
            return ToolCallDecision(False, f"its approval expired at {_when(deadline)}")
        if isinstance(decision, ToolCallDecision):
            return decision
        return ToolCallDecision(bool(decision))


def _decision(approved: bool, message: str | None) -> ToolCallDecision:
    return ToolCallDecision.approve() if approved else ToolCallDecision.deny(message)


def approve(workflow_id: str, call_id: str, *, client: DBOSClient | None = None) -> None:
    """Let the waiting call ``call_id`` of the turn ``workflow_id`` run.

    Args:
        workflow_id: The turn's workflow id (see ``turn_workflow_id``).
        call_id: The call, as the waiting event or the stream named it.
        client: Send through this ``DBOSClient`` (from a process that does
            not run DBOS itself); default ``DBOS.send``.
    """
    _send(workflow_id, call_id, _decision(True, None), client)


def deny(
    workflow_id: str, call_id: str, message: str | None = None, *, client: DBOSClient | None = None
) -> None:
    """Refuse the waiting call; the model reads ``message`` as the reason."""
    _send(workflow_id, call_id, _decision(False, message), client)


async def aapprove(workflow_id: str, call_id: str, *, client: DBOSClient | None = None) -> None:
    """The async form of [`approve`][]."""
    await _asend(workflow_id, call_id, _decision(True, None), client)


async def adeny(
    workflow_id: str, call_id: str, message: str | None = None, *, client: DBOSClient | None = None
) -> None:
    """The async form of [`deny`][]."""
    await _asend(workflow_id, call_id, _decision(False, message), client)


def _send(
    workflow_id: str, call_id: str, decision: ToolCallDecision, client: DBOSClient | None
) -> None:
    if client is not None:
        client.send(workflow_id, decision, approval_topic(call_id))
    else:
        DBOS.send(workflow_id, decision, approval_topic(call_id))


async def _asend(
    workflow_id: str, call_id: str, decision: ToolCallDecision, client: DBOSClient | None
) -> None:
    if client is not None:
        await client.send_async(workflow_id, decision, approval_topic(call_id))
    else:
        await DBOS.send_async(workflow_id, decision, approval_topic(call_id))
