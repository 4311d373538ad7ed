"""bfcl-math: BFCL's small arithmetic and temperature functions over exact fakes."""

from __future__ import annotations

from typing import Any

from bench.matrix._cases import Case, ToolSet
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_math import CASES as FRESH

NAME = "bfcl-math"


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)


class _Math:
    def add(self, a: int, b: int) -> Any:
        return {"result": _number(a + b)}

    def sub(self, a: int, b: int) -> Any:
        return {"result": _number(a - b)}

    def multiply(self, a: int, b: int) -> Any:
        return {"result": _number(a * b)}

    def celsius_to_fahrenheit(self, celsius: float) -> Any:
        return {"fahrenheit": _number(celsius * 9 / 5 + 32)}

    def fahrenheit_to_celsius(self, fahrenheit: float) -> Any:
        return {"celsius": _number((fahrenheit - 32) * 5 / 9)}


def build() -> list[Any]:
    """The five tools (stateless)."""
    return tools(NAME, _Math())


CASES: tuple[Case, ...] = ()

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
