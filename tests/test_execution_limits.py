"""Call limits: counted since the last user message, raised or answered with a notice."""

from __future__ import annotations

from typing import Any

import pytest

from springtail.execution import ToolCallingManager, ToolCallLimitExceededError
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Prompt,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition, ToolMetadata

SCHEMA = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


class Counter:
    """A sync tool that records how often it really ran."""

    def __init__(self, name: str) -> None:
        self.tool_definition = ToolDefinition(name, f"The {name} tool.", SCHEMA)
        self.tool_metadata = ToolMetadata(is_async=False)
        self.runs = 0

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        self.runs += 1
        return f"{self.tool_definition.name} ran"

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return self.call(tool_input, tool_context)


def earlier_round(*names: str) -> list[Any]:
    calls = tuple(ToolCall(f"old-{i}", n, f'{{"old": {i}}}') for i, n in enumerate(names))
    return [
        AssistantMessage("", calls),
        ToolResponseMessage(tuple(ToolResponse(c.id, c.name, "ok") for c in calls)),
    ]


def response(*names: str) -> ChatResponse:
    return ChatResponse.of(
        AssistantMessage(
            "", tuple(ToolCall(f"call-{i}", n, f'{{"n": {i}}}') for i, n in enumerate(names))
        )
    )


def prompt(messages: list[Any], *tools: Counter) -> Prompt:
    return Prompt(messages, ChatOptions(tool_callbacks=tools))


async def test_per_tool_limit_raises_with_the_calls_that_did_run() -> None:
    search, fetch = Counter("search"), Counter("fetch")
    messages = [UserMessage("find it"), *earlier_round("search")]
    manager = ToolCallingManager(max_calls_per_tool=2)
    with pytest.raises(ToolCallLimitExceededError) as caught:
        await manager.aexecute_tool_calls(
            prompt(messages, search, fetch), response("search", "fetch", "search")
        )
    error = caught.value
    assert error.tool_name == "search"
    assert error.limit == 2
    assert "'search'" in str(error)
    assert (search.runs, fetch.runs) == (1, 1)
    last = error.partial_result.conversation_history[-1]
    assert isinstance(last, ToolResponseMessage)
    assert [r.id for r in last.responses] == ["call-0", "call-1"]


async def test_total_limit_raises_with_no_tool_name() -> None:
    a, b, c = Counter("a"), Counter("b"), Counter("c")
    messages = [UserMessage("go"), *earlier_round("a", "b")]
    manager = ToolCallingManager(max_total_tool_calls=3)
    with pytest.raises(ToolCallLimitExceededError) as caught:
        await manager.aexecute_tool_calls(prompt(messages, a, b, c), response("c", "a"))
    assert caught.value.tool_name is None
    assert caught.value.limit == 3
    assert (a.runs, c.runs) == (0, 1)


async def test_a_new_user_message_starts_a_fresh_count() -> None:
    search = Counter("search")
    messages = [UserMessage("first"), *earlier_round("search", "search"), UserMessage("again")]
    manager = ToolCallingManager(max_calls_per_tool=2)
    result = await manager.aexecute_tool_calls(
        prompt(messages, search), response("search", "search")
    )
    assert search.runs == 2
    assert not any(r.is_error for r in result.conversation_history[-1].responses)  # type: ignore[union-attr]


async def test_error_response_answers_calls_over_the_limit_without_running_them() -> None:
    search, fetch = Counter("search"), Counter("fetch")
    messages = [UserMessage("find it"), *earlier_round("search")]
    manager = ToolCallingManager(max_calls_per_tool=2, on_limit_exceeded="error_response")
    result = await manager.aexecute_tool_calls(
        prompt(messages, search, fetch), response("search", "search", "fetch")
    )
    ok, notice, fetched = result.conversation_history[-1].responses  # type: ignore[union-attr]
    assert (ok.is_error, notice.is_error, fetched.is_error) == (False, True, False)
    assert notice.id == "call-1"
    assert "limit" in notice.response_data
    assert "'search'" in notice.response_data
    assert (search.runs, fetch.runs) == (1, 1)
    assert result.return_direct is False


async def test_error_response_for_the_total_limit_says_so() -> None:
    a = Counter("a")
    manager = ToolCallingManager(max_total_tool_calls=1, on_limit_exceeded="error_response")
    result = await manager.aexecute_tool_calls(prompt([UserMessage("go")], a), response("a", "a"))
    ok, notice = result.conversation_history[-1].responses  # type: ignore[union-attr]
    assert not ok.is_error
    assert notice.is_error
    assert "1 tool calls" in notice.response_data
    assert a.runs == 1


async def test_when_no_call_fits_the_partial_result_has_no_tool_answers() -> None:
    a = Counter("a")
    messages = [UserMessage("go"), *earlier_round("a")]
    manager = ToolCallingManager(max_calls_per_tool=1)
    with pytest.raises(ToolCallLimitExceededError) as caught:
        await manager.aexecute_tool_calls(prompt(messages, a), response("a"))
    history = caught.value.partial_result.conversation_history
    assert history[: len(messages)] == messages
    assert isinstance(history[-1], AssistantMessage)
    assert a.runs == 0


def test_sync_execution_raises_the_limit_error_too() -> None:
    a = Counter("a")
    manager = ToolCallingManager(max_calls_per_tool=1)
    with pytest.raises(ToolCallLimitExceededError):
        manager.execute_tool_calls(prompt([UserMessage("go")], a), response("a", "a"))
    assert a.runs == 1


@pytest.mark.parametrize("name", ["max_calls_per_tool", "max_total_tool_calls"])
@pytest.mark.parametrize("value", [0, -1])
def test_a_limit_that_is_not_positive_is_a_value_error(name: str, value: int) -> None:
    kwargs: dict[str, Any] = {name: value}
    with pytest.raises(ValueError, match=name):
        ToolCallingManager(**kwargs)
