"""What a streamed request reports while it runs: text, and tool calls as they happen.

Tool calls run inside the tool loop, deep in the advisor chain, while the
caller waits for the next chunk. Their start and end therefore travel on a
side channel: the stream sets an :class:`EventSink` in a context variable,
and the ToolCallingManager's listener hook (:data:`TOOL_EVENT_RELAY`) hands
each start and end to it, from whichever task or worker thread runs the tool.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from springtail.messages import ToolCall, ToolResponse
    from springtail.tools._definition import ToolDefinition

__all__ = [
    "TOOL_EVENT_RELAY",
    "EventSink",
    "StreamEvent",
    "TextDelta",
    "ToolCallFinished",
    "ToolCallStarted",
    "ToolEventRelay",
    "current_sink",
]


@dataclass(frozen=True, slots=True)
class TextDelta:
    """The next piece of the answer's text."""

    text: str


@dataclass(frozen=True, slots=True)
class ToolCallStarted:
    """A tool call is about to run; ``arguments`` is the model's raw JSON."""

    id: str
    tool_name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class ToolCallFinished:
    """A tool call ended; ``result`` is the text the model will read."""

    id: str
    tool_name: str
    result: str
    is_error: bool
    duration_s: float


StreamEvent: TypeAlias = TextDelta | ToolCallStarted | ToolCallFinished
"""Anything ``StreamResponse.events()`` yields."""


class EventSink:
    """Delivers tool events to the loop that runs one stream, from any thread."""

    __slots__ = ("_loop", "_put", "_thread")

    def __init__(self, loop: asyncio.AbstractEventLoop, put: Callable[[StreamEvent], None]) -> None:
        self._loop = loop
        self._put = put
        self._thread = threading.get_ident()

    def emit(self, event: StreamEvent) -> None:
        """Hand ``event`` to the stream's consumer, in the order events happen."""
        if threading.get_ident() == self._thread:
            self._put(event)
        else:
            self._loop.call_soon_threadsafe(self._put, event)


_current_sink: ContextVar[EventSink | None] = ContextVar("springtail_event_sink", default=None)


def current_sink() -> ContextVar[EventSink | None]:
    """The context variable holding the sink of the stream being run, if any."""
    return _current_sink


class ToolEventRelay:
    """A ToolExecutionListener that forwards tool starts and ends to the current stream.

    It costs one context-variable read per tool call when nobody streams
    events, so the ToolCallingAdvisor's default manager always carries it.
    Add it to the ``listeners`` of your own ToolCallingManager to get live
    tool events from that manager too.
    """

    __slots__ = ()

    def on_tool_start(self, call: ToolCall, definition: ToolDefinition | None) -> None:
        """Report that ``call`` is about to run."""
        sink = _current_sink.get()
        if sink is not None:
            sink.emit(ToolCallStarted(call.id, call.name, call.arguments))

    def on_tool_end(
        self,
        call: ToolCall,
        definition: ToolDefinition | None,
        response: ToolResponse,
        duration_s: float,
    ) -> None:
        """Report how ``call`` ended."""
        sink = _current_sink.get()
        if sink is not None:
            sink.emit(
                ToolCallFinished(
                    call.id, call.name, response.response_data, response.is_error, duration_s
                )
            )


TOOL_EVENT_RELAY = ToolEventRelay()
"""The relay the ToolCallingAdvisor's default manager listens with."""
