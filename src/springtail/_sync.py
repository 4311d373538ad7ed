"""Run springtail's async core from synchronous code.

The core is ``async``; the sync API is a thin layer over it that must work in
three places: plain scripts, worker threads, and code that already runs inside
an event loop (a notebook cell), where ``asyncio.run`` fails with "event loop
is already running".

- With no loop running in this thread, a per-thread event loop is reused, so
  repeated sync calls do not pay for a new event loop each time.
- With a loop running, the coroutine runs to completion on a fresh thread with
  its own loop while the caller blocks, which is what a sync call means.

Whatever a loop opened for springtail (a provider's SDK client, with its
keep-alive connections) is closed when that loop shuts down:
``close_with_loop`` hooks it into the loop's ``shutdown_asyncgens()``,
which ``asyncio.run``, ``asyncio.Runner`` (and so pytest-asyncio) call, and
which the per-thread loop calls itself when its thread ends (or the program
exits).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import queue
import threading
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

__all__ = ["close_with_loop", "iterate_sync", "on_private_loop", "run_sync"]

T = TypeVar("T")

_local = threading.local()


class _OwnedLoop:
    """This thread's private loop; shut down and closed when the thread ends.

    Held only by the thread-local, so it is dropped (in the ending thread)
    when the thread finishes; the main thread's is closed at exit.
    """

    __slots__ = ("loop",)

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()

    def close(self) -> None:
        loop = self.loop
        if loop.is_closed() or loop.is_running():
            return
        if _in_running_loop():  # dropped on a thread that runs a loop of its own
            closer = threading.Thread(target=_shut_down, args=(loop,), name="springtail-close")
            closer.start()
            closer.join()
        else:
            _shut_down(loop)

    def __del__(self) -> None:
        self.close()


def _shut_down(loop: asyncio.AbstractEventLoop) -> None:
    """What ``asyncio.run`` does at its end: finalize async generators, then close."""
    with contextlib.suppress(Exception):
        loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()


def _private_loop() -> asyncio.AbstractEventLoop:
    # A plain loop driven with run_until_complete, not asyncio.Runner: the
    # Runner installs and removes a SIGINT handler on every run, which costs
    # more than the tool call it wraps (~50-100 us on Python 3.11).
    owned: _OwnedLoop | None = getattr(_local, "owned", None)
    if owned is None or owned.loop.is_closed():
        owned = _OwnedLoop()
        _local.owned = owned
        if threading.current_thread() is threading.main_thread():
            atexit.register(owned.close)
    return owned.loop


_closers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, set[Any]] = (
    weakref.WeakKeyDictionary()
)
"""Strong references to the running closers of each loop (the loop tracks them weakly)."""


def close_with_loop(aclose: Callable[[], Awaitable[object]]) -> None:
    """Await ``aclose()`` when the running loop shuts down.

    The hook is an async generator started on the loop: the loop finalizes
    its async generators when it shuts down (``loop.shutdown_asyncgens()``,
    run by ``asyncio.run``, ``asyncio.Runner`` and this module's own loops),
    and the generator's ``finally`` awaits ``aclose()`` there, on the loop
    that opened the resource. A loop closed without that step closes nothing.

    Raises:
        RuntimeError: no event loop is running in this thread.
    """
    loop = asyncio.get_running_loop()
    running = _closers.setdefault(loop, set())
    me: list[object] = []
    closer = _closing(aclose, running, me)
    me.append(closer)
    running.add(closer)
    step: Any = closer.__anext__()  # the loop starts tracking the generator here
    with contextlib.suppress(StopIteration):
        step.send(None)  # run it to its ``yield``, inside the ``try``


async def _closing(
    aclose: Callable[[], Awaitable[object]], running: set[Any], me: list[object]
) -> AsyncIterator[None]:
    try:
        yield
    finally:
        running.discard(me[0])  # once all have run, nothing here refers to the loop
        await aclose()


def _in_running_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def on_private_loop() -> bool:
    """Whether the running loop is the one ``run_sync`` keeps for this thread.

    That loop only runs the coroutine of the one sync call that started it,
    so a caller may block it briefly (run a lone sync tool inline) without
    delaying anyone else.
    """
    owned: _OwnedLoop | None = getattr(_local, "owned", None)
    if owned is None:
        return False
    try:
        return asyncio.get_running_loop() is owned.loop
    except RuntimeError:
        return False


def _run_on_private_loop(coro: Coroutine[Any, Any, T]) -> T:
    loop = _private_loop()
    task = loop.create_task(coro)
    try:
        return loop.run_until_complete(task)
    except BaseException:
        # Ctrl-C (or anything else) stopped the loop mid-task: cancel the task
        # and let it unwind, so the next sync call starts on a clean loop.
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                loop.run_until_complete(task)
        _retrieved(task)
        raise


def _retrieved(task: asyncio.Task[Any]) -> None:
    """Mark the exception a finished task holds as seen.

    A ``KeyboardInterrupt`` raised inside a task (Ctrl-C while a sync tool
    runs inline) is stored on the task *and* re-raised by the loop; the
    caller handles the re-raised one, so the stored copy would otherwise be
    reported at garbage collection as "Task exception was never retrieved".
    """
    if task.done() and not task.cancelled():
        task.exception()


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result, from any sync context."""
    if not _in_running_loop():
        return _run_on_private_loop(coro)
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
        return _iterate_on_private_loop(make_iterator)
    return _iterate_on_thread(make_iterator)


def _iterate_on_private_loop(make_iterator: Callable[[], AsyncIterator[T]]) -> Iterator[T]:
    iterator = make_iterator()
    try:
        while True:
            try:
                item = _run_on_private_loop(_anext(iterator))
            except StopAsyncIteration:
                return
            yield item
    finally:
        aclose = getattr(iterator, "aclose", None)
        if aclose is not None:
            _run_on_private_loop(aclose())


async def _anext(iterator: AsyncIterator[T]) -> T:
    return await iterator.__anext__()


def _iterate_on_thread(make_iterator: Callable[[], AsyncIterator[T]]) -> Iterator[T]:
    items: queue.Queue[Any] = queue.Queue(maxsize=64)
    stop = threading.Event()
    running: dict[str, Any] = {}

    async def pump() -> None:
        running["loop"] = asyncio.get_running_loop()
        running["task"] = asyncio.current_task()
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
        # The consumer is gone: cancel what the stream is waiting for (a running
        # tool, the model) instead of letting it finish first.
        loop, task = running.get("loop"), running.get("task")
        if loop is not None and task is not None:
            with contextlib.suppress(RuntimeError):  # the loop already closed
                loop.call_soon_threadsafe(task.cancel)
        while thread.is_alive():  # unblock a producer waiting on a full queue
            with contextlib.suppress(queue.Empty):
                items.get(timeout=0.05)


class _Failure:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error
