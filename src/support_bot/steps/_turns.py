"""The two ways a ChatClient turn reaches the screen: one answer, or a stream."""

from __future__ import annotations

from dataclasses import dataclass, field

from springtail import (
    AssistantMessage,
    Message,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    UserMessage,
)
from springtail.client import ChatClientRequestSpec
from support_bot.steps._base import Reporter

__all__ = ["Transcript", "call_turn", "stream_turn"]


def call_turn(spec: ChatClientRequestSpec, reporter: Reporter) -> str:
    """``spec.call()``: tool lines come from the manager's listener, the answer at once."""
    reporter.thinking()
    answer = spec.call().content()
    reporter.text(answer)
    return answer


def stream_turn(spec: ChatClientRequestSpec, reporter: Reporter) -> str:
    """``spec.stream().events()``: tool lines and text deltas as they happen."""
    reporter.thinking()
    parts: list[str] = []
    for event in spec.stream().events():
        if isinstance(event, TextDelta):
            if event.text:
                parts.append(event.text)
                reporter.text(event.text)
        elif isinstance(event, ToolCallStarted):
            reporter.tool_started(event.id, event.tool_name, event.arguments)
        elif isinstance(event, ToolCallFinished):
            reporter.tool_finished(
                event.id,
                event.tool_name,
                event.result,
                event.is_error,
                event.duration_s,
                event.approval_wait_s,
            )
            reporter.thinking()
    return "".join(parts)


@dataclass
class Transcript:
    """The exchanges of a step without chat memory, kept only for ``/history``.

    These steps send the model one request at a time (no memory), exactly as
    the book's programs do; the transcript is the UI's record, not context.
    """

    messages: list[Message] = field(default_factory=list)

    def add(self, question: str, answer: str) -> None:
        """Record one exchange."""
        self.messages += [UserMessage(question), AssistantMessage(answer)]

    def clear(self) -> None:
        """Forget the exchanges (``/new``)."""
        self.messages.clear()
