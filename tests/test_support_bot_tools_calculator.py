from __future__ import annotations

import json
from decimal import Decimal

import pytest

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
