"""Whether an answer states what the turn's tools returned.

Given several results, the 1.5B model often answers from some and ends:
four shipping and currency quotes got an answer with three, and a free slot
then a booking got "The event E-4 has been added" without the slot's time.
A result is stated when the answer holds one of its values with digits
(an amount, a time, an id) that the request did not already give; a result
with no such value (a weekday, "No events") counts as stated. A value that
went on into a later call (the slot's time into the booking) is still news
to the user.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from springtail.models._llamacpp._values import Literals, literals, normal, value_tokens

__all__ = ["news", "unstated"]


def unstated(answer: str, results: Sequence[str], given: str) -> list[str]:
    """The results that ``answer`` states nothing of.

    Args:
        answer: The answer so far.
        results: What each tool returned.
        given: The text whose values a result may repeat without news (the
            request).
    """
    echoed = _with_digits(literals(given))
    said = literals(answer)
    text = answer.lower()
    missing = []
    for result in results:
        news = _with_digits(literals(result)) - echoed
        if news and not any(_stated(value, said, text) for value in news):
            missing.append(result)
    return missing


def news(results: Sequence[str], given: str) -> list[str]:
    """The values with digits of ``results``, as they are written there, that ``given`` lacks.

    These are what an answer that goes on must write one of (the grammar
    asks for one): a time also without its leading zero.
    """
    echoed = _with_digits(literals(given))
    spelled: list[str] = []
    for result in results:
        for token in value_tokens(result):
            token = token.rstrip(".")
            if any(c.isdigit() for c in token) and normal(token) not in echoed:
                spelled.append(token)
                if _TIME.fullmatch(token) and token.startswith("0"):
                    spelled.append(token[1:])
    return list(dict.fromkeys(spelled))


def _with_digits(values: Literals) -> Literals:
    return frozenset(v for v in values if any(c.isdigit() for c in v))


def _stated(value: str, said: Literals, text: str) -> bool:
    """Whether the answer holds ``value``: whole, or a time of a range, with or without a zero."""
    if value in said:
        return True
    times = _TIME.findall(value)
    return any(t in text or t.lstrip("0") in text for t in times)


_TIME = re.compile(r"\d{1,2}:\d{2}")
