"""A request's clauses: the parts of it that each ask for something, with the values they hold.

A request that asks for several things ("Place an order for Nina Rossi, 3 of
SKU-4, and one for Omar Diaz, 1 of SKU-8") reads to the 1.5B model as one
bag of values: it wrote both SKUs into Nina Rossi's order. Written as a
comment above the lines that serve it (``# one for Omar Diaz, 1 of SKU-8``),
each part keeps its own values (``_planning.py``, profile
``clause_comments``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from springtail.models._llamacpp._values import RequestValues

__all__ = ["Clause", "clauses", "held_values", "next_clause", "split_clauses"]

_BREAK = re.compile(r"[.?!]+[\"')\]]*[ \t]+|;[ \t]+|,[ \t]+and[ \t]+|\n+")
"""Where a clause may end: a sentence's end, a semicolon, ", and", a line break."""
_TRAILING_JOIN = re.compile(r"(?:,\s*and|[,;])$")
_PART = re.compile(r",\s+")
_STEP_WORDS = 3
"""A part of a clause this long without a value is a step ("also", "separately" are none)."""
_LAST_WORD = re.compile(r"(\S+)$")
_VOWELS = frozenset("aeiouy")
_LONGEST = 200
"""A clause's comment is cut at this many characters: a plan line is code, not prose."""


@dataclass(frozen=True, slots=True)
class Clause:
    """One part of a request and the request's values it holds."""

    text: str
    values: frozenset[str]
    bare_step: bool = False
    """A part of it holds no value ("…to Japan, work out what that is in yen"): a step that
    takes an earlier result, which only the model knows when it has written."""


def clauses(request: str, wanted: Iterable[str]) -> list[Clause]:
    """The parts of ``request`` that hold one of the ``wanted`` values, in order.

    A greeting or a thanks holds none and is left out. A full stop after an
    abbreviation ("Dr. Haddad", "J. Smith", "e.g. this") or before a
    lower-case word does not end a sentence: cut at "Dr.", a booking lost
    its doctor to a clause of its own (sixteenth pass, docs/embedded-model.md).
    """
    wanted = frozenset(wanted)
    found: list[Clause] = []
    for text in split_clauses(request):
        held = held_values(text, wanted)
        if held:
            bare = any(
                len(part.split()) >= _STEP_WORDS and not held_values(part, wanted)
                for part in _PART.split(text)
            )
            found.append(Clause(text[:_LONGEST].rstrip(), held, bare))
    return found


def next_clause(
    parts: Sequence[Clause], current: int, unused: frozenset[str], *, going_on: bool
) -> int:
    """The clause the next line serves (``current`` while it has not changed).

    The first clause from the current one on that holds a value no line
    carries yet (``unused``); the current one once every value is carried.
    Where the model goes on of its own accord after a clause with a step
    of no value of its own (``Clause.bare_step``), the line is that step's:
    "…, work out what that is in yen, and send Sam the yen price" lost its
    conversion to the next clause's comment (seventeenth pass).
    """
    if going_on and 0 <= current < len(parts) and parts[current].bare_step:
        return current
    for index in range(max(current, 0), len(parts)):
        if parts[index].values & unused:
            return index
    return current


def split_clauses(request: str) -> list[str]:
    """The request cut at sentence ends (not after "Dr." or an initial), semicolons, ", and"."""
    parts: list[str] = []
    start = 0
    for match in _BREAK.finditer(request):
        if match.group()[0] in ".?!" and not _ends_sentence(request, match):
            continue
        parts.append(request[start : match.end()].strip())
        start = match.end()
    parts.append(request[start:].strip())
    return [_TRAILING_JOIN.sub("", p) for p in parts if p.strip(" .?!,;")]


def _ends_sentence(text: str, match: re.Match[str]) -> bool:
    following = text[match.end() : match.end() + 1]
    if following.islower():
        return False
    if match.group()[0] != ".":
        return True
    word = _LAST_WORD.search(text[: match.start()])
    if word is None:
        return True
    word_text = word.group(1).lstrip("(\"'")
    if len(word_text) == 1 and word_text.isalpha():
        return False  # an initial: "J. Smith"
    if "." in word_text:
        return False  # "e.g.", "a.m."
    # "Dr.", "Mr.", "Mrs.", "St.": a short capitalised word without a vowel.
    short = word_text[:1].isupper() and len(word_text) <= 3
    return not (short and not _VOWELS & set(word_text.lower()))


def held_values(text: str, wanted: frozenset[str]) -> frozenset[str]:
    """The values of ``wanted`` that ``text`` holds, read as a request of its own or written."""
    lowered = text.lower()
    own = RequestValues.of(text).wanted & wanted
    return own | frozenset(v for v in wanted if _written(v, lowered))


def _written(value: str, text: str) -> bool:
    """Whether ``value`` is written in ``text`` as a whole word or phrase."""
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text) is not None
