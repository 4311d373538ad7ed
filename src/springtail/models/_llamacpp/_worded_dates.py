"""Dates a request writes in words: "March 16, 17 and 18, 2026" is three dates.

A small model turns "December 5" into ``2026-12-05`` on its own; the rules
must read the same date there, or they take the model's ISO date for an
invented value. English month names only, as the number words of
``_values`` are English.
"""

from __future__ import annotations

import re

__all__ = ["ISO_DATE", "WordedDate", "dates_in_words", "worded_dates"]

ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_MORE_DAYS = r"((?:\s*(?:,|and|&|to|-)\s*\d{1,2}(?:st|nd|rd|th)?\b)*)"
_YEAR = r"(?:,?\s+(\d{4}))?"
_MONTH_FIRST = re.compile(rf"\b{_MONTH}\s+{_DAY}\b{_MORE_DAYS}{_YEAR}")
_DAY_FIRST = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b{_YEAR}")


WordedDate = tuple[int, int, int | None]
"""(month, day, year or None)."""


def worded_dates(text: str) -> list[tuple[tuple[int, int], list[WordedDate]]]:
    """Where a lower-cased text writes dates in words, and the dates each place gives.

    "March 16, 17 and 18, 2026" gives three dates; "16 March" one, of any
    year. English month names, as the request's number words (``_values``) are English.
    """
    found: list[tuple[tuple[int, int], list[WordedDate]]] = []
    for match in _MONTH_FIRST.finditer(text):
        month = _MONTHS[match.group(1)]
        days = [match.group(2), *re.findall(r"\d{1,2}", match.group(3) or "")]
        year = int(match.group(4)) if match.group(4) else None
        found.append((match.span(), [(month, int(day), year) for day in days]))
    for match in _DAY_FIRST.finditer(text):
        year = int(match.group(3)) if match.group(3) else None
        found.append((match.span(), [(_MONTHS[match.group(2)], int(match.group(1)), year)]))
    return found


def dates_in_words(text: str) -> set[WordedDate]:
    """Every date a lower-cased text writes in words (``worded_dates``)."""
    return {date for _, dates in worded_dates(text) for date in dates}
