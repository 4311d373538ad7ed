"""How the tools write numbers: exact, without float noise or trailing zeros."""

from __future__ import annotations

from decimal import Decimal

from support_bot.tools._limits import in_range

__all__ = ["brief", "grouped", "plain"]


def plain(value: Decimal) -> str:
    """``Decimal("4096.00")`` → ``"4096"``; never scientific notation, never ``-0``."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def grouped(value: Decimal) -> str:
    """Like ``plain`` with thousands separators: ``Decimal(35000)`` → ``"35,000"``."""
    text = plain(value)
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, _, fraction = digits.partition(".")
    whole = f"{int(whole):,}"
    return f"{sign}{whole}.{fraction}" if fraction else f"{sign}{whole}"


def brief(value: Decimal) -> str:
    """Like ``plain`` for numbers in range; a few characters for any other.

    ``format(value, "f")`` writes ``1e999999999`` as a billion digits, so a
    number outside the tools' range is shown as ``1E+999999999``.
    """
    return plain(value) if in_range(value) else format(value, ".6G")
