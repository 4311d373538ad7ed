"""Rules measured with the plan in place that are not in the library (the ablation).

Each was one of the small-model policy's rules before plans existed. With the
plan in place they did not earn their place on both halves of the matrix
(docs/embedded-model.md), so they live here, where ``--policy with:NAME``
measures them again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from bench.matrix._bare_steps import BareStepForced
from bench.matrix._searches import EmptySearchLooksElsewhere
from springtail.models._llamacpp import (
    CallShare,
    CombinedResultsEnd,
    Drop,
    Free,
    MadeUpValues,
    More,
    Next,
    Offer,
    Opening,
    PlanLine,
    Prose,
    Retry,
    Review,
    Rule,
    TurnView,
    UnusedValuesAskMore,
    ValueFitsElsewhere,
    Wait,
)
from springtail.models._llamacpp._made_up import givers
from springtail.models._llamacpp._plan_grammar import takes_free_text
from springtail.models._llamacpp._rule import (
    literal_arguments,
    literal_specs,
    searches_by_text,
    takes_id,
    tool_schema,
    unused_values,
)
from springtail.models._llamacpp._subjects import tool_words, words
from springtail.models._llamacpp._values import (
    Known,
    argument_values,
    enum_choices,
    invented,
    normal,
    shape,
    uses,
)
from springtail.models._llamacpp._worded_dates import ISO_DATE
from springtail.tools._definition import ToolDefinition

_HYPHENATED = re.compile(r"(?<=[a-z])-(?=[a-z])")
_WORD = re.compile(r"[a-z0-9]+")
_NAME_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def named_tools(
    request: str, tools: Sequence[ToolDefinition], called: Collection[str]
) -> list[ToolDefinition]:
    """The tools not in ``called`` whose every name word a request word starts with."""
    words = _WORD.findall(_HYPHENATED.sub("", request.lower()))
    if not words:
        return []
    called_parts = [p for name in called for p in _parts(name)]
    result = []
    for definition in tools:
        if definition.name in called:
            continue
        parts = _parts(definition.name)
        if not parts or all(any(c.startswith(p) for c in called_parts) for p in parts):
            continue
        if all(any(w.startswith(p) for w in words) for p in parts):
            result.append(definition)
    return result


def _parts(name: str) -> list[str]:
    return [p.lower() for p in _NAME_PART.findall(name)]


@dataclass(frozen=True)
class OfferNamedTools(Rule):
    """Once tools have answered, a tool the request names word for word but the turn has not
    called is offered first (was ``SmallModelPolicy.offer_named_tools``)."""

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        if not view.has_results or not view.request:
            return None
        offer = named_tools(view.request, tools, view.called())
        return Offer(tuple(offer)) if offer else None


@dataclass(frozen=True)
class MoreForUnusedValues(Rule):
    """While the request holds values shaped like those the plan took that no line carries,
    another line is asked for (was ``SmallModelPolicy.call_for_unused_values``)."""

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next | None:
        request = view.values.literals
        schemas = {d.name: d.input_schema for d in tools}
        used: set[str] = set()
        for name, arguments in view.call_arguments():
            used |= uses(arguments, request, schemas.get(name))
        for line in written:
            used |= uses(literal_arguments(line), request, schemas.get(line.tool))
        shapes = {shape(v) for v in used}
        left = frozenset(v for v in request - used if shape(v) in shapes)
        return More(left) if left else None


@dataclass(frozen=True)
class AnswerOncePlanRan(Rule):
    """Once the turn's plan has no line left that can run, the reply is the answer.

    With it, a plan that had more to do than it wrote answered with its next
    line as text (``r3 = send_message(...)``); without it, the model goes on
    with the plan after its results.
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        state = view.plan
        if state.plan is not None and not state.ready():
            return Prose()
        return None


