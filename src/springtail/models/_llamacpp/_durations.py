"""Spans of time a request writes, in every unit a parameter may ask for.

Told to add "'Car service' on 2026-03-21 at 08:30, two hours long", the model
wrote ``minutes=120``: right, yet no 120 is in the request, so the value
rules took it for invented and had it written again after the results
(``minutes=17``). A tool's parameter names its own unit (``minutes``,
``hours``, ``days``); the request names the user's. So a span of time the
request gives counts in each of the common units of time: the same reading
any person does, and nothing about one application's tools. English unit
words only, as the request's number words (``_values``) are English.

A span needs its amount written: "a day" is no span, because "How many
minutes are there in a day?" asks for the very number a span would make
known, and the model's ``calculate(left=24, right=60)`` for it must still
read as invented.
"""

from __future__ import annotations

import re
from decimal import Decimal

from springtail.models._llamacpp._number_words import NUMBER_WORDS

__all__ = ["spans_of_time"]

_SECONDS = {
    "second": 1,
    "sec": 1,
    "minute": 60,
    "min": 60,
    "hour": 3600,
    "hr": 3600,
    "day": 86400,
    "week": 604800,
}
_AMOUNT_WORDS = {**NUMBER_WORDS, "half an": "0.5", "half a": "0.5"}
_AMOUNT = r"(\d+(?:\.\d+)?|" + "|".join(sorted(_AMOUNT_WORDS, key=len, reverse=True)) + ")"
_UNIT = "(" + "|".join(sorted(_SECONDS, key=len, reverse=True)) + ")s?"
_SPAN = re.compile(rf"\b{_AMOUNT}(\s+and\s+a\s+half)?[\s-]+(?:[a-z]+\s+)?{_UNIT}\b")
"""An amount, then its unit, one word apart at most ("two free hours", "3 working days")."""


def spans_of_time(text: str) -> set[str]:
    """Each span of time in a lower-cased text, as plain numbers in seconds to weeks.

    "two hours" gives 2, 120, 7200 and the like; "a 90-minute slot" gives
    90, 1.5 and 5400. Only whole numbers and short decimals are kept: no one
    writes 0.0119 weeks.
    """
    found: set[str] = set()
    for match in _SPAN.finditer(text):
        amount = Decimal(_AMOUNT_WORDS.get(match.group(1), match.group(1)))
        if match.group(2):
            amount += Decimal("0.5")
        seconds = amount * _SECONDS[match.group(3)]
        for unit in set(_SECONDS.values()):
            value = seconds / unit
            if value == value.to_integral_value():
                found.add(str(value.to_integral_value()))
            elif value == round(value, 2):
                found.add(format(value.normalize(), "f"))
    return found
