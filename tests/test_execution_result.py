"""ToolExecutionResult and the generations a return-direct reply is built from."""

from __future__ import annotations

import dataclasses

import pytest

from springtail.execution import ToolExecutionResult
from springtail.messages import (
    AssistantMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)


def test_build_generations_gives_one_generation_per_last_tool_answer() -> None:
    calls = (ToolCall("1", "summary", "{}"), ToolCall("2", "total", "{}"))
    result = ToolExecutionResult(
        [
            UserMessage("sum up"),
            AssistantMessage("", (ToolCall("0", "old", "{}"),)),
            ToolResponseMessage((ToolResponse("0", "old", "stale"),)),
            AssistantMessage("", calls),
            ToolResponseMessage(
                (ToolResponse("1", "summary", "3 open to-dos"), ToolResponse("2", "total", "42"))
            ),
        ],
        return_direct=True,
    )
    generations = ToolExecutionResult.build_generations(result)
    assert [g.output.text for g in generations] == ["3 open to-dos", "42"]
    assert all(g.metadata.finish_reason == "returnDirect" for g in generations)
    assert [dict(g.metadata.extra) for g in generations] == [
        {"tool_id": "1", "tool_name": "summary"},
        {"tool_id": "2", "tool_name": "total"},
    ]


def test_build_generations_without_tool_answers_is_empty() -> None:
    assert (
        ToolExecutionResult([UserMessage("hi")]).build_generations(
            ToolExecutionResult([UserMessage("hi")])
        )
        == []
    )


def test_the_result_is_frozen_and_not_return_direct_by_default() -> None:
    result = ToolExecutionResult([UserMessage("hi")])
    assert result.return_direct is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.return_direct = True  # type: ignore[misc]
