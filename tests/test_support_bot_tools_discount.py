from __future__ import annotations

import json
from decimal import Decimal

import pytest

from springtail import ToolArgumentsError
from support_bot.tool_names import DISCOUNT_CALCULATOR
from support_bot.tools import DiscountRequest, apply_discount, discount_calculator


@pytest.mark.parametrize(
    ("price", "rate", "expected"),
    [
        ("35000", "18", "List price 35,000, 18% off: final price 28,700."),
        ("999", "12.5", "List price 999, 12.5% off: final price 874."),  # 124.875 -> 125
        ("10", "25", "List price 10, 25% off: final price 7."),  # 2.5 rounds half-up to 3
        ("1500.50", "0", "List price 1,500.5, 0% off: final price 1,500.5."),
        ("80", "100", "List price 80, 100% off: final price 0."),
    ],
)
def test_discount_rounds_half_up_to_a_whole_unit(price: str, rate: str, expected: str) -> None:
    request = DiscountRequest(price=Decimal(price), rate_percent=Decimal(rate))
    assert apply_discount(request) == expected


@pytest.mark.parametrize(
    ("price", "rate", "field"),
    [
        ("-1", "10", "price"),
        ("100", "120", "rate_percent"),
        ("100", "-5", "rate_percent"),
        ("1e999999999", "5", "price"),
        ("1e-999999999", "5", "price"),
    ],
)
def test_out_of_range_inputs_are_refused_naming_the_field(
    price: str, rate: str, field: str
) -> None:
    with pytest.raises(ToolArgumentsError) as info:
        discount_calculator().call(json.dumps({"price": price, "rate_percent": rate}))
    message = str(info.value)
    assert f"'{field}'" in message
    assert len(message) < 400


def test_the_ranges_are_in_the_schema() -> None:
    properties = discount_calculator().tool_definition.input_schema["properties"]
    price = next(b for b in properties["price"]["anyOf"] if b["type"] == "number")
    rate = next(b for b in properties["rate_percent"]["anyOf"] if b["type"] == "number")
    assert (price["minimum"], price["maximum"]) == (0, 1e30)
    assert (rate["minimum"], rate["maximum"]) == (0, 100)


def test_function_tool_takes_the_request_as_json() -> None:
    callback = discount_calculator()
    definition = callback.tool_definition
    assert definition.name == DISCOUNT_CALCULATOR
    assert set(definition.input_schema["required"]) == {"price", "rate_percent"}
    assert callback.call('{"price": 35000, "rate_percent": 18}') == (
        "List price 35,000, 18% off: final price 28,700."
    )
