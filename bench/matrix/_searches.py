"""Two experiments of the twentieth pass: what a request names is searched for (issue 21).

Both were measured on the held-out half and the probe sets (S on the
development half too) and moved calls closer without passing a request
more (docs/embedded-model.md, "Twentieth pass"), so they live here, where
``--policy with:NAME`` measures them again:

* ``MadeUpValuesSearchNamed`` (S): a first line that invents a text (a day, a
  time, an id) while the request names a thing of the user's that no tool's
  words name ("Push my dentist appointment to 2026-03-19, same time") starts
  with a search, and the line comes back after it, taking its result;
* ``EmptySearchLooksElsewhere`` (E): after every search a turn called found
  nothing (an empty JSON list or object), the next reply calls a search it
  did not try ("What's the wifi password?" searched the events, not the notes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.models._llamacpp import (
    MadeUpValues,
    Offer,
    Opening,
    PlanLine,
    Prose,
    Retry,
    Review,
    Rule,
    TurnView,
)
from springtail.models._llamacpp._made_up import dated_givers, givers
from springtail.models._llamacpp._plan_grammar import held_texts
from springtail.models._llamacpp._rule import literal_arguments, tool_schema
from springtail.models._llamacpp._rules import searches_by_text, takes_id
from springtail.models._llamacpp._subjects import parameter_words, tool_words, words
from springtail.models._llamacpp._values import invented, normal, shape
from springtail.tools._definition import ToolDefinition

__all__ = [
    "EmptySearchLooksElsewhere",
    "FoundRecordReplaced",
    "MadeUpValuesSearchNamed",
    "named_things",
    "searches",
]

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


@dataclass(frozen=True)
class MadeUpValuesSearchNamed(MadeUpValues):
    """S: a first line's invented texts, where the request names a thing, are searched for.

    "Push my dentist appointment to 2026-03-19, same time." wrote
    ``add_event(…, start="10:00")``; the retry among the tools whose words
    match ``start`` took the free-slot finder, which invented a length, and
    the reply was prose. Here the searches whose words or dated results
    speak of the invented parameters come first (else every search, where
    every tool that speaks of them needs values of its own; a tool that gives
    them from nothing, ``list_doctors`` for "our cardiologist", stays the
    choice), and the line comes back after the search, its invented texts
    taken from the result (``Retry.looked_up``). A first line that is
    retried for a request value no line carries keeps that retry.

    With ``hold_texts`` (the twenty-first pass), the search's free text is
    one of the things the request names, held by the line's grammar
    (``Retry.texts``): left free, "Put a 30-minute 'Prep' … on the day of
    the team sync" searched for "Prep".
    """

    hold_texts: bool = False

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``MadeUpValues``'s answer, or a search first for a first line (above)."""
        verdict = super().review(view, line, written, tools)
        if written or not isinstance(verdict, Retry | Prose):
            return verdict
        if isinstance(verdict, Retry) and verdict.wanted:
            return verdict
        found = _found_by_search(view, line, tools)
        if not found:
            return verdict
        texts = frozenset(named_things(view.request, tools)) if self.hold_texts else frozenset()
        return Retry(line.tool, only=found[0], looked_up=found[1], texts=texts)


def _found_by_search(
    view: TurnView, line: PlanLine, tools: Sequence[ToolDefinition]
) -> tuple[frozenset[str], frozenset[str]] | None:
    """The searches that find what the request names, and the invented texts they give."""
    arguments, schema = literal_arguments(line), tool_schema(tools, line.tool)
    texts = frozenset(
        name
        for name in invented(arguments, view.known, schema)
        if isinstance(arguments.get(name), str) and shape(normal(arguments[name])) != "number"
    )
    found = searches(tools) - {line.tool}
    if not texts or not found or not named_things(view.request, tools):
        return None
    given = givers(line, tools, texts)
    speaking = (given | dated_givers(texts, schema, tools)) & found
    if speaking:
        return speaking, texts
    if all((tool_schema(tools, name) or {}).get("required") for name in given):
        return found, texts
    return None


