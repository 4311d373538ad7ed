# fresh held-out half: do not read while tuning
"""The bfcl-math tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, turn

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "what's 1,837 take away 964",
                call("sub", a=1837, b=964),
                answer=["873"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "Convert these oven temperatures to Celsius: 356 F and 428 F.",
                call("fahrenheit_to_celsius", fahrenheit=356),
                call("fahrenheit_to_celsius", fahrenheit=428),
                answer=["180", "220"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Add 48 and 77, then multiply the sum by 6.",
                call("add", a=48, b=77).commuting("a", "b"),
                call("multiply", a=125, b=6).commuting("a", "b"),
                answer=["750"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "The soup is at 95 F. How many degrees Celsius above 20 is that?",
                call("fahrenheit_to_celsius", fahrenheit=95),
                call("sub", a=35, b=20),
                answer=["15"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Please work out 23 times 19 and 41 times 8, and also 555 plus 445 and 1,209 "
                "plus 391.",
                call("multiply", a=23, b=19).commuting("a", "b"),
                call("multiply", a=41, b=8).commuting("a", "b"),
                call("add", a=555, b=445).commuting("a", "b"),
                call("add", a=1209, b=391).commuting("a", "b"),
                answer=["437", "328", "1000", "1600"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("Is zero an even number?", answer=["even"]),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "multiply 36 by 14",
                call("multiply", a=36, b=14).commuting("a", "b"),
                answer=["504"],
            ),
            turn("now 36 by 41", call("multiply", a=36, b=41).commuting("a", "b"), answer=["1476"]),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "What's 25 Celsius in Fahrenheit?",
                call("celsius_to_fahrenheit", celsius=25),
                answer=["77"],
            ),
            turn("Subtract 32 from that.", call("sub", a=77, b=32), answer=["45"]),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Add 250 and 175, subtract 80 from the total, then multiply by 3.",
                call("add", a=250, b=175).commuting("a", "b"),
                call("sub", a=425, b=80),
                call("multiply", a=345, b=3).commuting("a", "b"),
                answer=["1035"],
                ordered=True,
            ),
        ),
    ),
)
