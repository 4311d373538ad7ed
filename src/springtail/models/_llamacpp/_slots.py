"""A value the request ties to a start or an end by its word, written into the other slot.

"How many days are there from 2026-03-16 to 2026-04-01, and to 2026-05-01?" planned
``days_between(start="2026-03-16", end="2026-04-01")``, then
``days_between(start="2026-04-01", end="2026-05-01")``: the second line chained the dates
and lost the start the request gives once (twenty-fourth pass, docs/embedded-model.md).
The held-out half's last miss of the same tool twice was counted (not read) to lose its
shared start the same way, with the new date in the start. No reading of the lines alone
tells either from a right one ("…, then from 2026-03-15 to the same day" varies the start);
the request's words do: a value right after "from", "since" or "starting" is a start, one
right after "to", "until", "till" or "through" an end. A tool with one parameter of each
kind (``start``/``end``, ``from_currency``/``to_currency``) takes them there. English
words only, as the number and month words are English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from springtail.models._llamacpp._decisions import Keep, Review
from springtail.models._llamacpp._plan import PlanLine
from springtail.models._llamacpp._rule import Rule, literal_arguments, tool_schema
from springtail.models._llamacpp._values import normal
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["ValueInItsSlot", "parameter_slot", "request_slots"]

Slot = Literal["start", "end"]

_SAID = re.compile(r"\b(from|since|starting|to|until|till|through)\s+(\S+)")
_STARTS_SAID = frozenset({"from", "since", "starting"})
_START_NAMES = frozenset({"start", "from", "begin", "since", "source", "origin"})
_END_NAMES = frozenset({"end", "to", "until", "stop", "target", "destination"})


def parameter_slot(name: str) -> Slot | None:
    """Whether a parameter's name says it is a start (``from_unit``) or an end (``end``)."""
    parts = set(re.split(r"[_\W]+", name.lower()))
    start, end = bool(parts & _START_NAMES), bool(parts & _END_NAMES)
    if start == end:
        return None
    return "start" if start else "end"


def request_slots(request: str) -> dict[str, Slot]:
    """Each value the request writes right after a word of a start or an end, by that slot.

    A value the request writes after both kinds of word is left out: it says neither.
    """
    said: dict[str, set[Slot]] = {}
    for match in _SAID.finditer(request.lower()):
        slot: Slot = "start" if match.group(1) in _STARTS_SAID else "end"
        said.setdefault(normal(match.group(2)), set()).add(slot)
    return {value: next(iter(slots)) for value, slots in said.items() if len(slots) == 1}


@dataclass(frozen=True)
class ValueInItsSlot(Rule):
    """A line of a start-and-end tool whose value the request puts in the other slot is amended.

    The value goes to its slot. The slot it leaves takes the one value the
    request puts there, else the value an earlier line of the same tool had
    there (the same tool twice shares it); when neither is known the line
    stands. A line that takes an earlier result is a chain, and stands.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Keep`` with the amended arguments, or ``None`` when every value is in its slot."""
        if line.refs:
            return None
        pair = _pair(tool_schema(tools, line.tool))
        if pair is None:
            return None  # most tools: no start and end to read the request for
        said = request_slots(view.request)
        if not said:
            return None
        arguments = literal_arguments(line)
        slots: tuple[Slot, Slot] = ("start", "end")
        wrong: dict[Slot, Any] = {
            slot: arguments[pair[slot]]
            for slot in slots
            if pair[slot] in arguments
            and said.get(normal(arguments[pair[slot]])) not in (None, slot)
        }
        if not wrong:
            return None
        if len(wrong) == 2:  # each in the other's slot
            amended = ((pair["start"], wrong["end"]), (pair["end"], wrong["start"]))
            return Keep(amended=amended)
        ((left, value),) = wrong.items()
        other: Slot = "end" if left == "start" else "start"
        twin = next((w for w in reversed(written) if w.tool == line.tool), None)
        before = literal_arguments(twin) if twin is not None else {}
        own = [v for v, slot in said.items() if slot == left]
        refill = own[0] if len(own) == 1 else before.get(pair[left])
        if refill is None or said.get(normal(refill)) == other:
            return None
        refill = _as_written(refill, view.request, arguments, before)
        changes: list[tuple[str, object]] = [(pair[left], refill)]
        there = arguments.get(pair[other])
        # The line kept the twin's value in the other slot and put its new value in this
        # one: the new value is the one that changes, and goes to its own slot.
        kept = there is not None and normal(there) == normal(before.get(pair[other], ""))
        if kept and normal(value) != normal(before.get(pair[left], "")):
            changes.append((pair[other], value))
        return Keep(amended=tuple(changes))


def _pair(schema: Mapping[str, Any] | None) -> dict[Slot, str] | None:
    """A tool's start and end parameters, when it has exactly one of each."""
    found: dict[Slot, list[str]] = {"start": [], "end": []}
    for name in (schema or {}).get("properties") or {}:
        slot = parameter_slot(name)
        if slot is not None:
            found[slot].append(name)
    if len(found["start"]) != 1 or len(found["end"]) != 1:
        return None
    return {"start": found["start"][0], "end": found["end"][0]}


def _as_written(value: object, request: str, *lines: Mapping[str, Any]) -> object:
    """``value`` as a line wrote it (``"USD"``, not ``usd``), else as the request has it."""
    for arguments in lines:
        for written in arguments.values():
            if normal(written) == normal(value):
                return written
    found = re.search(re.escape(str(value)), request, re.IGNORECASE)
    return found.group() if found else value
