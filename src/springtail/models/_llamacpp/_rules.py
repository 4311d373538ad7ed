"""The small-model rules: each a small class that answers one of the policy's questions.

A rule answers ``opening``, ``review`` or ``next`` (``_policy.py``) or
passes by returning ``None``; ``SmallModelPolicy`` asks its rules in order and
the first answer decides. No rule names an application's tools or words:
each reads only the request, the tools' schemas and what the conversation
holds. The measurement behind each is in ``docs/embedded-model.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.models._llamacpp._decisions import (
    ByShare,
    Drop,
    Free,
    Keep,
    More,
    Next,
    Offer,
    Opening,
    Prose,
    Retry,
    Review,
    Wait,
)
from springtail.models._llamacpp._plan import PlanLine, Ref, Template
from springtail.models._llamacpp._stubs import parameter_example
from springtail.models._llamacpp._subjects import providers
from springtail.models._llamacpp._values import (
    defaults,
    invented,
    made_up,
    named_choices,
    normal,
    shape,
    unnamed_filters,
    uses,
)
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = [
    "DEFAULT_RULES",
    "CallShare",
    "FollowUpCallFloor",
    "MadeUpValues",
    "PlanLimit",
    "RepeatAsProse",
    "Rule",
    "UnknownToolAsProse",
    "UnusedValuesAskMore",
    "ValueFitsElsewhere",
    "unused_values",
]


class Rule:
    """A rule answers one of the policy's questions and passes (``None``) on the others."""

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """How the next reply may open, or ``None`` to pass."""
        return None

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """What to do with a line the model wrote, or ``None`` to pass."""
        return None

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next | None:
        """Whether another line follows, or ``None`` to pass."""
        return None


def literal_arguments(line: PlanLine) -> dict[str, Any]:
    """A line's arguments that are values the model wrote (not earlier results)."""
    return {name: value for name, value in line.arguments if not isinstance(value, Ref | Template)}


def _schema(tools: Sequence[ToolDefinition], name: str) -> Mapping[str, Any] | None:
    return next((d.input_schema for d in tools if d.name == name), None)


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
    """

    threshold: float = 0.3

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """The share decides a request's first reply (a follow-up's is another rule's)."""
        if view.follow_up or view.has_results:
            return None
        return ByShare(self.threshold)


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
    and asking again costs a round.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """A retry or prose for a first line that repeats a call, the plan's end for a later one."""
        if line.refs or not view.repeats(line.tool, literal_arguments(line)):
            return None
        if written:
            return Drop()
        unused = unused_values(view, (line,), tools)
        # Values of the request no call has carried yet: the plan missed a step, which the
        # model meant to take when it opened a call again ("... and send Sam the yen price").
        return Retry(line.tool, unused) if unused else Prose(without_tools=True)


def line_carries(
    line: PlanLine, wanted: frozenset[str], schema: Mapping[str, Any] | None
) -> set[str]:
    """The values of ``wanted`` a line carries: written, or as a default it leaves as it is."""
    carried = uses(literal_arguments(line), wanted, schema)
    return carried | (defaults(dict(line.arguments), schema) & wanted)


def request_wanted(view: TurnView, tools: Sequence[ToolDefinition]) -> frozenset[str]:
    """The values the request gives its calls, with the tools' enum choices it names.

    Its own values are ``RequestValues.wanted``; "a checkup and a
    consultation" also names two choices of a ``visit_type`` (``named_choices``).
    A choice that is a word of a tool's name is left out: there the request
    names the tool.
    """
    choices = named_choices(view.request, [d.input_schema for d in tools])
    # A choice that is also a word of a tool's name is the request's verb for that tool
    # ("add that as a to-do" names ``todo_add``, not ``calculate``'s ``add``).
    verbs = frozenset().union(*(name_words(d.name) for d in tools))
    return view.values.wanted | (choices - verbs)


def unused_values(
    view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
) -> frozenset[str]:
    """The request's values (``request_wanted``) that no call of this turn carries.

    Counted over the calls made since the request, the plan's lines and ``written``.
    """
    wanted = request_wanted(view, tools)
    if not wanted:
        return frozenset()
    used: set[str] = set()
    for name, arguments in view.call_arguments():
        used |= uses(arguments, wanted, _schema(tools, name))
        used |= defaults(arguments, _schema(tools, name)) & wanted
    planned = view.plan.plan.lines if view.plan.plan is not None else ()
    for line in (*planned, *written):
        used |= line_carries(line, wanted, _schema(tools, line.tool))
    return wanted - used