@dataclass(frozen=True)
class FollowUpValues(Rule):
    """A follow-up request with values of its own opens with a call that carries one.

    "And in GBP?", "Take 15% off that.": with the chat memory outside the tool
    loop, the model answers such a request from the history (the opening half
    of the old ``call_for_unused_values``).
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        if not view.follow_up or view.has_results:
            return None
        wanted = view.values.literals
        return Offer(tuple(tools), wanted) if wanted else None


@dataclass(frozen=True)
class RepeatLineEnds(Rule):
    """A line that repeats values earlier lines carry, with a tool the request never speaks of.

    Eleventh pass. The several-at-once probe's plans went on past the request
    with lines that take no result and write nothing new: ``average(numbers=
    [250, 40])`` after both currency conversions had carried 250 and 40,
    ``list_appointments(patient_id="P-104")`` after the asked lookup of
    P-104, ``todo_list()``. A needed line of that shape names its step in the
    request's words ("look up C-101 and list her orders"), or writes a value
    of its own (``to_currency="GBP"`` for "pounds"); a line of that shape
    whose tool no word of the request speaks of ends the plan.

    Measured over the eleventh pass's defaults: it fired on 10 turns of the
    held-out half and the two probe sets and turned none (docs/embedded-model.md).
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Drop`` for a line that adds nothing and whose tool the request does not name."""
        if not written or line.refs or unused_values(view, written, tools):
            return None
        schemas = {d.name: d.input_schema for d in tools}
        earlier: set[str] = set()
        for name, arguments in view.call_arguments():
            earlier.update(argument_values(arguments, schemas.get(name)))
        planned = view.plan.plan.lines if view.plan.plan is not None else ()
        for before in (*planned, *written):
            earlier.update(argument_values(literal_arguments(before), schemas.get(before.tool)))
        own = argument_values(literal_arguments(line), schemas.get(line.tool))
        if any(value not in earlier for value in own):
            return None
        spoken = next((tool_words(d) for d in tools if d.name == line.tool), frozenset())
        return None if spoken & words(view.request) else Drop()


@dataclass(frozen=True)
class ReplanStuckStep(Rule):
    """A plan whose next line cannot be written from its result plans again, without that tool.

    Eleventh pass. "Book P-101 into Dr. Haddad's earliest opening on
    2026-03-17" planned ``find_patient(name="Haddad")`` and then
    ``doctor_availability(doctor_id=r1, …)``; the search answered "No patient
    matches 'Haddad'.", no id could be read from it, and the model, free to
    choose, answered with that sentence. A step whose result gives its next
    line nothing (or fails) was the wrong step: the reply is a call to one of
    the other tools, with that result in view.

    Measured over the eleventh pass's defaults: it fired on that request under
    both prompts; the new plan invented an appointment id and the request still
    failed. No other turn of the held-out half or the probe sets fired it.
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """``Offer`` of the tools but the stuck step's, while a plan line cannot go on."""
        state = view.plan
        if state.plan is None:
            return None
        failed = {r for r, result in state.results.items() if result.is_error}
        # At the opening, a ready line is one the plan could not write from its results.
        stuck = [
            line
            for line in state.pending
            if line in state.ready() or any(r in failed for r in line.refs)
        ]
        sources = {state.results[r].tool for line in stuck for r in line.refs if r in state.results}
        offer = tuple(d for d in tools if d.name not in sources)
        return Offer(offer) if sources and offer else None


@dataclass(frozen=True)
class ResultsCallFloor(Rule):
    """After results, the reply calls again when the call-opening tokens get ``floor`` or more.

    Tenth pass. A plan that stops short of its request leaves the model's
    first token after the results to decide whether more calls follow; held
    out chains stopped after one call with no rule firing. At ``floor=1.0``
    nothing changes but the share is logged, which is how the floor was read.
    """

    floor: float = 1.0

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """``Free(call_floor=floor)`` once the turn has results; else pass."""
        return Free(call_floor=self.floor) if view.has_results else None


_VALUE_AND_WORD = re.compile(r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z]+)\b")


