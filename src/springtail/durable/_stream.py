"""The events of a streamed durable turn, written to a DBOS stream as they happen.

A streamed turn writes what ``StreamResponse.events()`` would yield to the
workflow's DBOS stream ``EVENTS_STREAM``: each text delta from inside the model
step, as the model streams it, and each tool call's start, approval and end
from the workflow, in the order the steps run. Anyone can read the stream,
from its start or from an offset, while the turn runs and after it ended, in
this process or another: a page that reconnects sees the turn go on. A write
from the workflow is checkpointed like a step, so a recovered turn does not
write it twice; the text of a model call that a crash interrupted is streamed
again when the call is made again.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Final

from dbos import DBOS

from springtail.client import (
    StreamEvent,
    TextDelta,
    ToolApprovalDecided,
    ToolCallFinished,
    ToolCallStarted,
)
from springtail.messages import ToolCall, ToolResponse
from springtail.tools import ToolDefinition

__all__ = ["EVENTS_STREAM", "StreamWriter", "streaming", "write_text"]

EVENTS_STREAM: Final[str] = "springtail.events"
"""The DBOS stream key of a streamed turn's events."""

streaming: ContextVar[dict[str, float] | None] = ContextVar(
    "springtail_durable_streaming", default=None
)
"""Set in a streamed turn's workflow: the approval waits of its calls, by call id."""


async def _write(event: StreamEvent) -> None:
    await DBOS.write_stream_async(EVENTS_STREAM, event)


async def write_text(text: str) -> None:
    """Write a text delta, when the running turn is streamed (called inside the model step)."""
    if text and streaming.get() is not None:
        await _write(TextDelta(text))


class StreamWriter:
    """A tool execution listener writing each call's events to the turn's stream.

    Its hooks are async, so the manager awaits each write where it happens,
    between the steps: the writes get their places in the workflow in the
    same order on every run.
    """

    __slots__ = ()

    async def on_tool_start(self, call: ToolCall, definition: ToolDefinition | None) -> None:
        """Write that ``call`` is about to run."""
        if streaming.get() is not None:
            await _write(ToolCallStarted(call.id, call.name, call.arguments))

    async def on_tool_approval(
        self, call: ToolCall, definition: ToolDefinition, approved: bool, wait_s: float
    ) -> None:
        """Write the approval's decision."""
        waits = streaming.get()
        if waits is not None:
            waits[call.id] = wait_s
            await _write(ToolApprovalDecided(call.id, call.name, approved, wait_s))

    async def on_tool_end(
        self,
        call: ToolCall,
        definition: ToolDefinition | None,
        response: ToolResponse,
        duration_s: float,
    ) -> None:
        """Write how ``call`` ended."""
        waits = streaming.get()
        if waits is not None:
            await _write(
                ToolCallFinished(
                    call.id,
                    call.name,
                    response.response_data,
                    response.is_error,
                    duration_s,
                    waits.pop(call.id, 0.0),
                )
            )
