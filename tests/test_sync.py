"""The sync bridge must work from plain code, from threads and inside a running loop."""

import asyncio
import threading
from collections.abc import AsyncIterator

import pytest

from springtail._sync import iterate_sync, run_sync


async def _double(x: int) -> int:
    await asyncio.sleep(0)
    return 2 * x


async def _count(n: int) -> AsyncIterator[int]:
    for i in range(n):
        await asyncio.sleep(0)
        yield i


def test_run_sync_from_plain_code_reuses_one_loop() -> None:
    loops = []

    async def which_loop() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    loops.append(run_sync(which_loop()))
    loops.append(run_sync(which_loop()))
    assert run_sync(_double(21)) == 42
    assert loops[0] is loops[1]


def test_run_sync_from_several_threads_at_once() -> None:
    results: dict[int, int] = {}

    def worker(i: int) -> None:
        results[i] = run_sync(_double(i))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: 2 * i for i in range(8)}


async def test_run_sync_inside_a_running_loop() -> None:
    # What a notebook cell does: sync API called while a loop is running.
    assert run_sync(_double(5)) == 10


def test_run_sync_propagates_exceptions() -> None:
    async def boom() -> None:
        raise KeyError("missing")

    with pytest.raises(KeyError, match="missing"):
        run_sync(boom())


async def test_run_sync_propagates_exceptions_inside_a_running_loop() -> None:
    async def boom() -> None:
        raise KeyError("missing")

    with pytest.raises(KeyError, match="missing"):
        run_sync(boom())


def test_iterate_sync_from_plain_code() -> None:
    assert list(iterate_sync(lambda: _count(5))) == [0, 1, 2, 3, 4]


async def test_iterate_sync_inside_a_running_loop() -> None:
    assert list(iterate_sync(lambda: _count(5))) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("in_loop", [False, True])
def test_iterate_sync_closes_the_async_iterator_when_stopped_early(in_loop: bool) -> None:
    closed = threading.Event()

    async def endless() -> AsyncIterator[int]:
        try:
            i = 0
            while True:
                await asyncio.sleep(0)
                yield i
                i += 1
        finally:
            closed.set()

    def consume() -> list[int]:
        it = iterate_sync(endless)
        got = [next(it), next(it)]
        it.close()  # type: ignore[attr-defined]
        return got

    if in_loop:

        async def main() -> list[int]:
            return consume()

        got = asyncio.run(main())
    else:
        got = consume()
    assert got == [0, 1]
    assert closed.wait(2)


def test_iterate_sync_propagates_errors() -> None:
    async def failing() -> AsyncIterator[int]:
        yield 1
        raise RuntimeError("stream broke")

    it = iterate_sync(failing)
    assert next(it) == 1
    with pytest.raises(RuntimeError, match="stream broke"):
        next(it)
