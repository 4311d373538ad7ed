"""A line whose variable's result holds no value for it: a step between comes first.

"Call off Kenji Sato's appointment." found the patient, then planned
``cancel_appointment(appointment_id=r1)``: r1 holds the patient's id
(``P-104``), no appointment id (``A-501``'s shape). The write-out found
nothing to read there and dropped the call, and the answer claimed the
appointment was cancelled (twenty-third pass, docs/embedded-model.md). The
value is one another tool gives: the tools whose words match the
parameter's (``_subjects.providers``: the one that lists a patient's
appointments "with their ids"). The line is written again with only those
tools, and comes back after that step, taking its result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.models._llamacpp._binding import unread_arguments
from springtail.models._llamacpp._decisions import Retry, Review
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
        properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
        given: frozenset[str] | None = None
        for name in sorted(unread):
            tools_for = providers(name, properties.get(name), tools, besides=line.tool)
            given = tools_for if given is None else given & tools_for
        given = (given or frozenset()) - {w.tool for w in written}
        if not given:
            return None
        return Retry(line.tool, only=given, looked_up=unread)
