"""Stream events: the per-execution queue listener the tool loop streams tool events from."""

from __future__ import annotations

from springtail.client import ToolApprovalDecided, ToolCallFinished, ToolCallStarted
from springtail.client._events import ToolEventQueue
from springtail.messages import ToolCall, ToolResponse


async def test_the_queue_reports_start_approval_and_end_in_order() -> None:
    events = ToolEventQueue()
    call = ToolCall("c1", "reserve", '{"sku": "A"}')
    events.on_tool_start(call, None)
    events.on_tool_end(call, None, ToolResponse("c1", "reserve", "done"), 0.25)
    events.close()
    received = []
    while (event := await events.queue.get()) is not None:
        received.append(event)
    assert received == [
        ToolCallStarted("c1", "reserve", '{"sku": "A"}'),
        ToolCallFinished("c1", "reserve", "done", False, 0.25, 0.0),
    ]


async def test_the_approval_wait_is_reported_apart_from_the_run_time() -> None:
    events = ToolEventQueue()
    call = ToolCall("c1", "reserve", "{}")
    events.on_tool_start(call, None)
    events.on_tool_approval(call, None, True, 24.5)  # type: ignore[arg-type]
    events.on_tool_end(call, None, ToolResponse("c1", "reserve", "done"), 0.01)
    events.close()
    received = []
    while (event := await events.queue.get()) is not None:
        received.append(event)
    assert received[1] == ToolApprovalDecided("c1", "reserve", True, 24.5)
    assert received[2] == ToolCallFinished("c1", "reserve", "done", False, 0.01, 24.5)
