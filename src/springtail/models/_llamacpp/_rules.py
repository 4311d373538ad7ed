"""The small-model rules: each a small class that answers one of the policy's questions.

A rule answers ``opening``, ``review`` or ``next`` (``_policy.py``) or
passes by returning ``None``; ``SmallModelPolicy`` asks its rules in order and
the first answer decides. No rule names an application's tools or words:
each reads only the request, the tools' schemas and what the conversation
holds. The measurement behind each is in ``docs/embedded-model.md``.

The base ``Rule`` and the readings several rules share are in ``_rule.py``;
``MadeUpValues``, the largest rule, is in ``_made_up.py``, and the rules that
cut a plan where it goes past the request are in ``_past_request.py``;
``FoundRecordReplaced`` (``_replaced.py``) reads a search's records,
``StepBetweenFirst`` (``_step_between.py``) what a result lacks,
``BareStepAsked`` (``_bare_step.py``) a part of the request with no value, and
``ValueInItsSlot`` (``_slots.py``) the word that ties a value to a start or an end. All
are re-exported here with ``DEFAULT_RULES``, the order the policy asks them in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.models._llamacpp._bare_step import BareStepAsked
from springtail.models._llamacpp._binding import signature
from springtail.models._llamacpp._decisions import (
    ByShare,
    Drop,
    Free,
    More,
    Next,
    Offer,
    Opening,
    Prose,
    Retry,
    Review,
)
from springtail.models._llamacpp._made_up import MadeUpValues
from springtail.models._llamacpp._past_request import (
    CombinedResultsEnd,
    LookAfterActGoes,
    StrayLineGoes,
    UnaskedActGoes,
)
from springtail.models._llamacpp._plan import PlanLine, Ref
from springtail.models._llamacpp._replaced import FoundRecordReplaced
from springtail.models._llamacpp._rule import (
    Rule,
    literal_arguments,
    literal_specs,
    searches_by_text,
    takes_id,
    tool_schema,
    unnamed_steps,
    unused_values,
)
from springtail.models._llamacpp._slots import ValueInItsSlot
from springtail.models._llamacpp._step_between import StepBetweenFirst
from springtail.models._llamacpp._stubs import parameter_example
from springtail.models._llamacpp._subjects import providers
from springtail.models._llamacpp._units import converters
from springtail.models._llamacpp._values import invented, normal, shape
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = [
    "DEFAULT_RULES",
    "BareStepAsked",
    "CallShare",
    "CombinedResultsEnd",
    "FollowUpCallFloor",
    "FoundRecordReplaced",
    "LookAfterActGoes",
    "LookUpFirst",
    "MadeUpValues",
    "PlanLimit",
    "RepeatAsProse",
    "Rule",
    "StepBetweenFirst",
    "StrayLineGoes",
    "UnaskedActGoes",
    "UnknownToolAsProse",
    "UnusedValuesAskMore",
    "ValueFitsElsewhere",
    "ValueInItsSlot",
]


@dataclass(frozen=True)
class FollowUpCallFloor(Rule):
    """A request that follows an answer opens with a call when calling gets ``floor`` or more.

    Shown earlier answers, the 1.5B model imitates them and answers from
    nothing; requests that need a tool gave calling 0.02-0.12 of the first
    token's probability, small talk at most 0.005.
    """

    floor: float = 0.01

    def __post_init__(self) -> None:
        if not 0.0 < self.floor <= 1.0:
            raise ValueError(f"floor={self.floor} must lie in (0, 1].")

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """The floor for a follow-up request before any call of its own."""
        if view.follow_up and not view.has_results:
            return Free(call_floor=self.floor)
        return None


@dataclass(frozen=True)
class PlanLimit(Rule):
    """A turn writes ``plans`` plans at most; then, results in, the reply is the answer.

    A plan is the request's calls; one more after results lets the model
    take a step the first plan missed. Beyond that the 1.5B model does not
    converge: a held-out chained request went on for nine calls and six
    minutes, each new plan a near miss of the last, and failed anyway. The
    lines a plan wrote still run to the end (resuming a plan is not a new
    one).
    """

    plans: int = 2

    def __post_init__(self) -> None:
        if self.plans < 1:
            raise ValueError(f"plans={self.plans} must be at least 1.")

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """Prose once the turn has written its plans; else pass."""
        if view.has_results and view.plan.plans >= self.plans:
            return Prose()
        return None


@dataclass(frozen=True)
class CallShare(Rule):
    """A request's first reply calls when the tokens that open a call get ``threshold`` or more.

    Measured on the first token of 84 development requests, the model
    spreads a call over several openings (a code fence, ``{"``, a tag) while
    one word of prose ("To") takes the top place: the top token decided 73
    right, the share at 0.3 decided 78 (docs/embedded-model.md).

    With ``named``, from that share up to ``threshold``, prose whose first
    sentence names an offered tool is the call it describes ("To find Aisha
    Khan's upcoming appointments, I need to call the ``list_appointments``
    function with the patient ID …", at 0.26). Off by default: it passed no
    request more on any set, and turned a held-out request that needs no
    tool into a call (nineteenth pass; ``CallShareNamed`` in ``bench/``).
    """

    threshold: float = 0.3
    named: float | None = None

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """The share decides a request's first reply (a follow-up's is another rule's)."""
        if view.follow_up or view.has_results:
            return None
        return ByShare(self.threshold, self.named)


@dataclass(frozen=True)
class UnknownToolAsProse(Rule):
    """A line that calls a tool that is not offered: no tool fits, so the reply is prose.

    The grammar's catch-all lets the model write such a call (forbidding it
    derailed the model); a first line like that means it wanted a tool that
    does not exist. The prose is written from the prompt without the tools:
    with them, asked "What is the capital of France?", the model answered
    that it had called a ``current_city`` function. A later such line ends
    the plan before it.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """Prose without the tools for a first line to an unknown tool; else the plan's end."""
        if any(d.name == line.tool for d in tools):
            return None
        return Drop() if written else Prose(without_tools=True)


@dataclass(frozen=True)
class RepeatAsProse(Rule):
    """A line identical to a call already made this turn: nothing new to call.

    The model loops on its last call; the tool loop would refuse the repeat,
    and asking again costs a round. So does a line identical to the one
    before but for the id it takes from that line's result (a twin): "Clear
    everything off my calendar for 2026-03-16." listed the day, then wrote
    ``cancel_event(event_id=r1)``, ``cancel_event(event_id=r2)`` … seven
    times, each cancelling the last one's "cancelled" (twenty-third pass).
    An act's result is no id of what it acted on; a number a twin computes
    is a step ("double it, then double it again") and stays.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """A retry or prose for a first line that repeats a call, the plan's end for a later one."""
        if written and _twin(line, written[-1], tools):
            return Drop()
        if line.refs or not view.repeats(line.tool, literal_arguments(line)):
            return None
        if written:
            return Drop()
        unused = unused_values(view, (line,), tools)
        # Values of the request no call has carried yet: the plan missed a step, which the
        # model meant to take when it opened a call again ("... and send Sam the yen price").
        return Retry(line.tool, unused) if unused else Prose(without_tools=True)


def _twin(line: PlanLine, before: PlanLine, tools: Sequence[ToolDefinition]) -> bool:
    """Whether ``line`` is ``before`` again but for ids it takes from ``before``'s result."""
    if line.tool != before.tool or len(line.arguments) != len(before.arguments):
        return False
    properties: Mapping[str, Any] = (tool_schema(tools, line.tool) or {}).get("properties") or {}
    differ = [
        (name, value)
        for (name, value), (other, was) in zip(line.arguments, before.arguments, strict=True)
        if name != other or value != was
    ]
    return bool(differ) and all(
        value == Ref(before.variable) and takes_id(name, properties.get(name))
        for name, value in differ
    )


@dataclass(frozen=True)
class UnusedValuesAskMore(Rule):
    """While the request gives values or names steps that no line takes, another line follows.

    A plan of a 1.5B model often stops a step short: for "What would all our
    SKU-100 stock come to at 25 each, with 10% off the total?" it wrote the
    lookup and the multiplication and left out the 10 % (or spent it on a
    subtraction of the wrong values); for "... and send Sam the yen price" it
    ended before the message. The request's own values say a step is
    missing; the line that follows must carry one of them, and a line that
    does not is written again once without its tool (a near tool was
    picked), then dropped.

    When results are in and the plan has no line left to run, values no call
    carried make the next reply an offer of the tools, kept only if its
    first line carries one of them: "Book Tom Becker in with Dr. Haddad
    (D-2) on 2026-03-19" looked the patient up, then, left to itself,
    described the booking in prose ("you would use the ``book_appointment``
    function with ``patient_id="P-102"``"). Plain numbers left do not make
    an offer: the model folds them into its answer ("with 10% off the total"),
    and offered them it made up a step to spend one on
    (``product_reserve(quantity=10)``). ``PlanLimit`` bounds how often.

    With ``named_steps`` (tenth pass), when every value is carried, a word of
    the request that names tools no call speaks of (``unnamed_steps``) asks
    for a line among those tools, and after results offers them: "… what's
    the average of the economy and express shipping prices?" stopped at the
    two quotes. Only a plan that has begun is asked: a request that names a
    tool's word but needs no call is the model's to answer.
    """

    named_steps: bool = True

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """After results, an offer that must carry an id, date or name no call carried yet.

        With every such value carried, an offer of the named tools no call took.
        """
        if not view.has_results:
            return None
        unused = frozenset(v for v in unused_values(view, (), tools) if shape(v) != "number")
        if unused:
            return Offer(tuple(tools), unused)
        missing = unnamed_steps(view, (), tools) if self.named_steps else frozenset()
        return Offer(tuple(d for d in tools if d.name in missing)) if missing else None

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next | None:
        """``More`` with the values no call carries yet, in a turn's first plan; else pass.

        With every value carried, ``More`` among the named tools no line
        calls. After results, the offer above asks for what is left, once per
        plan: a line that does not take it ends the plan.
        """
        if view.has_results:
            return None
        unused = unused_values(view, written, tools)
        if unused:
            return More(unused)
        missing = unnamed_steps(view, written, tools) if self.named_steps and written else None
        return More(tools=missing) if missing else None


@dataclass(frozen=True)
class ValueFitsElsewhere(Rule):
    """A request's id or date written into a parameter it does not fit: a near tool was picked.

    Each parameter's example (the schema's ``examples``, or the ``e.g.`` of
    its description) gives the shape of its values: ``P-101`` is the letter
    P, a dash and digits (``D-1`` is another shape). Asked "Send patient
    P-103 an e-mail", the model searched patients by name for ``"P-103"``
    next to a lookup by id whose example has that shape, and the booking or
    message then took "No patient matches". A value that fits its own
    parameter, or one another tool takes under the same parameter name, is
    left alone. The line is written again with only the tools whose
    parameters fit, and must carry the value; this retry may follow another
    (the second choice after a step too early was the search).

    A parameter that shows no example has no shape to fit, but an ``…_id``
    whose subject the request names a few words before an id written with
    letters and digits takes it: "Read notes N-1 and N-2 …" searched the
    notes for ``"N-1"`` beside ``read_note(note_id)`` (a search's line only;
    twenty-fourth pass).

    A number the request writes in one unit where the parameter's name says
    another (``weight_kg=10`` for "a parcel weighs 10 lb") does not fit
    either: the tools that convert between the two units come first, and the
    line comes back after them taking the result (``_units.converters``;
    twenty-second pass).
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Retry`` without the line's tool when a value fits only another tool's parameter."""
        for name, value, spec in literal_specs(line, tools):
            convert = converters(view.request, name, value, spec, tools) - {line.tool}
            if convert and not line.refs:
                return Retry(line.tool, only=convert, looked_up=frozenset({name}))
            if not isinstance(value, str):
                continue
            text = normal(value)
            if text not in view.values.literals or shape(text) == "number":
                continue
            if not any(c.isdigit() for c in text) or _fits(text, spec):
                continue
            elsewhere = {
                (other.name, parameter)
                for other in tools
                if other.name != line.tool
                for parameter, spec in (other.input_schema.get("properties") or {}).items()
                if _fits(text, spec)
            }
            if not elsewhere and any(d.name == line.tool and searches_by_text(d) for d in tools):
                elsewhere = _named_id_takers(view.request, text, tools, line.tool)
            if elsewhere and all(parameter != name for _, parameter in elsewhere):
                takers = frozenset(tool for tool, _ in elsewhere)
                return Retry(line.tool, frozenset({text}), only=takers)
        return None


@dataclass(frozen=True)
class LookUpFirst(Rule):
    """A word of the request where an id goes: the id is looked up first, then the line runs.

    Asked "Copy my groceries note into a new note called 'Sunday shopping'",
    the model wrote ``read_note(note_id="groceries")``; the tool answered
    "no note groceries" and the copy took that text. A parameter that takes
    an id (named ``id`` or ``…_id``, or whose example has digits) holding a
    word of the request with no digit was given a name, not an id. When a
    tool about the parameter's subject (``_subjects.providers``) takes that
    word alone (one required parameter, a free text), the line is written
    again with only those tools and must carry the word; the line itself
    comes back after the lookup, its id taken from the lookup's result
    (``Retry.looked_up``). With no such tool the line stands. An id nobody
    gave (``patient_lookup(patient_id="P-101")`` for "Kenji Sato's checkup
    …"), while a name of the request is carried by no call, is that name's
    id made up: the name is looked up the same way.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Retry`` with the lookups that take the word, the line coming back after them."""
        request = normal(view.request)
        for name, value, spec in literal_specs(line, tools):
            if not isinstance(value, str) or not takes_id(name, spec):
                continue
            text = normal(value)
            if any(c.isdigit() for c in text):
                # An id nobody gave, beside a name no call carries: the name's id, made up.
                if view.known.holds(text):
                    continue
                left = unused_values(view, written, tools)
                wanted = frozenset(n for n in view.values.names if n in left)
            elif len(text) >= 3 and re.search(rf"\b{re.escape(text)}\b", request):
                wanted = frozenset({text})
            else:
                continue
            about = providers(name, spec, tools, besides=line.tool)
            lookups = frozenset(d.name for d in tools if d.name in about and searches_by_text(d))
            if lookups and wanted:
                # The line comes back only when the rest of it is read, not made up: "Call
                # off Kenji Sato's appointment" opened with a booking on a made-up day, and
                # it came back after the lookup and booked (twenty-second pass).
                rest = {n: v for n, v in literal_arguments(line).items() if n != name}
                back = not invented(rest, view.known, tool_schema(tools, line.tool))
                looked_up = frozenset({name}) if back else frozenset()
                return Retry(line.tool, wanted, only=lookups, looked_up=looked_up)
        return None


_WORDS_BEFORE = 3
"""How far before an id the request may name what it is the id of ("notes N-1 and N-2")."""


def _named_id_takers(
    request: str, value: str, tools: Sequence[ToolDefinition], besides: str
) -> set[tuple[str, str]]:
    """The id parameters with no example whose subject the request names just before ``value``.

    "Read notes N-1 and N-2 and tell me which one is longer." searched the
    notes for ``"N-1"``: ``read_note``'s ``note_id`` shows no example to
    compare with, but the request calls N-1 a note, a few words before it.
    Only an id written with letters and digits (``N-1``, not ``310``) is
    read so: a plain number is a quantity as often as an id.
    """
    if not re.search(r"[a-z]", value):
        return set()
    lowered = request.lower()
    found = re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", lowered)
    if found is None:
        return set()
    before = set(re.findall(r"[a-z]+", lowered[: found.start()])[-_WORDS_BEFORE:])
    takers = set()
    for other in tools:
        if other.name == besides:
            continue
        for parameter, spec in (other.input_schema.get("properties") or {}).items():
            subject = parameter.lower().removesuffix("_id")
            if (
                parameter.lower().endswith("_id")
                and parameter_example(spec) is None
                and not (isinstance(spec, Mapping) and "pattern" in spec)
                and {subject, subject + "s"} & before
            ):
                takers.add((other.name, parameter))
    return takers


def _fits(value: str, spec: Any) -> bool:
    """Whether a normalised value has the shape of a parameter's pattern or example."""
    if not isinstance(spec, Mapping):
        return False
    pattern = spec.get("pattern")
    if isinstance(pattern, str):
        try:
            return re.search(pattern, value, re.IGNORECASE) is not None
        except re.error:
            return False
    example = parameter_example(spec)
    return example is not None and signature(example) == signature(value)


DEFAULT_RULES: tuple[Rule, ...] = (
    PlanLimit(),
    CallShare(),
    FollowUpCallFloor(),
    CombinedResultsEnd(),
    LookAfterActGoes(),
    UnaskedActGoes(),
    UnknownToolAsProse(),
    RepeatAsProse(),
    StepBetweenFirst(),
    ValueFitsElsewhere(),
    LookUpFirst(),
    MadeUpValues(),
    UnusedValuesAskMore(),
    StrayLineGoes(),
    FoundRecordReplaced(),
    BareStepAsked(),
    ValueInItsSlot(),
)
"""``SmallModelPolicy``'s rules, in the order they are asked."""
