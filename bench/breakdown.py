"""Where springtail's time goes in S1: each layer of one round trip timed alone.

A round trip through the client is: one model call (scripted, near free), one
``ToolCallingManager.aexecute_tool_calls`` (look-up, argument validation, the
call on the loop or in the pool, result conversion, the response message), and
the ToolCallingAdvisor's bookkeeping around them. Timing the manager and the
callback alone shows which layer to look at when a figure misses its target.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench._scenarios import add, add_async
from bench._timing import Row, Stats, time_calls


def _time_async(
    loop: asyncio.AbstractEventLoop,
    make: Callable[[], Awaitable[Any]],
    *,
    repeat: int,
    number: int,
) -> Stats:
    async def batch() -> float:
        start = time.perf_counter()
        for _ in range(number):
            await make()
        return (time.perf_counter() - start) / number

    loop.run_until_complete(batch())  # warm-up
    return Stats.of([loop.run_until_complete(batch()) for _ in range(repeat)])


def layer_rows(*, repeat: int, number: int = 200) -> list[Row]:
    """µs per operation for each layer, sync and async tool."""
    from springtail import (
        AssistantMessage,
        ChatOptions,
        ChatResponse,
        Prompt,
        ScriptedChatModel,
        ToolCall,
        ToolCallingManager,
        tool,
        tool_callbacks,
    )

    rows: list[Row] = []
    loop = asyncio.new_event_loop()
    try:
        reply = ChatResponse.of("hi")
        model = ScriptedChatModel([reply] * ((repeat + 1) * number + 1))
        plain = Prompt("hello")
        rows.append(
            Row(
                "ScriptedChatModel.acall (the model's share)",
                _time_async(loop, lambda: model.acall(plain), repeat=repeat, number=number),
                kind="springtail",
            )
        )
        call = ToolCall("call_1", "add", '{"a": 1, "b": 2}')
        response = ChatResponse.of(AssistantMessage(tool_calls=(call,)))
        manager = ToolCallingManager()
        for label, fn in (("sync add", add), ("async add", add_async)):
            (cb,) = tool_callbacks(tool(name="add")(fn))
            prompt = Prompt("hello", ChatOptions(tool_callbacks=(cb,)))
            rows.append(
                Row(
                    f"ToolCallingManager.aexecute_tool_calls, {label}",
                    _time_async(
                        loop,
                        functools.partial(manager.aexecute_tool_calls, prompt, response),
                        repeat=repeat,
                        number=number,
                    ),
                    kind="springtail",
                )
            )
            if fn is add:
                stats = time_calls(
                    functools.partial(cb.call, call.arguments), repeat=repeat, number=number
                )
                label_cb = "ToolCallback.call alone (how the manager runs a sync tool), sync add"
            else:
                stats = _time_async(
                    loop,
                    functools.partial(cb.acall, call.arguments),
                    repeat=repeat,
                    number=number,
                )
                label_cb = "ToolCallback.acall alone, async add"
            rows.append(Row(label_cb, stats, kind="springtail"))
    finally:
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()
    return rows
