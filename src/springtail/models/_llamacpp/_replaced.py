"""The rule that reads a found record written again as that record replaced.

Kept apart from ``_rules.py``: it reads what a search returned (JSON records,
their ids and titles), which no other rule does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.models._llamacpp._binding import scalar
from springtail.models._llamacpp._decisions import Offer, Opening
from springtail.models._llamacpp._plan_grammar import held_texts
from springtail.models._llamacpp._rule import Rule, acts, takes_id
from springtail.models._llamacpp._searched import searches
from springtail.models._llamacpp._subjects import tool_words, words
from springtail.models._llamacpp._values import leaves, normal
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["FoundRecordReplaced"]


@dataclass(frozen=True)
class FoundRecordReplaced(Rule):
    """A record a search found, written again by an act of the turn, is replaced.

    "Move the team sync to 2026-03-20 at the same time." searched the events
    (``[{"id": "E-1", "title": "Team sync", …}]``), added "Team Sync" on the
    new day at the time found, and answered: the old event stayed. With no
    tool that moves an event, a move is a new one and the old one gone, and
    nothing in the request's words says so. When an act of the turn (a tool
    that needs two values or more) wrote a text holding every word of a
    found record's text ("Dentist Appointment" for "Dentist") and made a
    record of the same kind (it returned an id like the found one's: "E-4"
    beside "E-1"; a message that names the event, "M-1", replaces nothing),
    and no call carried that record's id, the next reply calls a tool that
    requires such an id (a parameter named ``…_id`` or whose example has digits, of a
    subject the search speaks of: ``cancel_event(event_id)`` after
    ``find_events``), the id held by its grammar: offered it free, the model
    wrote the new event's id. A new event with a title of its own ("Prep"
    on the day the search found) replaces nothing, nor does one the
    request adds beside the found one, in the words English uses for that
    ("another", "again", "also", "too", "as well", "copy": "Book another
    dentist appointment for Friday at the same time" keeps the first one;
    twenty-first pass).
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """An offer of the id's takers, wanting the replaced record's id; else pass."""
        if not view.has_results or _adds(view.request):
            return None
        found = searches(tools)
        searched = [r for r in view.plan.results.values() if r.tool in found and not r.is_error]
        if not searched:
            return None  # most turns: nothing was found, so nothing is replaced
        calls = view.call_arguments()
        carried = {normal(v) for _, arguments in calls for v in leaves(arguments)}
        for result in searched:
            search = next(d for d in tools if d.name == result.tool)
            for record in _records(result.data):
                record_id, titles = _id_and_titles(record)
                if record_id is None or normal(record_id) in carried:
                    continue
                # Only an act that made a record of the same kind (its id "E-4" beside "E-1")
                # wrote it again: a message that names the event ("M-1") replaces nothing.
                makers = _makers(view, tools, record_id)
                written = [
                    words(v)
                    for name, arguments in calls
                    if name in makers
                    for v in leaves(arguments)
                    if isinstance(v, str)
                ]
                if not any(t and any(t <= w for w in written) for t in titles):
                    continue
                takers = _id_takers(tools, search, found)
                if takers:
                    held = tuple(held_texts(d, [record_id], names) for d, names in takers)
                    return Offer(held, frozenset({normal(record_id)}))
        return None


def _makers(view: TurnView, tools: Sequence[ToolDefinition], record_id: str) -> frozenset[str]:
    """The acts of this turn that returned an id of the record's kind: its text without digits."""
    kind = _ID_DIGITS.sub("", record_id.strip().upper())
    made = set()
    for result in view.plan.results.values():
        value = None if result.is_error or not acts(tools, result.tool) else scalar(result.data)
        text = str(value) if isinstance(value, str | int) else ""
        if _ID_DIGITS.search(text) and _ID_DIGITS.sub("", text.upper()) == kind:
            made.add(result.tool)
    return frozenset(made)


_ADDING = frozenset({"another", "again", "also", "too", "copy", "duplicate", "second", "extra"})
"""Words that add a thing beside one that stays ("Book another dentist appointment")."""


def _adds(request: str) -> bool:
    """Whether the request adds a thing beside the one found, not in its place."""
    said = re.findall(r"[a-z]+", request.lower())
    return bool(_ADDING.intersection(said)) or "as well" in " ".join(said)


_ID_DIGITS = re.compile(r"\d+")


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
    record_id = next((str(v) for k, v in record.items() if takes_id(k, None)), None)
    titles = [
        words(v)
        for v in record.values()
        if isinstance(v, str) and v != record_id and not any(c.isdigit() for c in v)
    ]
    return record_id, titles


def _id_takers(
    tools: Sequence[ToolDefinition], search: ToolDefinition, found: frozenset[str]
) -> list[tuple[ToolDefinition, frozenset[str]]]:
    """The tools, searches aside, that require an id of a subject the search speaks of.

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
