"""The English words for small numbers, which requests write as often as digits.

"twelve" is 12 and "two hours" is a span of two: both the value reading
(``_values``) and the spans of time (``_durations``) read them.
"""

from __future__ import annotations

__all__ = ["NUMBER_WORDS", "TIMES_WORDS"]

NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "dozen": "12",
    "hundred": "100",
    "thousand": "1000",
}
"""Number words, lower-cased, and the plain number each stands for."""

TIMES_WORDS = {
    "double": ("2",),
    "doubled": ("2",),
    "twice": ("2",),
    "triple": ("3",),
    "tripled": ("3",),
    "half": ("2", "0.5"),
    "halve": ("2", "0.5"),
    "halved": ("2", "0.5"),
}
"""Words that multiply, and the numbers a call that does it writes ("double it" is ``* 2``).

Known, not wanted: a number a call may write without the request stating it
(twenty-second pass), never a value the request asks a call to carry."""
