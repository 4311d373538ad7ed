"""What a streamed request reports while it runs: text, and tool calls as they happen.

Tool calls run inside the tool loop, deep in the advisor chain. The loop's
own stream carries their events: while the manager runs one response's
calls, the ToolCallingAdvisor yields a ``ChatClientResponse`` per start,
approval and end (or deferral to a person), with an empty ``chat_response``
and the event in ``event``; a turn that ends waiting for a person's decision
ends with a ``TurnPaused``. Advisors outside the loop see them pass like any chunk;
``StreamResponse.events()`` turns them back into events. There is no side
channel: what is not in the stream did not happen.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from springtail.execution._deferred import PendingApproval
    from springtail.memory._paused import PausedTurn
    from springtail.messages import ToolCall, ToolResponse
    from springtail.tools._definition import ToolDefinition

__all__ = [
    "StreamEvent",
    "TextDelta",
    "ToolApprovalDecided",
    "ToolApprovalRequested",
    "ToolCallFinished",
    "ToolCallStarted",
    "ToolEvent",
    "ToolEventQueue",
    "TurnPaused",
]


@dataclass(frozen=True, slots=True)
class TextDelta:
    """The next piece of the answer's text."""

    text: str


@dataclass(frozen=True, slots=True)
class ToolCallStarted:
    """A tool call is about to run (or to ask for approval); ``arguments`` is the model's JSON."""

    id: str
    tool_name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class ToolApprovalDecided:
    """The approver decided on a call of a tool marked ``requires_approval``.

    ``wait_s`` is how long the decision took (usually a person thinking); it
    is not part of the call's ``duration_s``.
    """

    id: str
    tool_name: str
    approved: bool
    wait_s: float


@dataclass(frozen=True, slots=True)
class ToolCallFinished:
    """A tool call ended; ``result`` is the text the model will read.

    ``duration_s`` is the time the call took without the approval wait,
    which is reported apart in ``approval_wait_s`` (0 when none was asked).
    """

    id: str
    tool_name: str
    result: str
    is_error: bool
    duration_s: float
    approval_wait_s: float = 0.0


@dataclass(frozen=True, slots=True)
class ToolApprovalRequested:
    """The approver deferred a call to a person: it did not run and waits for a decision.

    ``deadline`` is when the wait ends (UTC), ``None`` for no deadline. The
    turn pauses once the response's other calls are answered (a
    [`TurnPaused`][] follows).
    """

    id: str
    tool_name: str
    arguments: str
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class TurnPaused:
    """The turn ended waiting for a person's decision on ``pending`` calls.

    ``paused_turn`` is the turn to resume: with chat memory it is stored
    already (resume with ``client.prompt().approve(call_id)``); without, keep
    ``paused_turn.to_json()`` and resume with ``.resume(...)``.
    """

    paused_turn: PausedTurn

    @property
    def pending(self) -> tuple[PendingApproval, ...]:
        """The calls that wait."""
        return self.paused_turn.pending


ToolEvent: TypeAlias = (
    ToolCallStarted | ToolApprovalDecided | ToolApprovalRequested | ToolCallFinished | TurnPaused
)
"""What the tool loop's stream reports: each tool call as it happens, and a pause."""

StreamEvent: TypeAlias = (
    TextDelta
    | ToolCallStarted
    | ToolApprovalDecided
    | ToolApprovalRequested
    | ToolCallFinished
    | TurnPaused
)
"""Anything ``StreamResponse.events()`` yields."""


class ToolEventQueue:
    """A per-execution ToolExecutionListener that queues the calls' events for the loop's stream.

    The manager calls its hooks on the event loop that runs the execution,
    so a plain ``asyncio.Queue`` suffices.
    """

    __slots__ = ("_waits", "queue")

    def __init__(self) -> None:
        self.queue: asyncio.Queue[ToolEvent | None] = asyncio.Queue()
        self._waits: dict[str, float] = {}

    def on_tool_start(self, call: ToolCall, definition: ToolDefinition | None) -> None:
        """Report that ``call`` is about to run."""
        self.queue.put_nowait(ToolCallStarted(call.id, call.name, call.arguments))

    def on_tool_approval(
        self, call: ToolCall, definition: ToolDefinition, approved: bool, wait_s: float
    ) -> None:
        """Report the approver's decision and remember how long it took."""
        self._waits[call.id] = wait_s
        self.queue.put_nowait(ToolApprovalDecided(call.id, call.name, approved, wait_s))

    def on_tool_deferred(
        self, call: ToolCall, definition: ToolDefinition, deadline: datetime | None
    ) -> None:
        """Report that ``call`` waits for a person's decision."""
        self.queue.put_nowait(ToolApprovalRequested(call.id, call.name, call.arguments, deadline))

    def on_tool_end(
        self,
        call: ToolCall,
        definition: ToolDefinition | None,
        response: ToolResponse,
        duration_s: float,
    ) -> None:
        """Report how ``call`` ended."""
        self.queue.put_nowait(
            ToolCallFinished(
                call.id,
                call.name,
                response.response_data,
                response.is_error,
                duration_s,
                self._waits.pop(call.id, 0.0),
            )
        )

    def close(self, _: object = None) -> None:
        """Tell the reader that the execution is over (usable as a task's done callback)."""
        self.queue.put_nowait(None)
