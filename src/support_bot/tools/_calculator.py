"""Arithmetic tools: small models guess at products and quotients, so they get exact ones."""

from __future__ import annotations

import decimal
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

from springtail import Param, tool
from support_bot.tool_names import CALCULATE, PERCENTAGE
from support_bot.tools._numbers import plain

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
        operation: Annotated[str, Param("add, subtract, multiply or divide")],
        left: Annotated[Decimal, Param("The first number")],
        right: Annotated[Decimal, Param("The second number")],
    ) -> str:
        """Answer ``left OP right = result``; divide rounds half-up to 4 places."""
        op = operation.strip().lower()
        op = _ALIASES.get(op, op)
        if op not in _SYMBOLS:
            return f"Unknown operation {operation!r}. Use one of: add, subtract, multiply, divide."
        if not (left.is_finite() and right.is_finite()):
            return "Both numbers must be finite decimals such as 12 or 3.5."
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
        part: Annotated[Decimal, Param("The part, e.g. 45")],
        total: Annotated[Decimal, Param("The whole amount, e.g. 180")],
    ) -> str:
        """Answer the percentage with two decimals and a ``%`` sign."""
        if not (part.is_finite() and total.is_finite()):
            return "Both numbers must be finite decimals such as 45 or 180."
        if total == 0:
            return "The total is 0, so no percentage can be computed. Give a non-zero total."
        with decimal.localcontext(_exact()):
            value = (part / total * 100).quantize(_TWO_PLACES, rounding=ROUND_HALF_UP)
        return f"{value}%"
