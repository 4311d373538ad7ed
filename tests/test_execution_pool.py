"""The worker pool for sync tools: bounded, and a hung tool cannot wedge it."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Iterator

import pytest

from springtail.execution._pool import WorkerPool

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="none")


@pytest.fixture
def release() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


async def test_results_and_exceptions_arrive_on_the_loop() -> None:
    pool = WorkerPool(2)
    assert await pool.submit(lambda a, b: a + b, 2, 3).future == 5
    with pytest.raises(ZeroDivisionError):
        await pool.submit(lambda: 1 / 0).future


async def test_the_caller_context_is_visible_to_the_callable() -> None:
    pool = WorkerPool(1)
    request_id.set("req-42")
    assert await pool.submit(request_id.get).future == "req-42"


async def test_workers_are_daemon_threads_so_a_hung_tool_never_blocks_exit() -> None:
    pool = WorkerPool(1)
    job = pool.submit(lambda: threading.current_thread().daemon)
    assert await job.future is True


async def test_an_abandoned_worker_is_replaced_at_once(release: threading.Event) -> None:
    pool = WorkerPool(1)
    started = threading.Event()

    def hang() -> str:
        started.set()
        release.wait(10)
        return "late"

    hung = pool.submit(hang)
    await asyncio.to_thread(started.wait, 10)
    pool.give_up(hung)
    assert hung.future.cancelled()
    assert pool.live_workers == 0
    # The only worker is stuck, yet new work runs on a replacement.
    assert await pool.submit(lambda: "fresh").future == "fresh"
    assert pool.live_workers == 1


async def test_an_abandoned_worker_leaves_once_its_tool_returns(release: threading.Event) -> None:
    pool = WorkerPool(1, name="abandon-test")
    started = threading.Event()

    def hang() -> None:
        started.set()
        release.wait(10)

    hung = pool.submit(hang)
    await asyncio.to_thread(started.wait, 10)
    (thread,) = [t for t in threading.enumerate() if t.name.startswith("abandon-test")]
    pool.give_up(hung)
    release.set()
    await asyncio.to_thread(thread.join, 10)
    assert not thread.is_alive()
    assert pool.live_workers == 0


async def test_a_queued_job_given_up_never_runs(release: threading.Event) -> None:
    pool = WorkerPool(1)
    started = threading.Event()
    ran: list[str] = []

    def first() -> str:
        started.set()
        release.wait(10)
        return "first"

    blocking = pool.submit(first)
    await asyncio.to_thread(started.wait, 10)
    queued = pool.submit(lambda: ran.append("queued"))
    pool.give_up(queued)
    release.set()
    assert await blocking.future == "first"
    assert await pool.submit(lambda: "after").future == "after"
    assert ran == []


async def test_no_more_than_size_workers_run_at_once() -> None:
    pool = WorkerPool(3)
    changed = threading.Condition()
    in_flight = started = peak = 0

    def work() -> None:
        nonlocal in_flight, started, peak
        with changed:
            in_flight += 1
            started += 1
            peak = max(peak, in_flight)
            changed.notify_all()
            # Hold the worker until the pool is full (or every job started).
            changed.wait_for(lambda: in_flight >= 3 or started == 10, timeout=10)
        threading.Event().wait(0.01)
        with changed:
            in_flight -= 1
            changed.notify_all()

    await asyncio.gather(*[pool.submit(work).future for _ in range(10)])
    assert peak == 3
    assert pool.live_workers == 3


async def test_idle_workers_leave_and_new_work_still_runs() -> None:
    pool = WorkerPool(2, name="idle-test", idle_s=0.05)
    assert await pool.submit(lambda: "first").future == "first"
    (thread,) = [t for t in threading.enumerate() if t.name.startswith("idle-test")]
    await asyncio.to_thread(thread.join, 10)
    assert not thread.is_alive()
    assert pool.live_workers == 0
    assert await pool.submit(lambda: "again").future == "again"
    assert pool.live_workers == 1
