"""Running the calls of one execution: concurrently, with hooks, spans, approval and timeouts.

The manager decides which calls run (limits, repeats, which tools the
request offered); a ``CallRunner`` runs them and turns every outcome
into the answer the model reads, or, for a call whose approver deferred it,
into the ``PendingApproval`` that waits for a person.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping, Sequence
from time import perf_counter
from typing import Any

from springtail.execution._approval import ApprovalGate
from springtail.execution._deferred import (
    Defer,
    PendingApproval,
    ToolCallDecision,
    deadline_after,
)
from springtail.execution._errors import UnknownToolError
from springtail.execution._invoke import run_tool
from springtail.execution._observation import end_span, notify, settle, start_span
from springtail.execution._pool import WorkerPool
from springtail.execution._processor import ToolExecutionExceptionProcessor
from springtail.messages import ToolCall, ToolResponse
from springtail.tools._callback import ToolCallback
from springtail.tools._context import ToolContext
from springtail.tools._converter import cut_result
from springtail.tools._definition import ToolDefinition
from springtail.tools._errors import ToolExecutionError

__all__ = ["CallRunner", "Run"]


class Run:
    """State shared by the calls of one execution: context, hooks, tracer."""

    __slots__ = (
        "approval_lock",
        "available",
        "context",
        "decisions",
        "on_approval",
        "on_deferred",
        "on_end",
        "on_start",
        "single",
        "tracer",
    )

    def __init__(self, context: ToolContext, available: tuple[str, ...], tracer: Any) -> None:
        self.context = context
        self.available = available
        self.tracer = tracer
        self.single = False
        self.approval_lock: asyncio.Lock | None = None
        self.decisions: Mapping[str, ToolCallDecision] = {}
        self.on_start: tuple[Callable[..., Any], ...] = ()
        self.on_end: tuple[Callable[..., Any], ...] = ()
        self.on_approval: tuple[Callable[..., Any], ...] = ()
        self.on_deferred: tuple[Callable[..., Any], ...] = ()


def _error_type(error: ToolExecutionError | None) -> str | None:
    if error is None:
        return None
    if type(error) is ToolExecutionError:
        return type(error.cause).__name__
    return type(error).__name__


class CallRunner:
    """Runs tool calls with one manager's settings; its worker pool starts on first use."""

    __slots__ = (
        "_approval_timeout",
        "_approvals",
        "_default_timeout",
        "_include_content",
        "_max_concurrency",
        "_max_result_chars",
        "_pool",
        "_pool_lock",
        "_processor",
    )

    def __init__(
        self,
        *,
        processor: ToolExecutionExceptionProcessor,
        approvals: ApprovalGate,
        include_content: bool,
        max_concurrency: int,
        default_timeout: float | None,
        max_result_chars: int | None,
        approval_timeout: float | None = None,
    ) -> None:
        self._processor = processor
        self._approvals = approvals
        self._approval_timeout = approval_timeout
        self._include_content = include_content
        self._max_concurrency = max_concurrency
        self._default_timeout = default_timeout
        self._max_result_chars = max_result_chars
        self._pool: WorkerPool | None = None
        self._pool_lock = threading.Lock()

    async def run_all(
        self,
        calls: Sequence[ToolCall],
        resolved: Sequence[ToolCallback | None],
        notices: Sequence[tuple[str, str] | None],
        to_run: Sequence[int],
        run: Run,
        responses: list[ToolResponse | PendingApproval | None],
    ) -> None:
        if len(to_run) == 1:
            # One call: no task, no semaphore; the common case stays cheap.
            i = to_run[0]
            responses[i] = await self.call(calls[i], resolved[i], notices[i], run)
            return
        if not to_run:
            return
        semaphore = (
            asyncio.Semaphore(self._max_concurrency)
            if len(to_run) > self._max_concurrency
            else None
        )
        loop = asyncio.get_running_loop()
        tasks = [
            loop.create_task(self.call(calls[i], resolved[i], notices[i], run, semaphore))
            for i in to_run
        ]
        try:
            results = await asyncio.gather(*tasks)
        except BaseException:
            # A processor raised, or we were cancelled: stop every other call
            # (async tools are cancelled, threads are no longer waited for).
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        for i, response in zip(to_run, results, strict=True):
            responses[i] = response

    async def call(
        self,
        call: ToolCall,
        callback: ToolCallback | None,
        notice: tuple[str, str] | None,
        run: Run,
        semaphore: asyncio.Semaphore | None = None,
    ) -> ToolResponse | PendingApproval:
        """The call's answer, or its ``PendingApproval`` when the approver deferred it."""
        if semaphore is not None:
            async with semaphore:
                return await self.call(call, callback, notice, run)
        if run.tracer is None and not run.on_start and not run.on_end and not run.on_deferred:
            return (await self._respond(call, callback, notice, run))[0]
        definition = callback.tool_definition if callback is not None else None
        if run.on_start and (pending := notify(run.on_start, call, definition)):
            await settle(pending)
        started = perf_counter()
        if run.tracer is not None:
            with start_span(run.tracer, call, definition, self._include_content) as span:
                response, error_type, waited = await self._respond(call, callback, notice, run)
                if isinstance(response, PendingApproval):
                    span.set_attribute("springtail.tool.approval", "deferred")
                else:
                    end_span(span, response, error_type, self._include_content)
        else:
            response, _, waited = await self._respond(call, callback, notice, run)
        if isinstance(response, PendingApproval):
            assert definition is not None  # only a known tool can ask for approval
            if run.on_deferred and (
                pending := notify(run.on_deferred, call, definition, response.deadline)
            ):
                await settle(pending)
            return response
        if run.on_end and (
            pending := notify(
                run.on_end, call, definition, response, perf_counter() - started - waited
            )
        ):
            await settle(pending)
        return response

    async def _respond(
        self,
        call: ToolCall,
        callback: ToolCallback | None,
        notice: tuple[str, str] | None,
        run: Run,
    ) -> tuple[ToolResponse | PendingApproval, str | None, float]:
        """The call's response (or pending approval), its error type for a failure, the wait."""
        if notice is not None:
            return ToolResponse(call.id, call.name, notice[0], True), notice[1], 0.0
        error: ToolExecutionError
        waited = 0.0
        try:
            if callback is None:
                raise UnknownToolError(call.name, run.available)
            metadata = callback.tool_metadata
            if metadata.requires_approval:
                waited, deferred = await self._approve(call, callback.tool_definition, run)
                if deferred is not None:
                    wait = deferred.timeout
                    if wait is None:
                        wait = self._approval_timeout
                    return PendingApproval(call, deadline_after(wait)), None, waited
            timeout = metadata.timeout
            text = await run_tool(
                callback,
                call.arguments,
                run.context,
                self._default_timeout if timeout is None else timeout,
                alone=run.single,
                pool=self._worker_pool,
            )
        except ToolExecutionError as exc:
            error = exc
        except Exception as exc:
            error = ToolExecutionError(callback.tool_definition if callback else None, exc)
        else:
            return ToolResponse(call.id, call.name, self._cut(text)), None, waited
        answer = self._processor(error)
        if not isinstance(answer, str):
            raise TypeError(
                f"The exception processor {self._processor!r} returned {type(answer).__name__}; "
                "it must return the text the model reads (str) or raise."
            )
        return (
            ToolResponse(call.id, call.name, self._cut(answer), True),
            _error_type(error),
            waited,
        )

    async def _approve(
        self, call: ToolCall, definition: ToolDefinition, run: Run
    ) -> tuple[float, Defer | None]:
        """Ask the approver (or use the request's decision); the wait, and any deferral.

        Raises when the call is denied. A deferred call is not decided yet, so
        ``on_tool_approval`` hears about it only when its decision comes.
        """
        if run.approval_lock is None:
            run.approval_lock = asyncio.Lock()
        started = perf_counter()
        approved = False
        deferred: Defer | None = None
        try:
            deferred = await self._approvals.check(
                call, definition, run.approval_lock, run.decisions.get(call.id)
            )
            approved = deferred is None
        finally:
            waited = perf_counter() - started
            if (
                deferred is None
                and run.on_approval
                and (pending := notify(run.on_approval, call, definition, approved, waited))
            ):
                await settle(pending)
        return waited, deferred

    def _worker_pool(self) -> WorkerPool:
        pool = self._pool
        if pool is not None:
            return pool
        with self._pool_lock:
            if self._pool is None:
                self._pool = WorkerPool(self._max_concurrency)
            return self._pool

    def _cut(self, text: str) -> str:
        return cut_result(text, self._max_result_chars)
