"""The sync bridge must work from plain code, from threads and inside a running loop."""

import asyncio
import threading
from collections.abc import AsyncIterator

import pytest

from springtail._sync import iterate_sync, on_private_loop, run_sync


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


def test_only_the_private_loop_of_a_sync_call_counts_as_private() -> None:
    # What lets a lone sync tool run inline (no thread hop) in a sync call:
    # the check must see run_sync's own loop, and no other loop.
    async def where() -> bool:
        return on_private_loop()

    assert run_sync(where()) is True
    assert asyncio.run(where()) is False
    assert on_private_loop() is False


async def test_an_applications_loop_is_not_private() -> None:
    assert on_private_loop() is False
    assert run_sync(_private_check()) is False  # a fresh thread's asyncio.run


async def _private_check() -> bool:
    return on_private_loop()


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


# -- Ctrl-C while a lone sync tool runs inline (issue 15, item 12) ----------------------

_CTRL_C_CHILD = """
import gc, signal, sys, time
# A terminal's Ctrl-C, whatever the parent left: a job started with ``&`` by a script
# inherits SIGINT ignored, and Python then raises no KeyboardInterrupt.
signal.signal(signal.SIGINT, signal.default_int_handler)
from springtail import ChatClient, tool
from springtail.messages import AssistantMessage, ToolCall
from springtail.models import ScriptedChatModel

@tool
def slow(n: int) -> str:
    '''Takes a while.'''
    print("started", flush=True)
    time.sleep(30)
    return "late"

model = ScriptedChatModel([AssistantMessage("", (ToolCall("c1", "slow", '{"n": 1}'),)), "done"])
spec = ChatClient(model, tools=[slow]).prompt("go")
try:
    if sys.argv[1] == "call":
        spec.call()
    else:
        list(spec.stream().events())
except KeyboardInterrupt:
    print("interrupted; nothing was lost.", flush=True)
gc.collect()
"""


@pytest.mark.parametrize("mode", ["call", "stream"])
def test_ctrl_c_during_an_inline_sync_tool_leaves_no_task_traceback(mode: str) -> None:
    import signal
    import subprocess
    import sys

    child = subprocess.Popen(
        [sys.executable, "-c", _CTRL_C_CHILD, mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "started"
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert "interrupted; nothing was lost." in out
    assert "never retrieved" not in err, err
    assert "Traceback" not in err, err


# -- leaving a sync stream inside a running loop (issue 15, item 13) ---------------------


@pytest.mark.parametrize("kind", ["async", "sync"])
async def test_breaking_out_of_a_sync_stream_in_a_running_loop_cancels_the_tool(
    kind: str,
) -> None:
    import time

    from springtail import ChatClient, ToolCallStarted, tool
    from springtail.messages import AssistantMessage, ToolCall
    from springtail.models import ScriptedChatModel

    cancelled = threading.Event()

    @tool
    async def hangs_async(n: int) -> str:
        """Never answers."""
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "late"

    @tool
    def hangs_sync(n: int) -> str:
        """Answers after a long while."""
        time.sleep(3)
        return "late"

    name = f"hangs_{kind}"
    model = ScriptedChatModel([AssistantMessage("", (ToolCall("c1", name, '{"n": 1}'),)), "x"])
    client = ChatClient(model, tools=[hangs_async if kind == "async" else hangs_sync])
    started = time.perf_counter()
    for event in client.prompt("go").stream().events():  # sync iteration on a running loop
        if isinstance(event, ToolCallStarted):
            break
    assert time.perf_counter() - started < 1.5
    if kind == "async":
        assert cancelled.wait(5)
