"""What a request names that only a search finds, and the tools that search.

"Push my dentist appointment to 2026-03-19, same time" names a thing of the
user's, "dentist appointment", that no tool's words name: its day, time and
id are a search's to give, not the model's to invent. ``MadeUpValues``
starts such a chain with a search held to those words (twenty-first pass,
docs/embedded-model.md); ``FoundRecordReplaced`` reads what the search found.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from springtail.models._llamacpp._rule import searches_by_text
from springtail.models._llamacpp._subjects import parameter_words, tool_words, words
from springtail.tools._definition import ToolDefinition

__all__ = ["named_things", "searches"]

_POINTERS = frozenset({"my", "our", "the", "your"})
"""The words before a phrase that names one thing the user has ("my dentist appointment")."""

_ENDS = frozenset(
    {
        *("a", "about", "after", "an", "and", "as", "at", "before", "between", "by", "for"),
        *("from", "in", "into", "is", "of", "on", "onto", "or", "over", "than", "that", "to"),
        *("until", "via", "when", "which", "with", "within", "without"),
    }
)
"""Words that end such a phrase."""

_NOT_NAMES = frozenset(words("same first next last other new whole current usual"))
"""Words in such a phrase that say which one, not what it is ("the same time")."""

_QUOTED = re.compile(r"(?<!\w)(['\"“‘]).+?\1(?!\w)|“.+?”|‘.+?’")


def named_things(request: str, tools: Sequence[ToolDefinition]) -> tuple[str, ...]:
    """The things the request names that no tool's words name: what only a search finds.

    "Push my dentist appointment to 2026-03-19, same time" names "dentist
    appointment"; "On the day of my project review" names "project review"
    ("the day" is a tool's word). A phrase is up to three words after "my",
    "our", "your" or "the", up to a word that ends it; it names a thing when
    one of its words is in no tool's name, description or parameters. "How
    many minutes are there in a day?" names none, nor does a quoted text
    ("Put 'Call the bank' on my calendar": a title, not a thing).
    """
    vocabulary: set[str] = set()
    for d in tools:
        vocabulary |= tool_words(d)
        properties: Mapping[str, Any] = d.input_schema.get("properties") or {}
        for name, spec in properties.items():
            vocabulary |= parameter_words(name, spec)
    found: list[str] = []
    for clause in re.split(r"[^\w\s'-]", _QUOTED.sub(" . ", request).lower()):
        said = clause.split()
        for i, word in enumerate(said):
            if word not in _POINTERS:
                continue
            phrase: list[str] = []
            for after in said[i + 1 : i + 4]:
                if after in _ENDS or after in _POINTERS:
                    break
                phrase.append(after)
            if words(" ".join(phrase)) - vocabulary - _NOT_NAMES:
                found.append(" ".join(phrase))
    return tuple(found)


def searches(tools: Sequence[ToolDefinition]) -> frozenset[str]:
    """The tools that find things by words: ``find_events(query)``, ``find_patient(name)``.

    A search by a word (one required free text: ``searches_by_text``) whose
    name or description says it finds or searches: ``todo_add(title)`` takes
    one free text too.
    """
    return frozenset(
        d.name for d in tools if {"find", "searc"} & tool_words(d) and searches_by_text(d)
    )
