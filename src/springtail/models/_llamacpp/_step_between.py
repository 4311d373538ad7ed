"""A line whose variable's result holds no value for it: a step between comes first.

"Call off Kenji Sato's appointment." found the patient, then planned
``cancel_appointment(appointment_id=r1)``: r1 holds the patient's id
(``P-104``), no appointment id (``A-501``'s shape). The write-out found
nothing to read there and dropped the call, and the answer claimed the
appointment was cancelled (twenty-third pass, docs/embedded-model.md). The
value is one another tool gives: the tools whose words match the
parameter's (``_subjects.providers``: the one that lists a patient's
appointments "with their ids"). The line is written again with only those
tools, and comes back after that step, taking its result. A line the first
plan wrote beside the step it reads (``send_message(to=r1, …)`` after a
patient search) meets the same gap only once that result is in: the next
reply then opens with those tools offered, the line waiting for them
(twenty-fourth pass).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.models._llamacpp._binding import unread_arguments
from springtail.models._llamacpp._decisions import Offer, Opening, Retry, Review
from springtail.models._llamacpp._plan import PlanLine
from springtail.models._llamacpp._rule import Rule, tool_schema
from springtail.models._llamacpp._subjects import providers
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["StepBetweenFirst"]


@dataclass(frozen=True)
class StepBetweenFirst(Rule):
    """A value no result read holds is looked up by the tool that gives it, before the line.

    Only a result that has answered is read: a variable of the same plan
    has nothing to read yet. No tool giving the value leaves the line to
    the write-out, which drops it.
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """After results, an offer of the tools that give what a ready line cannot read.

        The plan wrote ``send_message(to=r1, …)`` beside the patient search
        whose result (r1) holds no address: the write-out would drop it, and
        no message went out ("E-mail Lena Novak that her lab results are
        in."). The record's lookup comes first, and the line comes back
        taking its result. A tool this turn called already is no giver: its
        result is in, and did not hold it.
        """
        if not view.has_results:
            return None
        called = view.called()
        for line in view.plan.ready():
            schema = tool_schema(tools, line.tool)
            unread = unread_arguments(line.arguments, view.plan.results, view.request, schema)
            given = _givers(unread, schema, tools, line.tool) - called
            if given:
                offered = tuple(d for d in tools if d.name in given)
                return Offer(offered, waiting=line, looked_up=unread)
        return None

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """A retry among the tools that give the unread values, the line coming back after."""
        schema = tool_schema(tools, line.tool)
        unread = unread_arguments(line.arguments, view.plan.results, view.request, schema)
        if not unread:
            return None
        given = _givers(unread, schema, tools, line.tool) - {w.tool for w in written}
        if not given:
            return None
        return Retry(line.tool, only=given, looked_up=unread)


def _givers(
    unread: frozenset[str], schema: Any, tools: Sequence[ToolDefinition], tool: str
) -> frozenset[str]:
    """The tools (besides ``tool``) whose words match every one of the unread parameters."""
    properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
    given: frozenset[str] | None = None
    for name in sorted(unread):
        tools_for = providers(name, properties.get(name), tools, besides=tool)
        given = tools_for if given is None else given & tools_for
    return given or frozenset()
