"""Tool events travel from wherever a tool runs to the stream's consumer."""

import asyncio

from springtail.client import TOOL_EVENT_RELAY, TextDelta, ToolCallFinished, ToolCallStarted
from springtail.client._events import EventSink, current_sink
from springtail.messages import ToolCall, ToolResponse


async def test_relay_forwards_to_the_current_sink_from_any_thread() -> None:
    loop = asyncio.get_running_loop()
    received: list[object] = []
    sink = EventSink(loop, received.append)
    call = ToolCall("c1", "lookup", '{"sku": "A"}')
    token = current_sink().set(sink)
    try:
        TOOL_EVENT_RELAY.on_tool_start(call, None)

        def from_worker() -> None:
            TOOL_EVENT_RELAY.on_tool_end(call, None, ToolResponse("c1", "lookup", "7"), 0.25)

        # A worker thread started with the context copied, as asyncio.to_thread does.
        await asyncio.to_thread(from_worker)
        await asyncio.sleep(0)  # let call_soon_threadsafe deliver
    finally:
        current_sink().reset(token)
    assert received == [
        ToolCallStarted("c1", "lookup", '{"sku": "A"}'),
        ToolCallFinished("c1", "lookup", "7", False, 0.25),
    ]


def test_relay_does_nothing_without_a_stream() -> None:
    call = ToolCall("c1", "lookup", "{}")
    TOOL_EVENT_RELAY.on_tool_start(call, None)  # no sink: no error, no effect
    assert current_sink().get() is None


def test_events_are_values() -> None:
    assert TextDelta("a") == TextDelta("a")
    assert hash(ToolCallStarted("1", "t", "{}")) == hash(ToolCallStarted("1", "t", "{}"))
