"""ToolTurn: per-turn call counts and answers; call_key: canonical call identity."""

from __future__ import annotations

from springtail.execution import ToolTurn
from springtail.execution._turn import same_call
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)


def test_same_call_ignores_key_order_and_spacing() -> None:
    a = ToolCall("1", "t", '{"a": 1, "b": [1, 2]}')
    assert same_call(a, ToolCall("2", "t", '{ "b":[1,2],"a":1 }'))
    assert not same_call(a, ToolCall("3", "t", '{"a": 2, "b": [1, 2]}'))
    assert not same_call(a, ToolCall("4", "u", '{"a": 1, "b": [1, 2]}'))


def test_same_call_tells_json_types_apart() -> None:
    one = ToolCall("1", "t", '{"a": 1}')
    assert not same_call(one, ToolCall("2", "t", '{"a": true}'))
    assert not same_call(one, ToolCall("3", "t", '{"a": 1.0}'))
    assert same_call(one, ToolCall("4", "t", '{"a":1}'))


def test_same_call_of_unparsable_or_empty_arguments() -> None:
    assert same_call(ToolCall("1", "t", " {oops "), ToolCall("2", "t", "{oops"))
    assert not same_call(ToolCall("1", "t", "{oops"), ToolCall("2", "t", "{nope"))
    assert same_call(ToolCall("1", "t", ""), ToolCall("2", "t", "{}"))


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
    assert turn.answer_of(ToolCall("again", "t", '{ "x":1 }')) == "new answer"
    assert turn.answer_of(old) is None


def test_the_first_answer_is_kept() -> None:
    turn = ToolTurn()
    turn.remember(ToolCall("1", "t", "{}"), "first")
    turn.remember(ToolCall("2", "t", " {} "), "second")
    assert turn.answer_of(ToolCall("3", "t", "{}")) == "first"
    assert "total_calls=0" in repr(turn)