@dataclass(frozen=True)
class UnusedValuesAskMore(Rule):
    """While the request gives values that no line carries, another line follows and carries one.

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
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """After results, an offer that must carry an id, date or name no call carried yet."""
        if not view.has_results:
            return None
        unused = frozenset(v for v in unused_values(view, (), tools) if shape(v) != "number")
        return Offer(tuple(tools), unused) if unused else None

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next | None:
        """``More`` with the values no call carries yet, in a turn's first plan; else pass.

        After results, the offer above asks for the values left, once per
        plan: a line that does not carry one ends the plan.
        """
        if view.has_results:
            return None
        unused = unused_values(view, written, tools)
        return More(unused) if unused else None


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
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Retry`` without the line's tool when a value fits only another tool's parameter."""
        schema = _schema(tools, line.tool)
        properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
        for name, value in literal_arguments(line).items():
            if not isinstance(value, str):
                continue
            text = normal(value)
            if text not in view.values.literals or shape(text) == "number":
                continue
            if not any(c.isdigit() for c in text) or _fits(text, properties.get(name)):
                continue
            elsewhere = {
                (other.name, parameter)
                for other in tools
                if other.name != line.tool
                for parameter, spec in (other.input_schema.get("properties") or {}).items()
                if _fits(text, spec)
            }
            if elsewhere and all(parameter != name for _, parameter in elsewhere):
                takers = frozenset(tool for tool, _ in elsewhere)
                return Retry(line.tool, frozenset({text}), only=takers)
        return None


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
    return example is not None and _signature(example) == _signature(value)


def _signature(value: str) -> str:
    """An id's letters as written and its digits as runs: ``P-101`` is ``P-9``, not ``D-9``."""
    return re.sub(r"\d+", "9", value.strip().upper())


@dataclass(frozen=True)
class MadeUpValues(Rule):
    """Values with digits that appear nowhere in the conversation were invented, not read.

    A first line made only of such values means no tool was needed: "How
    many minutes are there in a day?" became
    ``days_between("2023-04-01", "2023-04-02")``. The reply is then prose,
    written from the prompt without the tools (with them the model describes
    the call it meant to make). A first line that reads some values and
    invents others is a step taken too early ("Book Tom Becker in with Dr.
    Haddad (D-2)" became a booking for a patient id nobody gave): the plan
    starts again without that tool (the policy says ``Retry``), so the
    first line looks the value up; a retried line that invents again is
    answered in prose.

    An argument whose text is the request itself (``add_note(text="Copy my
    groceries note …")``) was not read either: the note's text is a step
    away.

    A chain starts from what the request gives: a first line made only of
    invented values while the request names something no line carries
    ("Cancel Maria Gonzalez's next appointment" became
    ``cancel_appointment(appointment_id="A-501")``, the schema's example) is
    written again without its tool and must carry one of those values. A
    first line that invents a value the tools can give (``doctor_id="D-1"``
    for "our cardiologist") is written again with only the tools whose
    words match that parameter's (``_subjects.providers``: the tool that
    lists doctors with their ids). So is a first line of only invented
    texts when the request names nothing to carry, if a tool gives them
    ("Please drop the team sync from my calendar" wrote
    ``cancel_event(event_id="12345")``: the tool that finds events comes
    first); invented numbers there are a computation nobody asked for, and
    the reply is prose.

    A later line with such a value either computed it ahead or filled a slot
    the request gave no value for. When the line also carries a request value
    no earlier line carries, the request asked for it and the model computed
    ahead ("12 times 12, and what percentage is that of 576?" went on to
    ``percentage(part=144, total=576)``): the line waits for the line before
    it, whose result the value becomes. It waits too when it is a step of a
    chain (it takes an earlier result) and the line before gives that value
    (``patient_share(price=r1, coverage_percent=0.8)`` after a patient's
    record), or when its invented text names what the line before looked up
    (``todo_add(title="Call C-102 back")`` after customer C-102's lookup: the
    title is about the customer). A chain step whose value another tool
    gives, not yet called, is written again with only those tools (the step
    between). Otherwise the step was invented ("How many units of SKU-200
    are left?" went on to ``product_reserve(sku="SKU-200", quantity=10)``)
    and the plan ends before it. A variable is a result, not an invention.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """Prose for an invented first line; a wait or the plan's end for a later one."""
        arguments, schema = literal_arguments(line), _schema(tools, line.tool)
        made_alone = invented(arguments, view.known, schema)
        made = made_alone | _parroted(arguments, view.request)
        if not made:
            # A filter the conversation never asked for is a choice made up: it is left out.
            unasked = unnamed_filters(arguments, schema, view.known.text)
            return Keep(defaults=unasked) if unasked else None
        if not written and len(tools) < 2:
            return Prose(without_tools=True)
        # A text that repeats the request names no subject a tool gives ("Copy my groceries
        # note into a new note" as the new note's text): only invented values say which tool
        # to call first.
        given = _given(line, tools, made_alone)
        if not written and made_up(arguments, view.known, schema):
            unused = unused_values(view, (line,), tools)
            if unused:
                return Retry(line.tool, unused)
            # A text no one gave (an id, not a computed number) that a tool can look up:
            # the chain starts there ("drop the team sync" wrote event_id="12345").
            looked_up = given and _all_text(made_alone, schema)
            return Retry(line.tool, only=given) if looked_up else Prose(without_tools=True)
        if not written:
            return Retry(line.tool, only=given)
        before = written[-1]
        if (
            _adds_request_values(view, line, written, tools)
            or (line.refs and before.tool in given)
            or _names_key(arguments, made, before)
        ):
            return Wait(made)
        between = given - {w.tool for w in written}
        if line.refs and between:
            return Retry(line.tool, only=between)
        return Drop()


