"""A plan line that calls a tool that is not offered: read as well as it can be.

The plan grammar's catch-all lets the model write a call in any shape, so
that a request no tool fits shows as such (``current_city("France")``) and
the policy can answer it in prose. One shape is a slip, not a tool: the
1.5B model glues a parameter's name onto the tool's and passes the value
by position (``patient_lookup_patient_id(r1)``, ``find_free_slotday(r1,
minutes=60)``). That line is the offered tool's call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from springtail.models._llamacpp._plan import PlanLine
from springtail.tools._definition import ToolDefinition

__all__ = ["unknown_call"]

_CALLED = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_\-]*)\s*\(")


def unknown_call(variable: str, text: str, tools: Sequence[ToolDefinition]) -> PlanLine | None:
    """The line ``text`` writes when its tool is not offered, or ``None`` when it is offered.

    A name that is an offered tool's name followed by one of that tool's
    parameters (with or without an underscore between) is that tool's call,
    its first value, written by position, going to that parameter, even
    where the line was asked among other tools: through the catch-all the
    model may name any offered tool, as a step between ("Send Tom Becker a
    text …", asked for the message, wrote ``patient_lookup_patient_id(r1)``
    after the patient search). Any other line is read for its name alone,
    as that tool's call.
    """
    called = _CALLED.match(text)
    if called is None or any(d.name == called.group(1) for d in tools):
        return None
    name = called.group(1)
    rest = text[called.end() :]
    for d in sorted(tools, key=lambda d: -len(d.name)):
        glued = name[len(d.name) :].lstrip("_") if name.startswith(d.name) else ""
        if glued and glued in (d.input_schema.get("properties") or {}):
            line = PlanLine.parse(f"{variable} = {d.name}({glued}={rest}")
            if line is not None:
                return line
    return PlanLine(variable, name, ())
