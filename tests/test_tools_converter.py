"""DefaultToolCallResultConverter: what the model reads for each kind of result."""

from __future__ import annotations

import datetime as dt
import enum
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from pydantic import BaseModel

from springtail.tools import (
    DefaultToolCallResultConverter,
    ToolCallResultConverter,
    tool,
    tool_callbacks as collect,
)

convert = DefaultToolCallResultConverter()


class Status(enum.Enum):
    OPEN = "open"
    DONE = "done"


class Priority(enum.IntEnum):
    LOW = 1


class Todo(BaseModel):
    title: str
    status: Status
    due: dt.date | None = None


@dataclass
class Point:
    x: int
    y: float


def test_strings_are_unchanged() -> None:
    assert convert("plain text", str) == "plain text"
    assert convert("", str) == ""
    assert convert('{"already": "json"}', None) == '{"already": "json"}'


def test_none_is_done() -> None:
    assert convert(None, None) == "Done"


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (Todo(title="t", status=Status.OPEN), '{"title":"t","status":"open","due":null}'),
        (Point(1, 2.5), '{"x":1,"y":2.5}'),
        ({"a": [1, 2], "b": None}, '{"a":[1,2],"b":null}'),
        ([1, "two", 3.0], '[1,"two",3.0]'),
        (42, "42"),
        (2.5, "2.5"),
        (True, "true"),
        (Decimal("12.50"), "12.50"),
        (Decimal("123456789.123456789123456789"), "123456789.123456789123456789"),
        ({"price": Decimal("1.10")}, '{"price":"1.10"}'),
        (dt.datetime(2025, 1, 31, 14, 30), '"2025-01-31T14:30:00"'),
        (dt.date(2025, 1, 31), '"2025-01-31"'),
        (Status.DONE, '"done"'),
        (Priority.LOW, "1"),
        ({"ü": "🙂"}, '{"ü":"🙂"}'),
    ],
)
def test_everything_else_is_compact_json(result: Any, expected: str) -> None:
    text = convert(result, type(result))
    assert text == expected
    json.loads(text)  # and it is valid JSON


def test_unserialisable_objects_fall_back_to_str() -> None:
    class Opaque:
        def __str__(self) -> str:
            return "opaque!"

    assert convert({"o": Opaque()}, None) == '{"o":"opaque!"}'


def test_a_custom_converter_is_any_callable_and_receives_the_return_type() -> None:
    seen: list[Any] = []

    def shout(result: Any, return_type: type | None) -> str:
        seen.append(return_type)
        return str(result).upper()

    converter: ToolCallResultConverter = shout

    @tool(result_converter=converter)
    def word() -> list[str]:
        return ["hi"]

    (callback,) = collect(word)
    assert callback.call("{}") == "['HI']"
    assert seen == [list[str]]


def test_a_converter_that_returns_none_gives_an_empty_string() -> None:
    @tool(result_converter=lambda result, return_type: None)  # type: ignore[arg-type,return-value]
    def nothing() -> None:
        pass

    (callback,) = collect(nothing)
    assert callback.call("{}") == ""


def test_default_converter_through_a_tool() -> None:
    @tool
    def make() -> Todo:
        return Todo(title="x", status=Status.DONE, due=dt.date(2025, 2, 1))

    @tool
    def nothing() -> None:
        pass

    assert collect(make)[0].call("{}") == '{"title":"x","status":"done","due":"2025-02-01"}'
    assert collect(nothing)[0].call("{}") == "Done"
