"""The base every small-model rule extends, and the readings several rules share.

A rule reads a plan line (the values the model wrote, the request values it
carries) and the request (the values it gives, those no call carries yet);
``_rules.py`` and ``_made_up.py`` both read them, so they live here, below
both, and each reading is written once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from springtail.models._llamacpp._clauses import held_values
from springtail.models._llamacpp._decisions import Next, Opening, Review
from springtail.models._llamacpp._plan import PlanLine, Ref, Template
from springtail.models._llamacpp._plan_grammar import takes_free_text
from springtail.models._llamacpp._stubs import id_example
from springtail.models._llamacpp._subjects import named_families, tool_words
from springtail.models._llamacpp._values import defaults, named_choices, uses
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = [
    "Rule",
    "acts",
    "asked_part",
    "line_carries",
    "literal_arguments",
    "literal_specs",
    "name_words",
    "request_wanted",
    "searches_by_text",
    "takes_id",
    "tool_schema",
    "unnamed_steps",
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


def literal_specs(line: PlanLine, tools: Sequence[ToolDefinition]) -> list[tuple[str, Any, Any]]:
    """A line's literal arguments, each with its parameter's schema (``None`` when unknown)."""
    properties = (tool_schema(tools, line.tool) or {}).get("properties") or {}
    return [(name, value, properties.get(name)) for name, value in literal_arguments(line).items()]


def tool_schema(tools: Sequence[ToolDefinition], name: str) -> Mapping[str, Any] | None:
    """The input schema of the tool called ``name`` among ``tools``, or ``None``."""
    return next((d.input_schema for d in tools if d.name == name), None)


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
        used |= uses(arguments, wanted, tool_schema(tools, name))
        used |= defaults(arguments, tool_schema(tools, name)) & wanted
    planned = view.plan.plan.lines if view.plan.plan is not None else ()
    for line in (*planned, *written):
        used |= line_carries(line, wanted, tool_schema(tools, line.tool))
    return wanted - used


def unnamed_steps(
    view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
) -> frozenset[str]:
    """The tools the request names by a word of their names that no call of the turn speaks of.

    "For a 3 kg box to Norway, what's the average of the economy and express
    shipping prices?" names ``average``; a plan of two quotes has not taken
    that step. A called tool whose name or description holds the word
    accounts for it: "What day of the week is 2026-12-25?" names
    ``days_between`` by "day", and ``weekday`` ("The day of the week of a
    date") answers it. Counted over the calls made since the request, the
    plan's lines and ``written``.
    """
    called = view.taken(written)
    spoken = frozenset().union(*(tool_words(d) for d in tools if d.name in called))
    missing: set[str] = set()
    for word, group in named_families(view.request, tools).items():
        if word not in spoken:
            missing |= group
    return frozenset(missing)


def name_words(name: str) -> frozenset[str]:
    """A tool name's words of three letters or more (``product_list``: product, list)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return frozenset(w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if len(w) >= 3)


def takes_id(name: str, spec: Any) -> bool:
    """Whether a parameter takes an id: named ``id`` or ``…_id``, or its example has digits."""
    if name.lower() == "id" or name.lower().endswith("_id"):
        return True
    return id_example(spec) is not None


def searches_by_text(tool: ToolDefinition) -> bool:
    """Whether a tool needs one free text and nothing else: a search by a word."""
    required = tool.input_schema.get("required") or []
    if len(required) != 1:
        return False
    spec = (tool.input_schema.get("properties") or {}).get(required[0])
    return takes_free_text(spec) and not takes_id(required[0], spec)


def acts(tools: Sequence[ToolDefinition], name: str) -> bool:
    """Whether a tool needs two values or more: it acts, where a search or lookup needs one."""
    return len((tool_schema(tools, name) or {}).get("required") or ()) >= 2


def asked_part(view: TurnView, line: PlanLine, tools: Sequence[ToolDefinition]) -> bool:
    """Whether a line was written under a part of the request that holds no value of its own.

    Such a part ("tell me where it stands") is a step the request asks for
    in words alone; a line under it is asked for, not a look around.
    """
    text = line.comment.removeprefix("#").strip()
    return bool(text) and not held_values(text, request_wanted(view, tools))
