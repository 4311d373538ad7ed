"""Approvals over the web: what a paused conversation shows, and what a decision request says.

A reservation does not hold the process that asked for it: springtail's tool
loop pauses the turn and the chat memory (the shared database) keeps it, so
the page can show it after a reload, a restart, or on another process, and
any process can take the decision (docs/approvals.md). This module holds the
service's side of that: the JSON of the calls that wait, the
``approval_requested`` / ``approval_decided`` events, and reading a decision
body. Taking the paused turn (the compare-and-set) is the chat memory's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from springtail import PausedTurn, PendingApproval

__all__ = ["DecisionError", "decided_events", "decisions_from", "pending_json"]


class DecisionError(ValueError):
    """The decision body is not one the API takes (422 on the web)."""


def pending_json(paused: PausedTurn | None, now: datetime | None = None) -> list[dict[str, Any]]:
    """The calls a conversation waits for, as the page shows them; expired ones left out."""
    if paused is None:
        return []
    now = now or datetime.now(UTC)
    return [_pending(call, now) for call in paused.waiting(now)]


def _pending(call: PendingApproval, now: datetime) -> dict[str, Any]:
    deadline = call.deadline
    return {
        "approval_id": call.id,
        "id": call.id,
        "name": call.name,
        "arguments": call.arguments,
        "deadline": deadline.isoformat() if deadline is not None else None,
        "timeout_s": round((deadline - now).total_seconds(), 1) if deadline is not None else None,
    }


def decided_events(taken: PausedTurn, by_user: set[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``approval_decided`` per call of a taken turn: by the user, or by its deadline."""
    for call in taken.pending:
        decision = taken.decisions.get(call.id)
        yield (
            "approval_decided",
            {
                "approval_id": call.id,
                "approved": bool(decision and decision.approved),
                "reason": "user" if call.id in by_user else "timeout",
            },
        )


def decisions_from(body: Mapping[str, Any], approval_id: str | None) -> dict[str, bool]:
    """``{call id: approved}`` from the body of a decision request.

    The body is ``{"decisions": {id: bool, ...}}``, or ``{"approved": bool}``
    for the one call named in the path (``approval_id``).

    Raises:
        DecisionError: the body is neither, or a decision is not true or false.
    """
    if approval_id is not None:
        approved = body.get("approved")
        if not isinstance(approved, bool):
            raise DecisionError('Send {"approved": true} or {"approved": false}.')
        return {approval_id: approved}
    decisions = body.get("decisions")
    if (
        not isinstance(decisions, dict)
        or not decisions
        or not all(isinstance(k, str) and isinstance(v, bool) for k, v in decisions.items())
    ):
        raise DecisionError(
            'Send {"decisions": {"<call id>": true or false, ...}}, one for every call that waits.'
        )
    return dict(decisions)
