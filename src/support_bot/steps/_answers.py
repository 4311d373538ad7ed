"""The two ways a ChatClient request's answer reaches the screen: at once, or streamed."""

from __future__ import annotations

from springtail import PausedTurn, TextDelta, ToolCallFinished, ToolCallStarted, TurnPaused
from springtail.client import ChatClientRequestSpec
from support_bot.steps._base import Reporter

__all__ = ["answer_at_once", "answer_streamed", "stream_answer"]


def answer_at_once(spec: ChatClientRequestSpec, reporter: Reporter) -> str:
    """``spec.call()``: tool lines come from the manager's listener, the answer at once."""
    reporter.thinking()
    answer = spec.call().content()
    reporter.text(answer)
    return answer


def answer_streamed(spec: ChatClientRequestSpec, reporter: Reporter) -> str:
    """``spec.stream().events()``: tool lines and text deltas as they happen."""
    return stream_answer(spec, reporter)[0]


def stream_answer(spec: ChatClientRequestSpec, reporter: Reporter) -> tuple[str, PausedTurn | None]:
    """Like ``answer_streamed``, and the paused turn when the turn waits for a decision."""
    reporter.thinking()
    parts: list[str] = []
    paused: PausedTurn | None = None
    for event in spec.stream().events():
        if isinstance(event, TurnPaused):
            paused = event.paused_turn
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
    return "".join(parts), paused
