from __future__ import annotations

from decimal import Decimal

import pytest

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


@pytest.mark.parametrize(("price", "rate"), [("-1", "10"), ("100", "120"), ("100", "-5")])
def test_out_of_range_inputs_are_messages(price: str, rate: str) -> None:
    answer = apply_discount(DiscountRequest(price=Decimal(price), rate_percent=Decimal(rate)))
    assert "give" in answer


def test_function_tool_takes_the_request_as_json() -> None:
    callback = discount_calculator()
    definition = callback.tool_definition
    assert definition.name == DISCOUNT_CALCULATOR
    assert set(definition.input_schema["required"]) == {"price", "rate_percent"}
    assert callback.call('{"price": 35000, "rate_percent": 18}') == (
        "List price 35,000, 18% off: final price 28,700."
    )
