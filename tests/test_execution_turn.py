"""ToolTurn: per-turn call counts and answers; call_key: canonical call identity."""

from __future__ import annotations

from springtail.execution import ToolTurn
from springtail.execution._turn import call_key
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)


def test_call_key_ignores_key_order_and_spacing() -> None:
    a = call_key(ToolCall("1", "t", '{"a": 1, "b": [1, 2]}'))
    b = call_key(ToolCall("2", "t", '{ "b":[1,2],"a":1 }'))
    assert a == b
    assert a != call_key(ToolCall("3", "t", '{"a": 2, "b": [1, 2]}'))
    assert a != call_key(ToolCall("4", "u", '{"a": 1, "b": [1, 2]}'))


def test_call_key_of_unparsable_or_empty_arguments() -> None:
    assert call_key(ToolCall("1", "t", " {oops ")) == ("t", "{oops")
    assert call_key(ToolCall("1", "t", "")) == call_key(ToolCall("2", "t", "{}"))


def test_seed_counts_only_the_calls_after_the_last_user_message() -> None:
    old = ToolCall("o", "t", "{}")
    new = ToolCall("n", "t", '{"x": 1}')
    messages: list[Message] = [
        UserMessage("first"),
        AssistantMessage("", (old,)),
        ToolResponseMessage((ToolResponse("o", "t", "old answer"),)),
        UserMessage("second"),
        AssistantMessage("", (new,)),
        ToolResponseMessage((ToolResponse("n", "t", "new answer"),)),
    ]
    turn = ToolTurn()
    turn.seed(messages)
    turn.seed(messages)  # only the first seed counts
    assert (turn.total_calls, turn.calls_of("t"), turn.calls_of("u")) == (1, 1, 0)
    assert turn.answer_of(call_key(new)) == "new answer"
    assert turn.answer_of(call_key(old)) is None


def test_the_first_answer_is_kept() -> None:
    turn = ToolTurn()
    key = ("t", "{}")
    turn.remember(key, "first")
    turn.remember(key, "second")
    assert turn.answer_of(key) == "first"
    assert "total_calls=0" in repr(turn)
