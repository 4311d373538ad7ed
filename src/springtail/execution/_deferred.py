"""Approvals that wait for a person: deferring a call, the pending call, the decision.

A blocking approver holds the turn (and its process) until someone answers.
An approver that returns ``DEFER`` instead leaves the call unrun: the
manager answers every other call of the response and reports the deferred
ones as ``PendingApproval`` values, the tool loop ends the turn, and a
later request, from any process, brings a ``ToolCallDecision`` per
pending call (Spring AI 2.1 calls the same idea "tool call confirmation",
with ``ToolCallDecision``: allow, or deny with a message).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from springtail.messages import ToolCall
from springtail.tools._definition import ToolDefinition

__all__ = [
    "DEFER",
    "Defer",
    "PendingApproval",
    "ToolCallDecision",
    "as_decisions",
    "deadline_after",
    "defer_approval",
    "denial_reason",
    "denial_text",
]


@dataclass(frozen=True, slots=True)
class Defer:
    """An approver's answer meaning "a person decides later": the call waits, the turn pauses.

    Attributes:
        timeout: Seconds the call may wait for its decision; ``None`` uses the
            manager's ``approval_timeout`` (which may itself be ``None``: no
            deadline). After it the call counts as denied.
    """

    timeout: float | None = None

    def __post_init__(self) -> None:
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(
                f"Defer(timeout=...) must be a positive number of seconds, got {self.timeout!r}"
            )


DEFER: Final = Defer()
"""Return this from an approver to defer the call to a later request."""


def defer_approval(call: ToolCall, definition: ToolDefinition) -> Defer:
    """An approver that defers every call needing approval (``approver=defer_approval``)."""
    return DEFER


@dataclass(frozen=True, slots=True)
class PendingApproval:
    """A call that waits for a person's decision: what the model asked, and until when.

    Attributes:
        call: The tool call as the model wrote it (id, tool name, raw JSON arguments).
        deadline: When the wait ends (UTC); after it the call counts as denied.
            ``None``: it waits until decided.
    """

    call: ToolCall
    deadline: datetime | None = None

    @property
    def id(self) -> str:
        """The call id a decision names."""
        return self.call.id

    @property
    def name(self) -> str:
        """The tool the model asked for."""
        return self.call.name

    @property
    def arguments(self) -> str:
        """The call's arguments, the model's JSON text."""
        return self.call.arguments

    def expired(self, now: datetime | None = None) -> bool:
        """Whether the deadline has passed at ``now`` (default: the current time)."""
        if self.deadline is None:
            return False
        return (now or datetime.now(UTC)) >= self.deadline


@dataclass(frozen=True, slots=True)
class ToolCallDecision:
    """A person's decision on one pending call: run it, or answer the model with a denial.

    Attributes:
        approved: Whether the call may run.
        message: Why it was denied, in words the model reads (default: "the
            person declined it"); ignored for an approval.
    """

    approved: bool
    message: str | None = None

    @classmethod
    def approve(cls) -> ToolCallDecision:
        """Let the call run."""
        return _APPROVED

    @classmethod
    def deny(cls, message: str | None = None) -> ToolCallDecision:
        """Do not run the call; the model reads ``message`` as the reason."""
        return cls(False, message)


_APPROVED: Final = ToolCallDecision(True)


def as_decisions(
    decisions: Mapping[str, ToolCallDecision | bool],
) -> dict[str, ToolCallDecision]:
    """``{call_id: ToolCallDecision}``, accepting ``True``/``False`` for approve/deny.

    Raises:
        TypeError: a key is not a call id (str) or a value is neither.
    """
    result: dict[str, ToolCallDecision] = {}
    for call_id, decision in decisions.items():
        if not isinstance(call_id, str) or not call_id:
            raise TypeError(
                f"A decision must name its call by id (a non-empty str), got {call_id!r}"
            )
        if isinstance(decision, bool):
            decision = _APPROVED if decision else ToolCallDecision(False)
        elif not isinstance(decision, ToolCallDecision):
            raise TypeError(
                f"The decision for call {call_id!r} must be True, False or a ToolCallDecision, "
                f"got {decision!r}"
            )
        result[call_id] = decision
    return result


def deadline_after(timeout: float | None, now: datetime | None = None) -> datetime | None:
    """The deadline ``timeout`` seconds from ``now``, or ``None`` for no deadline."""
    if timeout is None:
        return None
    return (now or datetime.now(UTC)) + timedelta(seconds=timeout)


def denial_reason(decision: ToolCallDecision) -> str:
    """What a denied call's answer says in its parentheses."""
    return decision.message or "the person declined it"


def denial_text(tool_name: str, reason: str) -> str:
    """The answer the model reads for a call that was not approved."""
    return f"The call to tool '{tool_name}' was not approved ({reason}), so it did not run."