@dataclass(frozen=True)
class UnitNamesTool(Rule):
    """A request value's unit is a choice of another tool's enum: a near tool was picked.

    "How much are 250 EUR and 40 GBP in US dollars?" was planned as
    ``convert_units(value=250, from_unit="kg", to_unit="lb")`` beside a
    ``currency_convert`` whose enums hold EUR and GBP. The word right after a
    number the line carries ("250 EUR") names a choice of another tool's enum
    and of none of this tool's: the line is written again with only the tools
    whose enums hold it, and must carry it (thirteenth pass).
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Retry`` with the tools whose enums hold the unit of a value the line carries."""
        numbers = {float(v) for v in literal_arguments(line).values() if _is_number(v)}
        if not numbers:
            return None
        # A unit the tool's own schema speaks of (``weight_kg`` for "a 3 kg box") is its own.
        schema = tool_schema(tools, line.tool) or {}
        description = next((d.description for d in tools if d.name == line.tool), "")
        spoken = f"{description} {json.dumps(schema)}".lower().replace("_", " ")
        own = _enum_choices(tools, line.tool) | frozenset(_WORD.findall(spoken))
        for match in _VALUE_AND_WORD.finditer(view.request):
            if float(match.group(1).replace(",", "")) not in numbers:
                continue
            unit = match.group(2).lower()
            if unit in own:
                continue
            takers = frozenset(
                d.name
                for d in tools
                if d.name != line.tool and unit in _enum_choices(tools, d.name)
            )
            if takers:
                return Retry(line.tool, frozenset({unit}), only=takers)
        return None


def _enum_choices(tools: Sequence[ToolDefinition], name: str) -> frozenset[str]:
    """The lower-cased text choices of every enum parameter of the tool ``name``."""
    properties = (tool_schema(tools, name) or {}).get("properties") or {}
    return frozenset(c.lower() for spec in properties.values() for c in enum_choices(spec))


@dataclass(frozen=True)
class MadeUpValuesSearchLast(MadeUpValues):
    """A first line whose invented texts no retry found ends in a search of its subject, not prose.

    "Push my dentist appointment to 2026-03-19, same time." wrote
    ``add_event(…, start="10:00")``; the retry among the tools that give a
    start (``find_free_slot``) invented a length, and the reply was prose
    with no call. The thing the request speaks of is found first: the last
    choice is a tool that takes one free text alone and whose name holds a
    word of the turned-away tool's name or description (``find_events``).
    Measured before ``MadeUpValues`` searched for what the request names,
    so without it.
    """

    search_named: bool = False

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``MadeUpValues``'s answer, with a search as the last choice of a first line."""
        verdict = super().review(view, line, written, tools)
        if written or view.has_results or not isinstance(verdict, Retry | Prose):
            return verdict
        own = next((tool_words(d) for d in tools if d.name == line.tool), frozenset())
        searches = frozenset(
            d.name
            for d in tools
            if d.name != line.tool and searches_by_text(d) and words(d.name.replace("_", " ")) & own
        )
        if not searches:
            return verdict
        if isinstance(verdict, Retry):
            if verdict.then is None and not verdict.looked_up and not verdict.wanted:
                return replace(verdict, then=searches)
            return verdict
        arguments, schema = literal_arguments(line), tool_schema(tools, line.tool)
        made = invented(arguments, view.known, schema)
        properties = (schema or {}).get("properties") or {}
        if made and all((properties.get(n) or {}).get("type") == "string" for n in made):
            return Retry(line.tool, only=searches)
        return verdict


