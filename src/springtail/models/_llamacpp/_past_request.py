"""The rules that cut a plan where it goes past the request.

A 1.5B model that has written every step the request asks for often writes
one more: it combines results nobody asked to combine, looks around before
a step, looks at what a step just did, or acts on what the request only
asked about. Each rule here reads only the request, the tools' schemas and
the plan's own lines; none names an application's tools or words. The
measurement behind each is in ``docs/embedded-model.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from springtail.models._llamacpp._decisions import Drop, Keep, Prose, Retry, Review
from springtail.models._llamacpp._plan import PlanLine
from springtail.models._llamacpp._rule import (
    Rule,
    acts,
    asked_part,
    line_carries,
    literal_arguments,
    request_wanted,
    tool_schema,
    unused_values,
)
from springtail.models._llamacpp._subjects import named_families, named_tools, tool_words, words
from springtail.models._llamacpp._values import literals, normal
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["CombinedResultsEnd", "LookAfterActGoes", "StrayLineGoes", "UnaskedActGoes"]


@dataclass(frozen=True)
class CombinedResultsEnd(Rule):
    """A line that combines earlier results nobody asked to combine ends the plan.

    "Two quotes to price up: 2,750 with 18% off, and 880 with 25% off. Also,
    I need 1,234 times 56, plus 9,000 divided by 16." wrote its four asked
    lines, then ``percentage(part=r3, total=r4)`` and additions of the
    results. The model's own next-line share does not part such lines from
    needed ones (0.52-0.93 against 0.73 and up), so the line is read
    instead: once every request value is carried, a line that takes
    ``least_results`` or more earlier results and writes no value with
    digits of its own, whose tool no word of the request speaks of or the
    turn already took, was not asked for. A needed last step of a chain
    takes one result (``cancel_event(event_id=r1)`` for "Please drop the
    team sync", whose words are not the tool's): with ``least_results=1``
    it was dropped too (tenth pass, ``ResultsOnlyLineEnds`` in bench), so
    the rule waits for two (eleventh pass, docs/embedded-model.md).
    """

    least_results: int = 2

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Drop`` for a line of results nobody asked to combine; else pass."""
        if len(line.refs) < max(self.least_results, 1) or unused_values(view, written, tools):
            return None
        if any(any(c.isdigit() for c in str(v)) for v in literal_arguments(line).values()):
            return None  # a value of its own ("times 12 again" repeats a carried 12)
        own = next((tool_words(d) for d in tools if d.name == line.tool), frozenset())
        said = own & words(view.request)
        return Drop() if not said or line.tool in view.taken(written) else None


@dataclass(frozen=True)
class StrayLineGoes(Rule):
    """An earlier line that takes nothing from the request and gives nothing to a line goes.

    "Reserve every SKU-300 we still have" was planned as ``product_list()``,
    ``product_lookup(sku="SKU-300")`` and the reservation: the list carries
    no value of the request, no line takes its result, and the request does
    not name it by a word of its name (``_subjects.named_tools``; twelfth
    pass). Its description's words are not read: "with its SKU" in the
    list's would match the SKU-300 of the request. Once a later line
    carries a value of the request and does not take that earlier line's
    result either, the earlier line was a look around before the step, not
    a step. A request that names the tool ("List our products and reserve
    …"), a line whose result a later line takes (``today()`` before
    ``weekday(day=r1)``) and a plan none of whose lines carries a request
    value stay as written.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Keep`` without the stray earlier lines, once this line carries a request value."""
        if not written:
            return None
        wanted = request_wanted(view, tools)
        if not line_carries(line, wanted, tool_schema(tools, line.tool)):
            return None
        taken = set(line.refs).union(*(w.refs for w in written))
        named = named_tools(view.request, tools)
        stray = frozenset(
            w.variable
            for w in written
            if not w.refs
            and w.variable not in taken
            and w.tool not in named
            and not line_carries(w, wanted, tool_schema(tools, w.tool))
        )
        return Keep(instead_of=stray) if stray else None


@dataclass(frozen=True)
class LookAfterActGoes(Rule):
    """A line that only looks at what an earlier step did, which the request never asked, goes.

    "Order 5 of SKU-9 for Dana Cruz and message Sam the order number" was
    planned as ``create_order(...)``, ``order_status(order_id=r1)`` and the
    message; "Order SKU-5 for Carla Mendes … as many as we sell in an
    average week" ended with ``order_status(order_id=r2)``. Such a line
    takes only earlier results (as a variable, or a value copied out of a
    result: ``order_id="O-1001"`` after the order was placed) and carries
    nothing of the request. After a step that acts (its tool needs two
    values or more), it looks past the request, unless a word of the
    request names its tool and no tool whose result it takes ("… and tell
    me its status" names ``order_status``; "order" names both). After a
    search or a lookup (a tool that needs one value or none) the next step
    on its result is the point of the search (``cancel_event(event_id=r1)``
    after ``find_events`` for "Please drop the team sync"), so it stands.
    The model's own next-line share does not part these lines from needed
    ones (0.54-0.92; fourteenth pass), and the request's words alone do
    not either.

    Values the request gives that no line carries yet are asked for in the
    line's place (``Retry``: the message to Sam); otherwise the plan ends
    before it, and a first line after results is the answer.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Retry`` for the request values still unused, else the plan's end; or pass."""
        if not line.refs and not view.plan.results:
            return None  # a line of a first plan that takes no variable takes no result
        if asked_part(view, line, tools):
            return None  # "…, and tell me where it stands": the look is asked for
        if line_carries(line, request_wanted(view, tools), tool_schema(tools, line.tool)):
            return None
        taken = _taken_from(view, line, written)
        if not taken or not all(acts(tools, name) for name in taken):
            return None
        for group in named_families(view.request, tools).values():
            if line.tool in group and not group & taken:
                return None
        unused = unused_values(view, written, tools)
        if unused:
            return Retry(line.tool, unused)
        return Drop() if written else Prose(without_tools=True)


@dataclass(frozen=True)
class UnaskedActGoes(Rule):
    """A step that acts on what the request asked about, which it never asked to act on, goes.

    "What would all our SKU-100 stock come to at 25 each, with 10% off the
    total?" was planned as the product, the total, the discount and then
    ``product_reserve(sku="SKU-100", quantity=r4)``: 270 units reserved for
    a question. Such a line takes an earlier result, writes only values of
    the request that earlier lines or calls of the turn carry (the SKU),
    and its tool acts (it needs two values or more) while no word of the
    request names it ("Reserve every SKU-300 we still have" names
    ``product_reserve``, and the reservation stands). A step that writes a
    value of the request no line carries yet is asked for; one that takes
    no result is another rule's (a value it wrote is its own or invented).
    It does not run: the plan ends before it, and a first line after
    results gives way to the answer (sixteenth pass).
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Drop`` (or the answer after results) for an act nobody asked for; else pass."""
        if not line.refs or not (written or view.plan.results) or asked_part(view, line, tools):
            return None
        # With no request value left unused, every value the line carries is one an earlier
        # line or call carries already.
        if not acts(tools, line.tool) or unused_values(view, written, tools):
            return None
        wanted = request_wanted(view, tools)
        if not line_carries(line, wanted, tool_schema(tools, line.tool)):
            return None
        if line.tool in named_tools(view.request, tools):
            return None
        return Drop() if written else Prose(without_tools=True)


def _taken_from(
    view: TurnView, line: PlanLine, written: Sequence[PlanLine]
) -> frozenset[str] | None:
    """The tools whose results are all a line takes, or ``None`` when it writes a value of its own.

    A variable names the line (or the call) that gives it; a literal value
    must be one a result of this turn writes (``_values.literals``: whole,
    not the ``1`` inside ``O-1001``) and the request does not.
    """
    planned = view.plan.plan.lines if view.plan.plan is not None else ()
    sources = {w.variable: w.tool for w in (*planned, *written)}
    sources.update({v: r.tool for v, r in view.plan.results.items()})
    if any(ref not in sources for ref in line.refs):
        return None
    taken = {sources[ref] for ref in line.refs}
    for value in literal_arguments(line).values():
        text = normal(value)
        if not text or text in view.values.literals:
            return None
        givers = {
            r.tool
            for r in view.plan.results.values()
            if not r.is_error and text in literals(r.data)
        }
        if not givers:
            return None
        taken |= givers
    return frozenset(taken)
