"""Asking before a tool marked ``requires_approval`` runs: now, later, or by a decision given."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

from springtail.execution._deferred import Defer, ToolCallDecision, denial_reason
from springtail.execution._errors import ToolApprovalDeniedError
from springtail.messages import ToolCall
from springtail.tools._definition import ToolDefinition
from springtail.tools._errors import ToolExecutionError

__all__ = ["ApprovalGate", "Approver"]

Approver: TypeAlias = Callable[
    [ToolCall, ToolDefinition],
    "bool | Defer | ToolCallDecision | Awaitable[bool | Defer | ToolCallDecision]",
]
"""Decides whether a tool marked ``requires_approval`` may run this call.

It returns true (run it), false (deny it), or [`DEFER`][springtail.execution.DEFER]
(a person decides later: the call waits and the turn pauses). A
``ToolCallDecision`` counts as the person's decision: approved, or denied with
its message."""


class ApprovalGate:
    """Asks the approver, one question at a time; no approver denies.

    A sync approver runs on a worker thread, so it may block on user input
    without stalling the event loop (and without needing one of its own,
    which terminal prompt libraries want). Questions are asked one at a time
    because an approver is usually a person.
    """

    __slots__ = ("_approver", "_is_async")

    def __init__(self, approver: Approver | None) -> None:
        if approver is not None and not callable(approver):
            raise TypeError(
                f"approver must be callable as approver(call, definition) -> bool, got {approver!r}"
            )
        self._approver = approver
        self._is_async = approver is not None and (
            inspect.iscoroutinefunction(approver)
            or inspect.iscoroutinefunction(getattr(approver, "__call__", None))  # noqa: B004
        )

    async def check(
        self,
        call: ToolCall,
        definition: ToolDefinition,
        lock: asyncio.Lock,
        decision: ToolCallDecision | None = None,
    ) -> Defer | None:
        """Return ``None`` if the call may run, or the ``Defer`` the approver answered.

        ``decision`` is a person's decision given with the request (a resumed
        turn): it is used instead of asking the approver.

        Raises:
            ToolApprovalDeniedError: no approver, or it (or the decision) said no.
            ToolExecutionError: the approver itself failed; the tool does not run.
        """
        if decision is not None:
            if decision.approved:
                return None
            raise ToolApprovalDeniedError(definition, call, reason=denial_reason(decision))
        approver = self._approver
        if approver is None:
            raise ToolApprovalDeniedError(
                definition, call, reason="it requires approval and no approver is configured"
            )
        async with lock:
            try:
                if self._is_async:
                    verdict: Any = await approver(call, definition)  # type: ignore[misc]
                else:
                    verdict = await asyncio.to_thread(approver, call, definition)
                    if inspect.isawaitable(verdict):
                        verdict = await verdict
            except Exception as exc:
                raise ToolExecutionError(
                    definition,
                    exc,
                    f"The approval check for tool '{definition.name}' failed, so it did not "
                    f"run: {exc}",
                ) from exc
        if isinstance(verdict, Defer):
            return verdict
        if isinstance(verdict, ToolCallDecision):
            # A person's decision that came while the call waited (a durable turn).
            if verdict.approved:
                return None
            raise ToolApprovalDeniedError(definition, call, reason=denial_reason(verdict))
        if not verdict:
            raise ToolApprovalDeniedError(definition, call, reason="the approver declined it")
        return None
