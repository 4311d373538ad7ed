from __future__ import annotations

import json
from decimal import Decimal

import pytest

from springtail import ToolArgumentsError
from support_bot.tool_names import CALCULATE, PERCENTAGE
from support_bot.tools import CalculatorTools, method_tools

calc = CalculatorTools()


@pytest.mark.parametrize(
    ("op", "left", "right", "expected"),
    [
        ("multiply", "128", "32", "128 * 32 = 4096"),
        ("ADD", "0.1", "0.2", "0.1 + 0.2 = 0.3"),
        ("Subtract", "10.50", "0.5", "10.5 - 0.5 = 10"),
        ("divide", "10", "3", "10 / 3 = 3.3333"),
        ("divide", "2", "3", "2 / 3 = 0.6667"),
        ("divide", "1", "8", "1 / 8 = 0.125"),
        ("divide", "0.00005", "1", "0.00005 / 1 = 0.0001"),
        (
            "times",
            "12345678901234567890",
            "98765432109876543210",
            "12345678901234567890 * 98765432109876543210 = "
            "1219326311370217952237463801111263526900",
        ),
    ],
)
def test_calculate_is_exact(op: str, left: str, right: str, expected: str) -> None:
    assert calc.calculate(op, Decimal(left), Decimal(right)) == expected


def test_divide_by_zero_is_a_message() -> None:
    assert "zero" in calc.calculate("divide", Decimal(5), Decimal(0))


def test_unknown_operation_is_a_message_naming_the_valid_ones() -> None:
    answer = calc.calculate("power", Decimal(2), Decimal(3))
    assert "Unknown operation 'power'" in answer
    assert "add, subtract, multiply, divide" in answer


def test_non_finite_numbers_are_refused() -> None:
    assert "finite" in calc.calculate("add", Decimal("NaN"), Decimal(1))


@pytest.mark.parametrize(
    ("part", "total", "expected"),
    [("45", "180", "25.00%"), ("1", "3", "33.33%"), ("2", "3", "66.67%"), ("0.005", "1", "0.50%")],
)
def test_percentage_has_two_places(part: str, total: str, expected: str) -> None:
    assert calc.percentage(Decimal(part), Decimal(total)) == expected


def test_percentage_of_zero_total_is_a_message() -> None:
    assert "total is 0" in calc.percentage(Decimal(5), Decimal(0))


def test_the_model_calls_calculate_with_json() -> None:
    tools = {cb.tool_definition.name: cb for cb in method_tools()}
    assert tools[CALCULATE].call(
        json.dumps({"operation": "multiply", "left": 128, "right": 32})
    ) == ("128 * 32 = 4096")
    assert tools[PERCENTAGE].call('{"part": "45", "total": 180}') == "25.00%"
    schema = tools[CALCULATE].tool_definition.input_schema
    assert set(schema["required"]) == {"operation", "left", "right"}


# -- numbers out of range get a short answer the model can read ----------------


@pytest.mark.parametrize(
    ("op", "left", "right"),
    [
        ("multiply", "1e999999", "2"),  # written out, a million digits
        ("add", "1e-99999", "1"),  # a hundred thousand zeros after the point
        ("multiply", "1e999999", "1e999999"),  # decimal.Overflow in the exact context
        ("divide", "1", "1e-999999"),
        ("add", "1e999999999", "0"),
    ],
)
def test_numbers_out_of_range_get_a_short_answer(op: str, left: str, right: str) -> None:
    answer = calc.calculate(op, Decimal(left), Decimal(right))
    assert len(answer) < 200, answer[:200]
    assert "between -10^30 and 10^30" in answer
    assert "Overflow" not in answer


def test_the_short_answer_names_the_numbers_briefly() -> None:
    answer = calc.calculate("add", Decimal("1e999999999"), Decimal("-2.5"))
    assert answer.endswith("got 1E+999999999 and -2.5.")


@pytest.mark.parametrize(("part", "total"), [("1e999999", "1"), ("1", "1e-999999")])
def test_percentage_out_of_range_gets_a_short_answer(part: str, total: str) -> None:
    answer = calc.percentage(Decimal(part), Decimal(total))
    assert len(answer) < 200
    assert "between -10^30 and 10^30" in answer


def test_the_largest_numbers_in_range_still_work() -> None:
    big = "1" + "0" * 30
    assert calc.calculate("multiply", Decimal(big), Decimal(big)) == (
        f"{big} * {big} = 1{'0' * 60}"
    )
    tiny = "0." + "0" * 29 + "1"
    assert calc.calculate("add", Decimal(tiny), Decimal(0)) == f"{tiny} + 0 = {tiny}"


@pytest.mark.parametrize(
    "arguments",
    [
        {"operation": "add", "left": "1e999999999", "right": 1},
        {"operation": "multiply", "left": "1e999999", "right": "1e999999"},
        {"operation": "add", "left": "1e-999999999", "right": 1},
        {"operation": "add", "left": 1e300, "right": 1},
        {"operation": "x" * 10_000, "left": 1, "right": 1},
    ],
)
def test_the_schema_refuses_numbers_out_of_range_before_the_tool_runs(
    arguments: dict[str, object],
) -> None:
    tools = {cb.tool_definition.name: cb for cb in method_tools()}
    with pytest.raises(ToolArgumentsError) as info:
        tools[CALCULATE].call(json.dumps(arguments))
    message = str(info.value)
    assert len(message) < 400, message[:400]
    assert "Overflow" not in message
    assert "Call 'calculate' again" in message


def test_the_schema_tells_the_model_the_range() -> None:
    tools = {cb.tool_definition.name: cb for cb in method_tools()}
    schema = tools[CALCULATE].tool_definition.input_schema
    number = next(b for b in schema["properties"]["left"]["anyOf"] if b["type"] == "number")
    assert (number["minimum"], number["maximum"]) == (-1e30, 1e30)
    assert schema["properties"]["operation"]["maxLength"] == 32
