"""Chat completions on the wire: response_format, strict mode and reading what a server sent."""

from __future__ import annotations

from typing import Any

import pytest

from springtail.models._openai_wire import (
    NotACompletionError,
    StreamState,
    response_format,
    response_from_completion,
    strict_compatible,
)

PERSON_SCHEMA: dict[str, Any] = {
    "title": "Person record",
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}


def test_strict_mode_is_asked_only_when_every_nested_object_is_closed() -> None:
    closed = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
    nested_open = {
        **PERSON_SCHEMA,
        "properties": {"pet": {"$ref": "#/$defs/Pet"}},
        "required": ["pet"],
        "$defs": {"Pet": {"type": "object", "properties": {"kind": {"type": "string"}}}},
    }
    assert strict_compatible(closed)
    assert strict_compatible({"type": "array", "items": PERSON_SCHEMA})
    assert not strict_compatible({"type": "array", "items": {"type": "object"}})
    assert not strict_compatible(nested_open)
    assert not strict_compatible({"anyOf": [PERSON_SCHEMA, {"type": "object"}]})


def test_the_response_format_name_is_the_title_in_the_characters_openai_accepts() -> None:
    assert response_format({"title": "Größe: 1/2", "type": "string"})["json_schema"]["name"] == (
        "Gr__e__1_2"
    )
    assert response_format({"type": "string"})["json_schema"]["name"] == "response"
    assert response_format({"title": "x" * 80})["json_schema"]["name"] == "x" * 64


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("<html>", "a text reply starting '<html>'"),
        (None, "null where a reply object belongs"),
        (3, "a number where a reply object belongs"),
    ],
)
def test_a_reply_that_is_not_a_completion_is_described(value: Any, expected: str) -> None:
    with pytest.raises(NotACompletionError) as caught:
        response_from_completion(value)
    assert str(caught.value) == expected


def test_a_stream_chunk_without_choices_adds_nothing_and_a_bad_one_is_described() -> None:
    class Chunk:
        choices = None
        usage = None

    state = StreamState()
    assert state.add(Chunk()) == ("", "")
    with pytest.raises(NotACompletionError, match="a text stream chunk starting 'oops'"):
        state.add("oops")