@dataclass(frozen=True)
class MadeUpValuesTextGivers(MadeUpValues):
    """A first line that invents a text and a number looks the text up, where a tool gives it.

    "On the day of my project review, find two free hours …" wrote
    ``find_free_slot(day="2023-10-15", minutes=60)``: the invented number
    made the whole line a computation nobody asked for, and the reply was
    prose with no call. The invented day is a value a tool gives (the tools
    whose words match ``day``), so the line is written again among those, as
    a line of invented texts alone already is (sixteenth pass).
    Measured before ``MadeUpValues`` searched for what the request names,
    so without it.
    """

    search_named: bool = False

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``MadeUpValues``'s answer, with the text's givers instead of prose for a first line."""
        verdict = super().review(view, line, written, tools)
        if written or view.has_results or len(tools) < 2 or verdict != Prose(without_tools=True):
            return verdict
        arguments, schema = literal_arguments(line), tool_schema(tools, line.tool)
        properties = (schema or {}).get("properties") or {}
        texts = frozenset(
            n
            for n in invented(arguments, view.known, schema)
            if (properties.get(n) or {}).get("type") == "string"
        )
        found = givers(line, tools, texts) if texts else frozenset()
        return Retry(line.tool, only=found) if found else verdict


@dataclass(frozen=True)
class ListedValueWaits(Rule):
    """A number of a list the line before took whole, written alone, waits for that line.

    "Order SKU-5 for Carla Mendes by express, as many as we sell in an
    average week; the last four weeks were 14, 18, 22 and 26." planned
    ``average(numbers=[14, 18, 22, 26])``, then ``create_order(...,
    quantity=14)`` under the seventeenth pass's clause comments: the request
    gave 14 as one of four, not for the quantity. The line waits for the
    line before, whose result the value becomes, as a made-up value does
    (seventeenth pass).
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Wait`` for the arguments that hold one number of the list the line before took."""
        if not written:
            return None
        listed = {
            normal(item)
            for value in literal_arguments(written[-1]).values()
            if isinstance(value, list) and len(value) >= 2
            for item in value
            if _is_number(item)
        }
        if not listed:
            return None
        request = Known(view.request)
        waiting = frozenset(
            name
            for name, value in literal_arguments(line).items()
            if not (isinstance(value, list) and all(_is_number(v) for v in value))
            and any(
                v in listed and request.times(v) == 1 for v in argument_values({name: value}, None)
            )
        )
        return Wait(waiting) if waiting else None


@dataclass(frozen=True)
class StatedValueNotLookedUp(Rule):
    """A lookup of what the request states already, with its number and unit, is not a step.

    "Kenji Sato's checkup comes to 90 EUR. How much of it does he pay
    himself?" was planned from ``visit_price(visit_type="checkup")`` ("The
    price of a type of visit, in EUR"), and "A bill of 250 EUR with 65%
    insurance coverage" too: the request states the price, number and unit.
    A line of a tool that takes one value or none, which writes no value with
    digits, while the request writes a number no line carries followed by a
    word the tool's description holds, looks up what the request gave: it is
    written again without that tool, and must carry a value the request
    gives (nineteenth pass).
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Retry`` without a lookup of a number the request states with its unit."""
        if view.has_results or line.refs:
            return None
        schema = tool_schema(tools, line.tool) or {}
        if len(schema.get("required") or ()) > 1:
            return None
        if any(
            any(c.isdigit() for c in normal(v))
            for v in argument_values(literal_arguments(line), None)
        ):
            return None
        own = next((tool_words(d) for d in tools if d.name == line.tool), frozenset())
        unused = unused_values(view, written, tools)
        for match in _VALUE_AND_WORD.finditer(view.request):
            number = normal(match.group(1))
            if number in unused and words(match.group(2)) & own:
                return Retry(line.tool, unused)
        return None


@dataclass(frozen=True)
class IdSearchedGoesToItsTaker(ValueFitsElsewhere):
    """An id written into a search goes to the tool that takes ids of what the search searches.

    "Could you read me notes N-1 and N-2" wrote ``search_notes(query="N-1")``
    beside ``read_note(note_id)``, whose schema gives no example to fit. A
    request value with letters and digits (not a date) in a search's free
    text is written again with the tools that require an id whose subject
    (``note`` of ``note_id``) is a word of the search's name or description.
    Nineteenth pass: several at once, the notes request 0 → 2 of 2;
    development 55 → 55 (it never fired); held-out 41 → **39** (it fired on a
    calendar multi request under both prompts, and both failed; counted, not
    read).
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``ValueFitsElsewhere``'s answer, else ``Retry`` with the takers of a searched id."""
        verdict = super().review(view, line, written, tools)
        if verdict is not None:
            return verdict
        for name, value, spec in literal_specs(line, tools):
            if not isinstance(value, str):
                continue
            text = normal(value)
            if text not in view.values.literals or shape(text) == "number":
                continue
            if not any(c.isdigit() for c in text) or not _searched(text, name, spec):
                continue
            takers = _id_takers(line.tool, tools)
            if takers:
                return Retry(line.tool, frozenset({text}), only=takers)
        return None