def _given(line: PlanLine, tools: Sequence[ToolDefinition], made: frozenset[str]) -> frozenset[str]:
    """The tools that give every invented argument of ``line`` (by their words), if any."""
    properties: Mapping[str, Any] = (_schema(tools, line.tool) or {}).get("properties") or {}
    found: frozenset[str] | None = None
    for name in made:
        tools_for = providers(name, properties.get(name), tools, besides=line.tool)
        found = tools_for if found is None else found & tools_for
    return found or frozenset()


def _all_text(names: frozenset[str], schema: Mapping[str, Any] | None) -> bool:
    """Whether every parameter in ``names`` takes a string (an id or a name, not a number)."""
    properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
    return bool(names) and all(
        (properties.get(name) or {}).get("type") == "string" for name in names
    )


def _names_key(arguments: Mapping[str, Any], made: frozenset[str], before: PlanLine) -> bool:
    """Whether an invented text holds an id the line before looked up (a text about it)."""
    keys = {
        normal(v)
        for v in literal_arguments(before).values()
        if isinstance(v, str) and any(c.isdigit() for c in v) and shape(normal(v)) != "number"
    }
    return any(
        isinstance(arguments.get(name), str) and any(k in normal(arguments[name]) for k in keys)
        for name in made
    )


def _parroted(arguments: Mapping[str, Any], request: str) -> frozenset[str]:
    """The arguments whose text is the request itself: a placeholder, not a value read.

    "Copy my groceries note into a new note called 'Sunday shopping'" became
    ``add_note(title="Sunday shopping", text="Copy my groceries note …")``.
    """
    said = " ".join(request.lower().split())
    if len(said) < 20:
        return frozenset()
    return frozenset(
        name
        for name, value in arguments.items()
        if isinstance(value, str)
        and len(" ".join(value.lower().split())) >= 0.8 * len(said)
        and " ".join(value.lower().split()) in said
    )


def _adds_request_values(
    view: TurnView, line: PlanLine, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
) -> bool:
    """Whether ``line`` carries a value of the request that no earlier line carries."""
    request = view.values.literals
    earlier: set[str] = set()
    for other in written:
        earlier |= uses(literal_arguments(other), request, _schema(tools, other.tool))
    carried = uses(literal_arguments(line), request, _schema(tools, line.tool))
    return bool(carried - earlier)


def name_words(name: str) -> frozenset[str]:
    """A tool name's words of three letters or more (``product_list``: product, list)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return frozenset(w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if len(w) >= 3)


DEFAULT_RULES: tuple[Rule, ...] = (
    PlanLimit(),
    CallShare(),
    FollowUpCallFloor(),
    UnknownToolAsProse(),
    RepeatAsProse(),
    ValueFitsElsewhere(),
    MadeUpValues(),
    UnusedValuesAskMore(),
)
"""``SmallModelPolicy``'s rules, in the order they are asked."""
