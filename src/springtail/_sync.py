"""Run springtail's async core from synchronous code.

The core is ``async``; the sync API is a thin layer over it that must work in
three places: plain scripts, worker threads, and code that already runs inside
an event loop (a notebook cell), where ``asyncio.run`` fails with "event loop
is already running".

- With no loop running in this thread, a per-thread ``asyncio.Runner`` is
  reused, so repeated sync calls do not pay for a new event loop each time.
- With a loop running, the coroutine runs to completion on a fresh thread with
  its own loop while the caller blocks, which is what a sync call means.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from typing import Any, TypeVar

__all__ = ["iterate_sync", "run_sync"]

T = TypeVar("T")

_local = threading.local()


def _runner() -> asyncio.Runner:
    runner: asyncio.Runner | None = getattr(_local, "runner", None)
    if runner is None:
        runner = asyncio.Runner()
        _local.runner = runner
    return runner


def _in_running_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result, from any sync context."""
    if not _in_running_loop():
        return _runner().run(coro)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # handed back to the caller below
            box["error"] = exc

    thread = threading.Thread(target=target, name="springtail-sync", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


_DONE = object()


def iterate_sync(make_iterator: Callable[[], AsyncIterator[T]]) -> Iterator[T]:
    """Iterate an async iterator from sync code, item by item as they arrive.

    ``make_iterator`` is called where the iteration runs, so the async
    generator is bound to the loop that drives it. Closing the returned
    iterator early closes the async one too.
    """
    if not _in_running_loop():
        return _iterate_on_runner(make_iterator)
    return _iterate_on_thread(make_iterator)


def _iterate_on_runner(make_iterator: Callable[[], AsyncIterator[T]]) -> Iterator[T]:
    runner = _runner()
    iterator = make_iterator()
    try:
        while True:
            try:
                item = runner.run(_anext(iterator))
            except StopAsyncIteration:
                return
            yield item
    finally:
        aclose = getattr(iterator, "aclose", None)
        if aclose is not None:
            runner.run(aclose())


async def _anext(iterator: AsyncIterator[T]) -> T:
    return await iterator.__anext__()


def _iterate_on_thread(make_iterator: Callable[[], AsyncIterator[T]]) -> Iterator[T]:
    items: queue.Queue[Any] = queue.Queue(maxsize=64)
    stop = threading.Event()

    async def pump() -> None:
        iterator = make_iterator()
        try:
            async for item in iterator:
                if stop.is_set():
                    break
                items.put(item)
        finally:
            aclose = getattr(iterator, "aclose", None)
            if aclose is not None:
                await aclose()

    def target() -> None:
        try:
            asyncio.run(pump())
        except BaseException as exc:  # handed back to the consumer
            items.put(_Failure(exc))
        else:
            items.put(_DONE)

    thread = threading.Thread(target=target, name="springtail-stream", daemon=True)
    thread.start()
    try:
        while True:
            item = items.get()
            if item is _DONE:
                return
            if isinstance(item, _Failure):
                raise item.error
            yield item
    finally:
        stop.set()
        while thread.is_alive():  # unblock a producer waiting on a full queue
            with contextlib.suppress(queue.Empty):
                items.get(timeout=0.05)


class _Failure:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error