def _searched(text: str, name: str, spec: object) -> bool:
    """Whether an id of the request (not a date) was written into a search's free text."""
    return (
        takes_free_text(spec)
        and not takes_id(name, spec)
        and ISO_DATE.fullmatch(text) is None
        and any(c.isalpha() for c in text)
    )


def _id_takers(searching: str, tools: Sequence[ToolDefinition]) -> frozenset[str]:
    """The tools that require an id whose subject is a word of the tool ``searching``."""
    own = next((tool_words(d) for d in tools if d.name == searching), frozenset())
    takers = set()
    for other in tools:
        if other.name == searching:
            continue
        properties = other.input_schema.get("properties") or {}
        for parameter in other.input_schema.get("required") or ():
            subject = words(parameter.replace("_", " ")) - {"id"}
            if takes_id(parameter, properties.get(parameter)) and subject and subject <= own:
                takers.add(other.name)
    return frozenset(takers)


def _is_number(value: object) -> bool:
    """Whether a literal argument is a number (``True`` is not one)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


EXPERIMENTS: dict[str, Rule] = {
    "FollowUpValues": FollowUpValues(),
    "AnswerOncePlanRan": AnswerOncePlanRan(),
    "AnswerAfterOffers": AnswerOncePlanRan(),
    "OfferNamedTools": OfferNamedTools(),
    "MoreForUnusedValues": MoreForUnusedValues(),
    "UnusedValuesOnly": UnusedValuesAskMore(named_steps=False),
    "MadeUpValuesProvidersFirst": MadeUpValues(named_first=False, search_named=False),
    "ResultsCallShareLog": ResultsCallFloor(1.0),
    "ResultsOnlyLineEnds": CombinedResultsEnd(least_results=1),
    "RepeatLineEnds": RepeatLineEnds(),
    "ReplanStuckStep": ReplanStuckStep(),
    "UnitNamesTool": UnitNamesTool(),
    "MadeUpValuesSearchLast": MadeUpValuesSearchLast(),
    "MadeUpValuesTextGivers": MadeUpValuesTextGivers(),
    "ListedValueWaits": ListedValueWaits(),
    "StatedValueNotLookedUp": StatedValueNotLookedUp(),
    "IdSearchedGoesToItsTaker": IdSearchedGoesToItsTaker(),
    "CallShareNamed": CallShare(named=0.1),
    "MadeUpValuesNoSearch": MadeUpValues(search_named=False),
    "EmptySearchLooksElsewhere": EmptySearchLooksElsewhere(),
    "BareStepForced": BareStepForced(),
}
"""An experiment whose class is a default rule's takes that rule's place; ``AFTER_DEFAULTS`` go
last; the others go first."""

AFTER_DEFAULTS = frozenset(
    {
        "ResultsCallShareLog",
        "AnswerAfterOffers",
        "EmptySearchLooksElsewhere",
    }
)
"""Experiments measured after the default rules (they ask for more only when no rule did;
``EmptySearchLooksElsewhere`` was measured just before ``UnusedValuesAskMore``: here it
offers a search only where that rule offered nothing)."""
