"""A small worker pool for sync tools that a hung tool cannot wedge.

Why not ``concurrent.futures.ThreadPoolExecutor``: a sync tool that hangs
cannot be killed, only abandoned. In an executor such a tool keeps its worker
forever (so the pool shrinks by one with every hang), and the interpreter
waits for it at exit. Here an abandoned worker is replaced at once and leaves
when its tool finally returns, and workers are daemon threads, so a hung tool
never blocks shutdown. Results are delivered straight onto the caller's
event loop, one hop instead of the executor's two.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["WorkerPool"]

_IDLE_SECONDS = 60.0
"""An idle worker leaves after this long, so a quiet manager holds no threads."""

_QUEUED, _RUNNING, _DONE, _CANCELLED, _ABANDONED = range(5)


class Job:
    """One sync call handed to the pool."""

    __slots__ = ("args", "context", "fn", "future", "loop", "state")

    def __init__(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        loop: asyncio.AbstractEventLoop,
        future: asyncio.Future[Any],
    ) -> None:
        self.fn = fn
        self.args = args
        self.loop = loop
        self.future = future
        # The tool sees the caller's context variables (current span, request
        # ids), as it would under asyncio.to_thread.
        self.context = contextvars.copy_context()
        self.state = _QUEUED


def _deliver(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class WorkerPool:
    """Runs sync callables on at most ``size`` live threads, started on demand."""

    def __init__(
        self, size: int, *, name: str = "springtail-tool", idle_s: float = _IDLE_SECONDS
    ) -> None:
        self._size = size
        self._name = name
        self._idle_s = idle_s
        self._queue: queue.SimpleQueue[Job] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = threading.Semaphore(0)
        self._live = 0
        self._started = 0

    @property
    def live_workers(self) -> int:
        """Workers counted against ``size`` (abandoned ones are not)."""
        return self._live

    def submit(self, fn: Callable[..., Any], *args: Any) -> Job:
        """Queue ``fn(*args)``; its outcome arrives on the running loop's future."""
        loop = asyncio.get_running_loop()
        job = Job(fn, args, loop, loop.create_future())
        self._queue.put(job)
        if not self._idle.acquire(blocking=False):
            with self._lock:
                if self._live < self._size:
                    self._live += 1
                    self._started += 1
                    thread = threading.Thread(
                        target=self._work, name=f"{self._name}-{self._started}", daemon=True
                    )
                    thread.start()
        return job

    def give_up(self, job: Job) -> None:
        """Stop waiting for ``job``: drop it if queued, abandon its worker if running.

        An abandoned worker no longer counts against ``size``, so a
        replacement starts on the next submit; it exits once the tool returns.
        """
        with self._lock:
            if job.state == _QUEUED:
                job.state = _CANCELLED
            elif job.state == _RUNNING:
                job.state = _ABANDONED
                self._live -= 1
        if not job.future.done():
            job.future.cancel()

    def _work(self) -> None:
        get = self._queue.get
        lock = self._lock
        while True:
            try:
                job = get(timeout=self._idle_s)
            except queue.Empty:
                # Leave only if nobody counted on this worker being idle. The
                # count drops under the lock that submit() checks it under,
                # so a submit that found no idle worker starts a new one.
                with lock:
                    if self._idle.acquire(blocking=False):
                        self._live -= 1
                        return
                continue
            with lock:
                if job.state != _QUEUED:
                    skip = True
                else:
                    job.state = _RUNNING
                    skip = False
            if not skip:
                try:
                    value = job.context.run(job.fn, *job.args)
                    ok = True
                except BaseException as exc:  # handed to the awaiting task
                    value, ok = exc, False
                with lock:
                    abandoned = job.state == _ABANDONED
                    job.state = _DONE
                if not abandoned:
                    # A closed loop raises RuntimeError: nobody is waiting any more.
                    with contextlib.suppress(RuntimeError):
                        job.loop.call_soon_threadsafe(_deliver, job.future, ok, value)
                del value
                if abandoned:
                    return
            del job
            self._idle.release()
