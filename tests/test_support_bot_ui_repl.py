from __future__ import annotations

import io
from collections.abc import Iterator, Sequence

import pytest
from rich.console import Console

from springtail import (
    AssistantMessage,
    Message,
    ModelError,
    ModelUnavailableError,
    ToolCall,
    ToolCallback,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from support_bot.ui import ConsoleReporter, new_conversation_id, run_chat


class FakeStep:
    name = "fake"
    tools: Sequence[ToolCallback] = ()
    intro: Sequence[str] = ()

    def __init__(self, outcomes: list[object]) -> None:
        self.outcomes = outcomes
        self.asked: list[str] = []
        self.conversation_id = "c-0"

    def ask(self, text: str) -> str:
        self.asked.append(text)
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return str(outcome)

    def history(self) -> list[Message]:
        return [
            UserMessage("reserve"),
            AssistantMessage("", (ToolCall("1", "product_reserve", '{"sku":"SKU-100"}'),)),
            ToolResponseMessage((ToolResponse("1", "product_reserve", "Reserved 2"),)),
            AssistantMessage("Done."),
        ]

    def new_conversation(self, conversation_id: str) -> None:
        self.conversation_id = conversation_id


def lines(*items: str | None) -> Iterator[str | None]:
    yield from items


def chat(step: FakeStep, *typed: str | None) -> tuple[int, str]:
    buf = io.StringIO()
    console = Console(file=buf, width=120, highlight=False)
    reporter = ConsoleReporter(
        console, None, interactive=False, approve_all=False, read_line=lambda p: None
    )
    feed = lines(*typed, None)
    code = run_chat(step, reporter, lambda prompt: next(feed), console)
    return code, buf.getvalue()


def test_blank_lines_are_skipped_and_end_of_input_ends() -> None:
    step = FakeStep(["a"])
    code, _ = chat(step, "", "   ", "hello")
    assert code == 0
    assert step.asked == ["hello"]


def test_a_failed_reply_is_reported_and_the_chat_goes_on() -> None:
    step = FakeStep([ModelError("garbled reply."), "fine"])
    code, out = chat(step, "one", "two")
    assert code == 0
    assert step.asked == ["one", "two"]
    assert "The model failed: garbled reply." in out


def test_an_unavailable_model_ends_the_chat() -> None:
    step = FakeStep([ModelUnavailableError("down")])
    with pytest.raises(ModelUnavailableError):
        chat(step, "one", "two")
    assert step.asked == ["one"]


def test_history_shows_tool_calls_and_results() -> None:
    _, out = chat(FakeStep([]), "/history")
    assert "you: reserve" in out
    assert 'bot: calls product_reserve({"sku":"SKU-100"})' in out
    assert "tool product_reserve: Reserved 2" in out
    assert "bot: Done." in out


def test_new_and_exit() -> None:
    step = FakeStep([])
    code, out = chat(step, "/NEW", "/exit", "never")
    assert code == 0
    assert step.conversation_id != "c-0"
    assert step.conversation_id in out
    assert step.asked == []


def test_conversation_ids_are_short_and_fresh() -> None:
    ids = {new_conversation_id() for _ in range(50)}
    assert len(ids) == 50
    assert all(i.startswith("c-") and len(i) == 8 for i in ids)
