"""Running one tool call: on which thread, and for how long the manager waits.

``async`` tools run on the event loop; sync tools on the manager's worker
pool, so the loop never blocks on them. A timeout cancels an async tool and
abandons a sync one (a thread cannot be killed). Without a timeout, the one
call of a sync API request runs inline on ``run_sync``'s private loop, which
serves nobody else, sparing two thread hops.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from springtail import _sync
from springtail.execution._errors import ToolTimeoutError
from springtail.execution._pool import WorkerPool
from springtail.tools._callback import ToolCallback
from springtail.tools._context import ToolContext

__all__ = ["run_tool"]


async def run_tool(
    callback: ToolCallback,
    arguments: str,
    context: ToolContext,
    wait_s: float | None,
    *,
    alone: bool,
    pool: Callable[[], WorkerPool],
) -> str:
    """Run the callback and return its answer as text.

    Args:
        callback: the tool.
        arguments: the model's JSON arguments, as written.
        context: the request's tool context.
        wait_s: seconds to wait, or ``None`` to wait for ever.
        alone: this is the only call of the response being run.
        pool: the manager's worker pool, created on first use.

    Raises:
        ToolTimeoutError: the tool did not finish within ``wait_s``.
    """
    if callback.tool_metadata.is_async:
        if wait_s is None:
            return as_text(await callback.acall(arguments, context))
        scope = asyncio.timeout(wait_s)
        try:
            async with scope:
                result = await callback.acall(arguments, context)
        except TimeoutError:
            if scope.expired():
                raise ToolTimeoutError(callback.tool_definition, wait_s) from None
            raise
        return as_text(result)
    if wait_s is None and alone and on_private_loop():
        return as_text(callback.call(arguments, context))
    workers = pool()
    job = workers.submit(callback.call, arguments, context)
    if wait_s is None:
        try:
            result = await job.future
        except asyncio.CancelledError:
            workers.give_up(job)
            raise
        return as_text(result)
    scope = asyncio.timeout(wait_s)
    try:
        async with scope:
            result = await job.future
    except BaseException as exc:
        if job.future.cancelled():
            workers.give_up(job)
        if isinstance(exc, TimeoutError) and scope.expired():
            raise ToolTimeoutError(callback.tool_definition, wait_s) from None
        raise
    return as_text(result)


def on_private_loop() -> bool:
    """Whether the running loop is the one ``run_sync`` keeps for this thread.

    That loop only ever runs the coroutine of the sync call that started it,
    so blocking it for a moment delays no one else.
    """
    return _sync.on_private_loop()


def as_text(result: object) -> str:
    """The callback's result as the model's answer (``None`` is empty)."""
    if isinstance(result, str):
        return result
    if result is None:
        return ""
    return str(result)
