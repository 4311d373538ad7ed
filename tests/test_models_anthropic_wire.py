"""The Messages API on the wire: turns that alternate, and replies that are not replies."""

from __future__ import annotations

from typing import Any

import pytest

from springtail.messages import (
    AssistantMessage,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._anthropic_wire import (
    StreamState,
    response_from_message,
    to_anthropic_messages,
    tool_choice,
)
from springtail.models._faults import MalformedReplyError


def test_system_messages_join_and_tool_results_share_one_user_turn() -> None:
    system, turns = to_anthropic_messages(
        [
            SystemMessage("a"),
            SystemMessage("b"),
            UserMessage("q"),
            AssistantMessage(tool_calls=(ToolCall("t1", "f", "{}"), ToolCall("t2", "f", "x"))),
            ToolResponseMessage(
                (ToolResponse("t1", "f", "1"), ToolResponse("t2", "f", "bad", True))
            ),
            UserMessage("more"),
        ]
    )
    assert system == "a\n\nb"
    assert [t["role"] for t in turns] == ["user", "assistant", "user"]
    assert [b["type"] for b in turns[2]["content"]] == ["tool_result", "tool_result", "text"]
    assert turns[1]["content"][1]["input"] == {}  # arguments that are not JSON go back as {}


def test_tool_choice_words() -> None:
    assert tool_choice(None) == {"type": "auto"}
    assert tool_choice("required") == {"type": "any"}
    assert tool_choice("weather") == {"type": "tool", "name": "weather"}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("<html>", "a text reply starting '<html>'"),
        ([1], "an array where a reply object belongs"),
        (None, "null where a reply object belongs"),
    ],
)
def test_a_reply_that_is_not_a_message_is_described(value: Any, expected: str) -> None:
    with pytest.raises(MalformedReplyError) as caught:
        response_from_message(value)
    assert str(caught.value) == expected


def test_a_stream_event_the_api_does_not_define_is_described() -> None:
    class Delta:
        type = "text_delta"  # and no text

    class Event:
        type = "content_block_delta"
        delta = Delta()
        index = 0

    assert StreamState().add(object()) is None  # an unknown event is ignored
    with pytest.raises(MalformedReplyError, match="a stream event the API does not define"):
        StreamState().add(Event())
