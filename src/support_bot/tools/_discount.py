"""The discount tool: a function tool with a typed input, as in the book."""

from __future__ import annotations

import decimal
from decimal import ROUND_HALF_UP, Decimal

from pydantic import BaseModel, ConfigDict, Field

from springtail import FunctionToolCallback
from support_bot.tool_names import DISCOUNT_CALCULATOR
from support_bot.tools._numbers import grouped, plain

__all__ = ["DiscountRequest", "apply_discount", "discount_calculator"]


class DiscountRequest(BaseModel):
    """A list price and a discount rate in percent."""

    model_config = ConfigDict(frozen=True)

    price: Decimal = Field(description="The list price before the discount, e.g. 35000")
    rate_percent: Decimal = Field(description="The discount in percent, e.g. 18 for 18% off")


def apply_discount(request: DiscountRequest) -> str:
    """The final price, the discount rounded half-up to a whole unit."""
    price, rate = request.price, request.rate_percent
    if not (price.is_finite() and rate.is_finite()):
        return "Price and rate must be finite numbers such as 35000 and 18."
    if price < 0:
        return f"The price {plain(price)} is negative; give a list price of 0 or more."
    if not 0 <= rate <= 100:
        return (
            f"The rate {plain(rate)}% is outside 0-100; give a discount between 0 and 100 percent."
        )
    with decimal.localcontext(decimal.Context(prec=200)):
        discount = (price * rate / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)
        final = price - discount
    return f"List price {grouped(price)}, {plain(rate)}% off: final price {grouped(final)}."


def discount_calculator() -> FunctionToolCallback:
    """The ``discount_calculator`` function tool (input :class:`DiscountRequest`)."""
    return FunctionToolCallback(
        DISCOUNT_CALCULATOR,
        apply_discount,
        input_type=DiscountRequest,
        description=(
            "Final price after a percentage discount. For '35,000 at 18% off' use "
            "price=35000 and rate_percent=18."
        ),
    )
