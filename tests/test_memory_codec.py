"""The JSON message codec shared by the SQL repositories: exact round trips, clear errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from springtail.memory._codec import MessageCodec, decode_message, encode_message
from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)

EVERY_KIND: list[Message] = [
    SystemMessage("You are a support assistant."),
    UserMessage('안녕하세요 👋 — «quotes» "double" \\ back\nnew line\ttab\x00nul'),
    AssistantMessage("plain answer"),
    AssistantMessage(
        "let me check",
        (
            ToolCall("call_1", "calculate", '{"operation": "multiply",  "left": 128, "right": 32}'),
            ToolCall("call_2", "product_lookup", '{"sku":"SKU-100"}'),
        ),
    ),
    AssistantMessage("", (ToolCall("x", "broken", '{"not json'),)),
    AssistantMessage(
        "",
        (ToolCall("call_3", "today", "{}"),),
        {"plan": {"lines": ["r1 = today()"], "ran": [["r1"]]}, "n": 1.5, "ok": True},
    ),
    ToolResponseMessage(
        (
            ToolResponse("call_1", "calculate", "4096"),
            ToolResponse("call_2", "product_lookup", "unknown SKU 'SKU-9'", is_error=True),
        )
    ),
    UserMessage(""),
]


@pytest.mark.parametrize("message", EVERY_KIND, ids=lambda m: type(m).__name__)
def test_every_message_kind_round_trips_exactly(message: Message) -> None:
    assert decode_message(encode_message(message)) == message


def test_format_is_readable_json_that_other_programs_can_use() -> None:
    data = json.loads(encode_message(EVERY_KIND[3]))
    assert data == {
        "role": "assistant",
        "text": "let me check",
        "tool_calls": [
            {
                "id": "call_1",
                "name": "calculate",
                "arguments": '{"operation": "multiply",  "left": 128, "right": 32}',
            },
            {"id": "call_2", "name": "product_lookup", "arguments": '{"sku":"SKU-100"}'},
        ],
    }
    assert json.loads(encode_message(EVERY_KIND[6]))["responses"][1]["is_error"] is True
    assert "안녕하세요" in encode_message(EVERY_KIND[1])  # stored readable, not \\u-escaped


def test_metadata_is_stored_only_when_there_is_some() -> None:
    assert "metadata" not in json.loads(encode_message(EVERY_KIND[3]))
    stored = json.loads(encode_message(EVERY_KIND[5]))
    assert stored["metadata"]["plan"]["lines"] == ["r1 = today()"]
    # Rows written before metadata existed read as messages without it.
    old = '{"role":"assistant","text":"hi","tool_calls":[]}'
    assert decode_message(old) == AssistantMessage("hi")


def test_metadata_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(ValueError, match="expected a JSON object"):
        decode_message('{"role":"assistant","text":"","metadata":[1]}')


def test_lone_surrogates_round_trip_through_escapes() -> None:
    message = UserMessage("bad \ud800 surrogate and 한글")
    text = encode_message(message)
    text.encode("utf-8")  # storable in any UTF-8 database
    assert decode_message(text) == message


@given(
    st.text(),
    st.text(),
    st.text(),
    st.booleans(),
)
def test_any_text_round_trips(text: str, name: str, data: str, is_error: bool) -> None:
    for message in (
        UserMessage(text),
        SystemMessage(text),
        AssistantMessage(text, (ToolCall(name, name, data),)),
        ToolResponseMessage((ToolResponse(name, name, data, is_error),)),
    ):
        encoded = encode_message(message)
        encoded.encode("utf-8")
        assert decode_message(encoded) == message


@pytest.mark.parametrize(
    ("stored", "complaint"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"role": "robot", "text": "x"}', "unknown role 'robot'"),
        ('{"role": "user"}', "'text' must be a string"),
        ('{"role": "tool", "responses": {}}', "'responses' must be a list"),
        (
            '{"role": "tool", "responses": [{"id": "a", "name": "b", "response_data": "c",'
            ' "is_error": "yes"}]}',
            "'is_error' must be true or false",
        ),
        ('{"role": "assistant", "text": "", "tool_calls": [1]}', "expected a JSON object"),
    ],
)
def test_unreadable_rows_say_what_is_wrong(stored: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        decode_message(stored)


def test_encoding_something_else_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="cannot store dict"):
        encode_message({"role": "user"})  # type: ignore[arg-type]


def test_codec_returns_the_same_results_as_the_functions_and_stays_bounded() -> None:
    codec = MessageCodec(max_entries=3)
    for message in EVERY_KIND:
        text = codec.encode(message)
        assert text == encode_message(message)
        assert codec.decode(text) == message
        assert codec.encode(codec.decode(text)) == text
    assert len(codec._encoded) <= 3
    assert len(codec._decoded) <= 3


def test_codec_never_confuses_equal_looking_messages_of_different_kinds() -> None:
    codec = MessageCodec()
    user, system = UserMessage("same"), SystemMessage("same")
    assert json.loads(codec.encode(user))["role"] == "user"
    assert json.loads(codec.encode(system))["role"] == "system"
    assert codec.decode(codec.encode(system)) == system
