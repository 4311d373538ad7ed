"""Arithmetic tools: small models guess at products and quotients, so they get exact ones."""

from __future__ import annotations

import decimal
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

from pydantic import Field

from springtail import Param, tool
from support_bot.tool_names import CALCULATE, PERCENTAGE
from support_bot.tools._limits import RANGE_HINT, in_range, number_field
from support_bot.tools._numbers import brief, plain

__all__ = ["CalculatorTools"]

_SYMBOLS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}
_ALIASES = {
    "plus": "add",
    "sum": "add",
    "+": "add",
    "minus": "subtract",
    "-": "subtract",
    "times": "multiply",
    "product": "multiply",
    "*": "multiply",
    "x": "multiply",
    "over": "divide",
    "/": "divide",
}
_FOUR_PLACES = Decimal("0.0001")
_TWO_PLACES = Decimal("0.01")


def _exact() -> decimal.Context:
    # Enough digits that add/subtract/multiply of any sensible inputs is exact.
    return decimal.Context(prec=200, rounding=ROUND_HALF_UP)


class CalculatorTools:
    """``calculate`` and ``percentage``, answering with exact decimals.

    Mistakes (an unknown operation, a zero divisor) come back as text the
    model can relay, not as exceptions: they are the user's input, not bugs.
    Numbers are bounded (``_limits``): ``1e999999999`` would otherwise be
    written out as a billion digits.
    """

    @tool(
        name=CALCULATE,
        description=(
            "Exact arithmetic on two numbers. Use it for every calculation, e.g. "
            "'128 times 32' is operation=multiply, left=128, right=32. "
            "operation is one of add, subtract, multiply, divide."
        ),
    )
    def calculate(
        self,
        operation: Annotated[str, Param("add, subtract, multiply or divide"), Field(max_length=32)],
        left: Annotated[Decimal, Param("The first number"), number_field()],
        right: Annotated[Decimal, Param("The second number"), number_field()],
    ) -> str:
        """Answer ``left OP right = result``; divide rounds half-up to 4 places."""
        op = operation.strip().lower()
        op = _ALIASES.get(op, op)
        if op not in _SYMBOLS:
            return f"Unknown operation {operation!r}. Use one of: add, subtract, multiply, divide."
        if not (in_range(left) and in_range(right)):
            return (
                f"Both numbers must be finite decimals {RANGE_HINT}, such as 12 or 3.5; "
                f"got {brief(left)} and {brief(right)}."
            )
        with decimal.localcontext(_exact()):
            if op == "add":
                result = left + right
            elif op == "subtract":
                result = left - right
            elif op == "multiply":
                result = left * right
            else:
                if right == 0:
                    return f"Cannot divide {plain(left)} by zero. Give a non-zero divisor."
                result = (left / right).quantize(_FOUR_PLACES, rounding=ROUND_HALF_UP)
        return f"{plain(left)} {_SYMBOLS[op]} {plain(right)} = {plain(result)}"

    @tool(
        name=PERCENTAGE,
        description=(
            "What percent part is of total (part / total * 100), e.g. 45 of 180 is 25.00%."
        ),
    )
    def percentage(
        self,
        part: Annotated[Decimal, Param("The part, e.g. 45"), number_field()],
        total: Annotated[Decimal, Param("The whole amount, e.g. 180"), number_field()],
    ) -> str:
        """Answer the percentage with two decimals and a ``%`` sign."""
        if not (in_range(part) and in_range(total)):
            return (
                f"Both numbers must be finite decimals {RANGE_HINT}, such as 45 or 180; "
                f"got {brief(part)} and {brief(total)}."
            )
        if total == 0:
            return "The total is 0, so no percentage can be computed. Give a non-zero total."
        with decimal.localcontext(_exact()):
            value = (part / total * 100).quantize(_TWO_PLACES, rounding=ROUND_HALF_UP)
        return f"{value}%"
