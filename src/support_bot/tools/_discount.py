"""The discount tool: a function tool with a typed input, as in the book."""

from __future__ import annotations

import decimal
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from springtail import FunctionToolCallback
from support_bot.tool_names import DISCOUNT_CALCULATOR
from support_bot.tools._limits import MAX_MAGNITUDE, number_field
from support_bot.tools._numbers import grouped, plain

__all__ = ["DiscountRequest", "apply_discount", "discount_calculator"]


class DiscountRequest(BaseModel):
    """A list price and a discount rate in percent."""

    # The ranges are in the schema: the model reads them, and a value outside
    # them is refused, naming the field, before the tool runs.
    model_config = ConfigDict(frozen=True)

    price: Annotated[Decimal, number_field(ge=Decimal(0), le=MAX_MAGNITUDE)] = Field(
        description="The list price before the discount, 0 or more, e.g. 35000"
    )
    rate_percent: Annotated[Decimal, number_field(ge=Decimal(0), le=Decimal(100))] = Field(
        description="The discount in percent, 0 to 100, e.g. 18 for 18% off"
    )


def apply_discount(request: DiscountRequest) -> str:
    """The final price, the discount rounded half-up to a whole unit."""
    price, rate = request.price, request.rate_percent
    with decimal.localcontext(decimal.Context(prec=200)):
        discount = (price * rate / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)
        final = price - discount
    return f"List price {grouped(price)}, {plain(rate)}% off: final price {grouped(final)}."


def discount_calculator() -> FunctionToolCallback:
    """The ``discount_calculator`` function tool (input ``DiscountRequest``)."""
    return FunctionToolCallback(
        DISCOUNT_CALCULATOR,
        apply_discount,
        input_type=DiscountRequest,
        description=(
            "Final price after a percentage discount. For '35,000 at 18% off' use "
            "price=35000 and rate_percent=18."
        ),
    )
