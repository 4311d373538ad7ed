"""The values a text writes, read by their shape alone, in any language.

A call is only as good as its arguments, and a small model's arguments come
from the conversation (a number the user typed, an id a tool returned).
These helpers read values by shape: a *literal* is a token with a digit
(``35,000``, ``SKU-100``, ``2026-07-14``), a quoted phrase or an upper-case
code (``EUR``); nothing here knows a word of any language, so the readings
hold for any wording. They serve the write-out (a number it writes is one
the conversation states), the answer's check that it states the results
(``_coverage.py``) and the guesses that speed decoding up (``_drafts.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

__all__ = [
    "ADDRESS",
    "Known",
    "Literals",
    "RequestValues",
    "literals",
    "normal",
    "shape",
    "value_tokens",
]

_QUOTED = re.compile(r"(?:^|(?<=[\s(:]))[\"'“‘«„]([^\"'“”‘’«»„\n]{1,80})[\"'”’»“](?=[\s.,;:!?)]|$)")
_TOKEN = re.compile(r"[\w@](?:[\w@.\-/:+]|,(?=\d{3}))*")
_CODE = re.compile(r"[A-Z]{2,}")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?|(?<![\w.])[-+]?\.\d+")
_VALUE = re.compile(
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"  # 35,000
    r"|[^\W_](?:[\w./:+@-]*[^\W_])?"  # SKU-100, 19.5, Asia/Seoul, ann@example.com
)

ADDRESS = re.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+")
"""An e-mail address, as a text writes one."""

Literals = frozenset[str]
"""Normalised literal values (see ``normal``)."""


def normal(value: object) -> str:
    """A value as comparable text: numbers in plain decimal form, other text lower-cased."""
    if isinstance(value, bool):
        return str(value).lower()
    text = str(value).strip().strip(".,;:!?").lower()
    number = _as_number(text)
    return text if number is None else number


def _as_number(text: str) -> str | None:
    cleaned = text.replace(",", "")
    if not cleaned or not any(c.isdigit() for c in cleaned):
        return None
    try:
        number = Decimal(cleaned)
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    if number == number.to_integral_value():
        return str(number.to_integral_value())
    return format(number.normalize(), "f")


def _is_number(value: str) -> bool:
    """Whether a normalised value is a plain number (not a date or an id with digits)."""
    return _as_number(value) is not None and re.fullmatch(r"[-+]?[\d.]+", value) is not None


def shape(value: str) -> str:
    """What kind of value a normalised literal is: ``number``, or its letters and digits as runs.

    ``2026-07-14`` is ``9-9-9``, ``sku-100`` is ``a-9``, ``call bob`` is ``a a``.
    """
    if _is_number(value):
        return "number"
    return re.sub(r"\d+", "9", re.sub(r"[^\W\d_]+", "a", value))


def literals(text: str) -> Literals:
    """The values written in ``text``: tokens with digits, quoted phrases, upper-case codes.

    An upper-case word counts as a code only when the text is not shouting.
    """
    found: set[str] = {normal(m.group(1)) for m in _QUOTED.finditer(text)}
    shouting = text.upper() == text
    for match in _TOKEN.finditer(text):
        token = match.group().rstrip(".:/-+")
        if any(c.isdigit() for c in token) or (not shouting and _CODE.fullmatch(token)):
            found.add(normal(token))
    return frozenset(v for v in found if v)


def value_tokens(text: str) -> list[str]:
    """The tokens of ``text`` that can be values, as written: ``SKU-100``, ``19.50``, ``35,000``."""
    return _VALUE.findall(text)


class Known:
    """The numbers a conversation's text writes, for the numbers a write-out may choose from."""

    def __init__(self, text: str) -> None:
        self.numbers = {normal(m.group()) for m in _NUMBER.finditer(text)}


@dataclass(frozen=True, slots=True)
class RequestValues:
    """A request's tokens as a call would spell them: guesses for the rest of a begun value."""

    spelled: frozenset[str]
    """Numbers (``35,000`` as ``35000``) and other tokens as written."""

    @classmethod
    def of(cls, request: str) -> RequestValues:
        """The values of ``request``."""
        return cls(
            frozenset(w.replace(",", "") if w[0].isdigit() else w for w in value_tokens(request))
        )
