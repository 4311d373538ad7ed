"""How large a tool's arguments may be, declared in the schema the model reads.

The model's arguments are untrusted input. Without bounds a number such as
``1e999999999`` is written out as a billion characters, a quantity of 2**63
fails inside SQLite with "Python int too large", and a 200,000-character id
is echoed back into the conversation. Bounds in the JSON Schema (``minimum``,
``maximum``, ``maxLength``) tell the model the range up front, and argument
validation turns a value outside it into a sentence naming the field, before
the tool runs.

Long free text (a to-do title, a session topic) is the exception: its limit
is checked by the tool itself, because llama.cpp's grammar converter writes
``maxLength`` as one nested rule per character, and 500 of them would slow
the embedded model's constrained decoding for no gain.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from pydantic import Field

__all__ = [
    "MAX_DECIMAL_PLACES",
    "MAX_ID",
    "MAX_KEY_CHARS",
    "MAX_MAGNITUDE",
    "MAX_QUANTITY",
    "MAX_TEXT_CHARS",
    "RANGE_HINT",
    "Amount",
    "in_range",
    "number_field",
]

MAX_MAGNITUDE = Decimal("1e30")
MAX_DECIMAL_PLACES = 30
MAX_QUANTITY = 1_000_000
MAX_ID = 2**63 - 1  # SQLite's INTEGER
MAX_KEY_CHARS = 64  # SKUs, customer ids, time-zone names
MAX_TEXT_CHARS = 500  # a to-do title, a session topic (checked by the tool)
RANGE_HINT = "between -10^30 and 10^30 with at most 30 decimal places"


def number_field(*, ge: Decimal = -MAX_MAGNITUDE, le: Decimal = MAX_MAGNITUDE) -> Any:
    """A pydantic ``Field`` for a decimal argument: a range and a bounded precision."""
    return Field(ge=ge, le=le, decimal_places=MAX_DECIMAL_PLACES)


Amount = Annotated[Decimal, number_field()]


def in_range(value: Decimal) -> bool:
    """Whether ``value`` is finite, within ±10^30 and has at most 30 decimal places.

    The schema enforces the same for the model; this guards direct callers.
    """
    if not value.is_finite() or value.copy_abs() > MAX_MAGNITUDE:  # abs() can overflow
        return False
    _, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)  # finite
    trailing_zeros = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return exponent + trailing_zeros >= -MAX_DECIMAL_PLACES or not any(digits)
