"""A part of the request with no value of its own: the model is asked whether a line serves it.

"Place an order for Omar Diaz, 4 of SKU-2, and tell me where it stands." was
planned as the order alone: every value of the request was carried, no word
of it names ``order_status``, and the model's share for another line was
under half. "Take 20% off 450 and then double it." stopped after the
discount the same way. Written as a comment after the plan's last line
(``# double it``), the part took the model's share for another line from
under half to 0.93, and the line it wrote went under it
(``calculate(operation="multiply", left=r1, right=2)``; twenty-second pass,
docs/embedded-model.md). The model still decides: after a comment that
names no step ("# Put a to-do on my list to e-mail them" once the to-do
was written) its share stayed at 0.13-0.14 and the plan ended.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from springtail.models._llamacpp._clauses import held_values, split_clauses
from springtail.models._llamacpp._decisions import Decide, Next
from springtail.models._llamacpp._plan import PlanLine
from springtail.models._llamacpp._rule import Rule, request_wanted, unused_values
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["BareStepAsked", "bare_parts"]

_WITHIN = re.compile(
    r"^(?:and\s+)?then\s+|,\s+(?:and\s+)?(?:then\s+)?|\s+and\s+then\s+|\s+then\s+", re.IGNORECASE
)
"""Where a clause (``_clauses.split_clauses``) parts further: a comma, "and then", "then"."""


def bare_parts(request: str, wanted: frozenset[str], *, least_words: int = 2) -> list[str]:
    """The parts of ``request`` after the last one that holds a value, holding none themselves.

    A plan stops short at its end: a part with no value between two that
    hold values is one the lines written in the request's order went
    through ("A 35,000 order gets 18% off. What's the final price, and what
    percent of our 40,000 budget is that?": asked about "What's the final
    price" after both lines, the model added a subtraction). A greeting
    before the first value is no step, nor is a part of one word ("please").
    """
    pieces = (p for clause in split_clauses(request) for p in _WITHIN.split(clause))
    parts = [p for p in (p.strip(" .?!,;") for p in pieces) if p]
    valued = [i for i, part in enumerate(parts) if held_values(part, wanted)]
    if not valued:
        return []
    return [p for p in parts[valued[-1] + 1 :] if len(p.split()) >= least_words]


@dataclass(frozen=True)
class BareStepAsked(Rule):
    """Once the lines carry every value, a part with none is a note; the model decides on it.

    The note is the first part (``bare_parts``) no line was written under
    yet; the model's next token after it says whether a line follows, and
    that line goes under it. A line written under such a part is asked for:
    ``LookAfterActGoes`` and ``UnaskedActGoes`` leave it (``_rule.asked_part``).
    """

    least_words: int = 2

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next | None:
        """``Decide(note=part)`` for the first part with no value no line serves; else pass."""
        if not written or unused_values(view, written, tools):
            return None
        served = {line.comment for line in written}
        parts = bare_parts(view.request, request_wanted(view, tools), least_words=self.least_words)
        for part in parts:
            if f"# {part}" not in served:
                return Decide(note=part)
        return None
