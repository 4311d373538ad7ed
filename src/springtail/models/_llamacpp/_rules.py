"""The small-model rules: six general guards, each a small class answering one question.

A rule answers ``opening``, ``review`` or ``next`` (``_policy.py``) or
passes by returning ``None``; ``SmallModelPolicy`` asks its rules in order and
the first answer decides. Every rule reads structure: the model's own
probabilities (``CallShare``, ``FollowUpCallFloor``), how many plans the turn
wrote (``PlanLimit``), whether a tool exists (``UnknownToolAsProse``),
whether a call was made already (``RepeatAsProse``) and whether a value the
model wrote appears anywhere in the conversation (``UnstatedValueEnds``).
None reads the words of
the request, so each holds for any wording and any language; their
measurement is in ``docs/embedded-model.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.models._llamacpp._decisions import ByShare, Drop, Free, Opening, Prose, Review
from springtail.models._llamacpp._plan import PlanLine, Ref, Template
from springtail.models._llamacpp._rule import Rule
from springtail.models._llamacpp._values import normal
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = [
    "DEFAULT_RULES",
    "CallShare",
    "FollowUpCallFloor",
    "PlanLimit",
    "RepeatAsProse",
    "Rule",
    "UnknownToolAsProse",
    "UnstatedValueEnds",
]


@dataclass(frozen=True)
class PlanLimit(Rule):
    """A turn writes ``plans`` plans at most; then, results in, the reply is the answer.

    A plan is the request's calls; one more after results lets the model
    take a step the first plan missed. Beyond that the 1.5B model does not
    converge: each new plan is a near miss of the last. The lines a plan
    wrote still run to the end (resuming a plan is not a new one).
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

    The model spreads a call over several openings (the ``<tool_call>``
    token, a code fence, ``{"``) while one word of prose can take the top
    place; the summed share of the openings decides better than the top
    token.
    """

    threshold: float = 0.3

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold={self.threshold} must lie in (0, 1].")

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """The share decides a request's first reply (a follow-up's is another rule's)."""
        if view.follow_up or view.has_results:
            return None
        return ByShare(self.threshold)


@dataclass(frozen=True)
class FollowUpCallFloor(Rule):
    """A request that follows an answer opens with a call when calling gets ``floor`` or more.

    Shown earlier answers, the 1.5B model imitates them: requests that need
    a tool gave the call openings a far smaller share than in a fresh chat.
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
class UnknownToolAsProse(Rule):
    """A line that calls a tool that is not offered: no tool fits, so the reply is prose.

    The grammar's catch-all lets the model write such a call (forbidding it
    derailed the model); a first line like that means it wanted a tool that
    does not exist. The prose is written from the prompt without the tools:
    with them in view the model describes the call it meant. A later such
    line ends the plan before it.
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

    The model loops on its last call; the tool loop would refuse the
    repeat, and asking again costs a round. A first line that repeats is
    the answer's turn (prose without the tools); a later one ends the plan.
    So does a line identical to the one before but for the id it takes
    from that line's result (a twin: ``cancel(id=r2)`` after ``cancel(id=r1)``,
    each cancelling the last one's confirmation). A number a twin computes
    is a step and stays.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """Prose for a first line that repeats a call, the plan's end for a later one."""
        if written and _twin(line, written[-1], tools):
            return Drop()
        if line.refs or not view.repeats(line.tool, _literal_arguments(line)):
            return None
        return Drop() if written else Prose(without_tools=True)


@dataclass(frozen=True)
class UnstatedValueEnds(Rule):
    """A later line of a plan that carries a value nobody stated ends the plan before it.

    After the request's calls the 1.5B model often goes on with a call
    nobody asked for, and such a line carries a value from nowhere: a
    reservation of ``quantity=10`` after a stock lookup, a percentage of a
    ``total=180`` after a product. A value is stated when the conversation
    holds it (the system prompt, a request, a call, a result), read by
    shape: a number, or a text with a digit (an id, a date). Free text,
    enums, booleans and the schema's defaults are not read, and neither is
    a plan's first line: a first call may carry a value the model knows
    (today's date), and nothing else would answer the request.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """The plan's end for a later line with a number or an id the conversation never wrote."""
        if not written:
            return None
        schema = next((d.input_schema for d in tools if d.name == line.tool), {})
        properties: Mapping[str, Any] = schema.get("properties") or {}
        for name, value in _literal_arguments(line).items():
            spec = properties.get(name)
            if isinstance(spec, dict) and ("enum" in spec or spec.get("default") == value):
                continue
            if any(not _stated(view, v) for v in _read_values(value)):
                return Drop()
        return None


def _read_values(value: object) -> list[object]:
    """The numbers and digit-bearing texts inside an argument's JSON value."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int | float):
        return [value]
    if isinstance(value, str):
        return [value] if any(c.isdigit() for c in value) and len(value.split()) == 1 else []
    if isinstance(value, list):
        return [v for item in value for v in _read_values(item)]
    if isinstance(value, dict):
        return [v for item in value.values() for v in _read_values(item)]
    return []


def _stated(view: TurnView, value: object) -> bool:
    text = normal(value)
    if isinstance(value, int | float):
        return text in view.known.numbers
    return text in view.stated


def _literal_arguments(line: PlanLine) -> dict[str, Any]:
    return {name: value for name, value in line.arguments if not isinstance(value, Ref | Template)}


def _twin(line: PlanLine, before: PlanLine, tools: Sequence[ToolDefinition]) -> bool:
    """Whether ``line`` is ``before`` again but for string arguments taken from its result."""
    if line.tool != before.tool or len(line.arguments) != len(before.arguments):
        return False
    schema = next((d.input_schema for d in tools if d.name == line.tool), {})
    properties: Mapping[str, Any] = schema.get("properties") or {}
    differ = [
        name
        for (name, value), (other, was) in zip(line.arguments, before.arguments, strict=True)
        if name != other or value != was
    ]
    taken = {name for name, value in line.arguments if value == Ref(before.variable)}
    return bool(differ) and all(
        name in taken and _is_string(properties.get(name)) for name in differ
    )


def _is_string(spec: object) -> bool:
    return isinstance(spec, dict) and spec.get("type") == "string"


DEFAULT_RULES: tuple[Rule, ...] = (
    PlanLimit(),
    CallShare(),
    FollowUpCallFloor(),
    UnknownToolAsProse(),
    RepeatAsProse(),
    UnstatedValueEnds(),
)
"""The embedded presets' rules, in the order the policy asks them."""
