"""bfcl-math: BFCL's small arithmetic and temperature functions over exact fakes."""

from __future__ import annotations

from typing import Any

from bench.matrix._cases import Case, ToolSet, call, turn
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


CASES: tuple[Case, ...] = (
    Case(
        "single",
        "dev",
        (
            turn(
                "What is 234 plus 987?",
                call("add", a=234, b=987).commuting("a", "b"),
                answer=["1221"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "Convert 98.6 Fahrenheit to Celsius.",
                call("fahrenheit_to_celsius", fahrenheit=98.6),
                answer=["37"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Multiply 17 by 23 and 45 by 12.",
                call("multiply", a=17, b=23).commuting("a", "b"),
                call("multiply", a=45, b=12).commuting("a", "b"),
                answer=["391", "540"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "What are 0 C and 100 C in Fahrenheit?",
                call("celsius_to_fahrenheit", celsius=0),
                call("celsius_to_fahrenheit", celsius=100),
                answer=["32", "212"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Subtract 58 from 300, then multiply the result by 4.",
                call("sub", a=300, b=58),
                call("multiply", a=242, b=4).commuting("a", "b"),
                answer=["968"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Convert 212 F to Celsius and add 15 to it.",
                call("fahrenheit_to_celsius", fahrenheit=212),
                call("add", a=100, b=15).commuting("a", "b"),
                answer=["115"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Add 12 and 30, add 7 and 8, and convert 20 C and 30 C to Fahrenheit.",
                call("add", a=12, b=30).commuting("a", "b"),
                call("add", a=7, b=8).commuting("a", "b"),
                call("celsius_to_fahrenheit", celsius=20),
                call("celsius_to_fahrenheit", celsius=30),
                answer=["42", "15", "68", "86"],
            ),
        ),
    ),
    Case("none", "dev", (turn("What's the square root of 144?", answer=["12"]),)),
    Case("none", "dev", (turn("Thanks!"),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "What's 81 times 9?",
                call("multiply", a=81, b=9).commuting("a", "b"),
                answer=["729"],
            ),
            turn(
                "And 81 times 11?", call("multiply", a=81, b=11).commuting("a", "b"), answer=["891"]
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn("Add 145 and 278.", call("add", a=145, b=278).commuting("a", "b"), answer=["423"]),
            turn("Now subtract 100 from that.", call("sub", a=423, b=100), answer=["323"]),
        ),
    ),
)

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
