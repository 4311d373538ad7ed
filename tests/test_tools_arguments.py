"""Argument validation and the error text the model reads back."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, field_validator

from springtail.tools import Param, ToolArgumentsError, ToolExecutionError, tool, tool_callbacks


class CalculatorTools:
    @tool(name="calculate", description="Apply an operation to two numbers.")
    def calculate(
        self,
        operation: Annotated[
            Literal["add", "subtract", "multiply", "divide"], Param("Operation name")
        ],
        left: Annotated[Decimal, Param("First number")],
        right: Annotated[Decimal, Param("Second number")],
    ) -> Decimal:
        if operation == "add":
            return left + right
        return left * right


(CALC,) = tool_callbacks(CalculatorTools())


class Line(BaseModel):
    sku: str
    qty: int

    @field_validator("qty")
    @classmethod
    def positive(cls, value: int) -> int:
        if value <= 0:
            raise ValueError("quantity must be positive")
        return value


@tool
def place_order(lines: list[Line], when: dt.date, express: bool = False) -> str:
    return f"{len(lines)} lines on {when.isoformat()} express={express}"


(ORDER,) = tool_callbacks(place_order)


def error_of(callback: Any, arguments: str) -> ToolArgumentsError:
    with pytest.raises(ToolArgumentsError) as info:
        callback.call(arguments)
    return info.value


def test_the_message_names_every_bad_field_in_model_words() -> None:
    error = error_of(CALC, '{"operation": "pow", "right": 2, "foo": 1}')
    assert str(error) == (
        "Invalid arguments for tool 'calculate': "
        "'operation' must be one of 'add', 'subtract', 'multiply', 'divide' (got 'pow'); "
        "'left' is required but missing; "
        "unexpected field 'foo' (allowed: operation, left, right). "
        "Call 'calculate' again with corrected arguments."
    )
    assert error.errors == (
        "'operation' must be one of 'add', 'subtract', 'multiply', 'divide' (got 'pow')",
        "'left' is required but missing",
        "unexpected field 'foo' (allowed: operation, left, right)",
    )


def test_arguments_error_is_a_tool_execution_error_with_definition_and_cause() -> None:
    error = error_of(CALC, '{"operation": "add"}')
    assert isinstance(error, ToolExecutionError)
    assert error.tool_definition is CALC.tool_definition
    assert error.cause is not None


def test_wrong_types_say_what_was_expected() -> None:
    error = error_of(ORDER, '{"lines": "many", "when": "someday", "express": "maybe"}')
    assert error.errors == (
        "'lines' must be an array of objects with fields sku, qty (got 'many')",
        "'when' must be a date string like '2025-01-31' (got 'someday')",
        "'express' must be true or false (got 'maybe')",
    )


def test_nested_fields_are_named_by_path() -> None:
    error = error_of(
        ORDER,
        '{"lines": [{"sku": "A", "qty": 1}, {"qty": "x", "zz": 1}], "when": "2025-01-02"}',
    )
    assert "'lines[1].sku' is required but missing" in error.errors
    assert "'lines[1].qty' must be an integer (got 'x')" in error.errors


def test_custom_validator_message_reaches_the_model() -> None:
    error = error_of(ORDER, '{"lines": [{"sku": "A", "qty": 0}], "when": "2025-01-02"}')
    assert error.errors == ("'lines[0].qty' is invalid: quantity must be positive (got 0)",)


def test_decimal_wrong_type() -> None:
    error = error_of(CALC, '{"operation": "add", "left": "ten", "right": [1]}')
    assert "'left' must be a number or a numeric string (got 'ten')" in error.errors
    assert "'right' must be a number or a numeric string (got [1])" in error.errors


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ("[1, 2]", "not an array"),
        ('"add"', "not a string"),
        ("42", "not a number"),
        ("true", "not a boolean"),
        ("null", "not null"),
    ],
)
def test_non_object_json_is_an_arguments_error(arguments: str, expected: str) -> None:
    error = error_of(CALC, arguments)
    assert error.errors == (
        f"the arguments must be a JSON object with fields operation, left, right, {expected}",
    )


@pytest.mark.parametrize("arguments", ['{"operation": ', "{'a': 1}", "add 1 2", "{]"])
def test_invalid_json_is_an_arguments_error(arguments: str) -> None:
    error = error_of(CALC, arguments)
    (problem,) = error.errors
    assert problem.startswith("the arguments are not valid JSON (")
    assert problem.endswith("expected an object with fields operation, left, right")


@pytest.mark.parametrize("blank", ["", "   ", "\n\t"])
def test_blank_input_counts_as_an_empty_object(blank: str) -> None:
    @tool
    def now(tz: str = "UTC") -> str:
        return tz

    (callback,) = tool_callbacks(now)
    assert callback.call(blank) == "UTC"
    error = error_of(CALC, blank)
    assert "'left' is required but missing" in error.errors


def test_strings_from_the_model_are_never_evaluated() -> None:
    @tool
    def echo(text: str, number: int) -> str:
        return f"{text}|{number}"

    (callback,) = tool_callbacks(echo)
    payload = "__import__('os').system('echo pwned')"
    assert callback.call(json.dumps({"text": payload, "number": 1})) == f"{payload}|1"
    error = error_of(callback, json.dumps({"text": "x", "number": "1+1"}))
    assert error.errors == ("'number' must be an integer (got '1+1')",)


def test_huge_numbers_and_strings_and_unicode() -> None:
    @tool
    def measure(count: int, text: str, amount: Decimal) -> str:
        return f"{count % 1000}|{len(text)}|{amount}"

    (callback,) = tool_callbacks(measure)
    huge = 10**200
    text = "ü🙂" * 100_000
    arguments = json.dumps({"count": huge, "text": text, "amount": "123456789.123456789123456789"})
    assert callback.call(arguments) == f"{huge % 1000}|200000|123456789.123456789123456789"
    error = error_of(callback, json.dumps({"count": text, "text": 1, "amount": 1}))
    (count_problem, text_problem) = error.errors
    assert count_problem.startswith("'count' must be an integer (got 'ü🙂")
    assert len(count_problem) < 200  # the long input is cut, not echoed whole
    assert text_problem == "'text' must be a string (got 1)"


def test_numbers_beyond_any_range_are_reported_without_crashing() -> None:
    @tool
    def f(flag: bool, count: int = 0) -> str:
        return str(flag)

    (callback,) = tool_callbacks(f)
    error = error_of(callback, '{"flag": ' + "9" * 5000 + "}")
    assert "number out of range" in error.errors[0]
    error = error_of(callback, '{"flag": ' + "9" * 4000 + ', "count": 1e400}')
    assert error.errors[0].startswith("'flag' must be true or false (got ")
    assert error.errors[1] == "'count' must be a finite number (got Infinity)"


def test_unicode_field_values_round_trip() -> None:
    @tool(name="日本語ツール")
    def greet(name: str) -> str:
        return f"こんにちは {name}"

    (callback,) = tool_callbacks(greet)
    assert callback.call('{"name": "世界"}') == "こんにちは 世界"
    error = error_of(callback, '{"名前": "x"}')
    assert error.errors == (
        "'name' is required but missing",
        "unexpected field '名前' (allowed: name)",
    )
    assert "Invalid arguments for tool '日本語ツール'" in str(error)


class Folder(BaseModel):
    name: str
    children: list[Folder] = []


def test_recursive_arguments_validate_at_any_depth() -> None:
    @tool
    def count(root: Folder) -> int:
        def size(folder: Folder) -> int:
            return 1 + sum(size(child) for child in folder.children)

        return size(root)

    (callback,) = tool_callbacks(count)
    tree = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    assert callback.call(json.dumps({"root": tree})) == "3"
    tree["children"][0]["children"][0] = {"children": []}  # type: ignore[index]
    error = error_of(callback, json.dumps({"root": tree}))
    assert error.errors == ("'root.children[0].children[0].name' is required but missing",)


def test_lax_conversions_a_model_relies_on_still_work() -> None:
    # Models often quote numbers; pydantic's lax mode accepts what is unambiguous.
    assert CALC.call('{"operation": "add", "left": "1.5", "right": 2}') == "3.5"
    assert ORDER.call('{"lines": [], "when": "2025-01-02", "express": "true"}') == (
        "0 lines on 2025-01-02 express=True"
    )


def test_a_tool_with_no_parameters_rejects_arguments() -> None:
    @tool
    def ping() -> str:
        return "pong"

    (callback,) = tool_callbacks(ping)
    assert callback.call("{}") == "pong"
    error = error_of(callback, '{"x": 1}')
    assert error.errors == ("unexpected field 'x' (this takes no fields)",)
