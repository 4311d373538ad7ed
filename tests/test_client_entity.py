"""Structured output: schema instructions and lenient parsing with strict validation."""

import json

import pytest
from pydantic import BaseModel
from typing_extensions import TypedDict

from springtail.client._entity import format_instructions, parse_entity


class Item(BaseModel):
    name: str
    qty: int


class Row(TypedDict):
    a: int


def test_instructions_carry_the_json_schema() -> None:
    text = format_instructions(Item)
    schema = json.loads(text.split("JSON Schema: ", 1)[1])
    assert schema["properties"]["qty"]["type"] == "integer"
    assert "no markdown code fences" in text


@pytest.mark.parametrize(
    "answer",
    [
        '{"name": "pen", "qty": 2}',
        '```json\n{"name": "pen", "qty": 2}\n```',
        '```\n{"name": "pen", "qty": 2}\n```',
        'Sure! Here it is: {"name": "pen", "qty": 2} Hope that helps.',
        '  \n{"name": "pen", "qty": 2}\n',
    ],
)
def test_parses_plain_fenced_and_wrapped_json(answer: str) -> None:
    assert parse_entity(answer, Item) == Item(name="pen", qty=2)


def test_parses_lists_and_typed_dicts() -> None:
    assert parse_entity('```json\n[{"a": 1}, {"a": 2}]\n```', list[Row]) == [{"a": 1}, {"a": 2}]


def test_wrong_type_is_reported_with_the_field() -> None:
    with pytest.raises(ValueError, match=r"(?s)not a valid Item.*qty"):
        parse_entity('{"name": "pen", "qty": "many"}', Item)


def test_no_json_at_all_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="not a valid Item"):
        parse_entity("I cannot help with that.", Item)
    with pytest.raises(ValueError, match="empty"):
        parse_entity("   ", Item)