@dataclass(frozen=True)
class EmptySearchLooksElsewhere(Rule):
    """E: a search that found nothing, where another search is offered, is not the answer.

    Asked "What's the wifi password?", the model searched the calendar's
    events (``find_events(query="wifi password")``), got ``[]`` and answered
    that there is no such password; the notes' search was never tried. When
    every search this turn called answered an empty JSON list or object, and
    a search is offered that it did not call, the next reply is a call to
    one of those: the model writes its query.
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """An offer of the searches not yet called, when those called found nothing."""
        offered = searches(tools)
        results = [r for r in view.plan.results.values() if r.tool in offered and not r.is_error]
        if not results or not all(_empty(r.data) for r in results):
            return None
        tried = {r.tool for r in results}
        others = tuple(d for d in tools if d.name in offered - tried)
        return Offer(others) if others else None


def _empty(result: str) -> bool:
    """Whether a result is an empty JSON list or object: a search that found nothing."""
    try:
        return bool(json.loads(result) in ([], {}))
    except ValueError:
        return False


@dataclass(frozen=True)
class FoundRecordReplaced(Rule):
    """R: a record a search found, written again by an act of the turn, is replaced.

    "Move the team sync to 2026-03-20 at the same time." searched the
    events (``[{"id": "E-1", "title": "Team sync", …}]``) and added "Team
    Sync" on the new day at the time found, then answered: the old event
    stayed. When an act of the turn (a tool that needs two values or more)
    wrote a text holding every word of a found record's title, and no call
    carried that record's id, the next reply calls a tool that takes such an
    id (a parameter named ``…_id`` whose subject the search speaks of),
    carrying it.
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """An offer of the id's takers, wanting the replaced record's id."""
        if not view.has_results:
            return None
        found = searches(tools)
        calls = view.call_arguments()
        carried = {normal(v) for _, arguments in calls for v in _leaves(arguments)}
        written = [
            words(str(v))
            for name, arguments in calls
            if name not in found and _needs_two(tools, name)
            for v in _leaves(arguments)
            if isinstance(v, str)
        ]
        for result in view.plan.results.values():
            if result.is_error or result.tool not in found:
                continue
            search = next(d for d in tools if d.name == result.tool)
            for record in _records(result.data):
                record_id, titles = _id_and_titles(record)
                if record_id is None or normal(record_id) in carried:
                    continue
                if not any(t and any(t <= w for w in written) for t in titles):
                    continue
                takers = _id_takers(tools, search, found)
                if takers:
                    # Offered free, the model wrote the new event's id (E-4): the id is held.
                    held = tuple(held_texts(d, [record_id], names) for d, names in takers)
                    return Offer(held, frozenset({normal(record_id)}))
        return None


def _leaves(value: object) -> list[object]:
    """The plain values inside a JSON value."""
    if isinstance(value, Mapping):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _needs_two(tools: Sequence[ToolDefinition], name: str) -> bool:
    """Whether a tool needs two values or more: it acts."""
    return len((tool_schema(tools, name) or {}).get("required") or ()) >= 2


def _records(data: str) -> list[Mapping[str, Any]]:
    """The JSON objects a search returned (a list of them, or one)."""
    try:
        value = json.loads(data)
    except ValueError:
        return []
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, Mapping)]


def _id_and_titles(record: Mapping[str, Any]) -> tuple[str | None, list[frozenset[str]]]:
    """A record's id (its ``id`` or ``…_id`` key) and the words of its texts without digits."""
    record_id = next(
        (str(v) for k, v in record.items() if k.lower() == "id" or k.lower().endswith("_id")),
        None,
    )
    titles = [
        words(v)
        for k, v in record.items()
        if isinstance(v, str) and str(v) != record_id and not any(c.isdigit() for c in v)
    ]
    return record_id, titles


def _id_takers(
    tools: Sequence[ToolDefinition], search: ToolDefinition, found: frozenset[str]
) -> list[tuple[ToolDefinition, frozenset[str]]]:
    """The tools, searches aside, that require an id whose subject the search speaks of.

    Each with the names of those parameters.
    """
    subject = tool_words(search) - {"id"}
    takers = []
    for d in tools:
        if d.name in found:
            continue
        properties: Mapping[str, Any] = d.input_schema.get("properties") or {}
        names = frozenset(
            name
            for name in d.input_schema.get("required") or ()
            if takes_id(name, properties.get(name)) and words(name.replace("_", " ")) & subject
        )
        if names:
            takers.append((d, names))
    return takers
