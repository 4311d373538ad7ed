"""Twenty-second pass: the line under a part with no value, written whatever the share.

``BareStepAsked`` (a default rule, ``_llamacpp/_bare_step.py``) writes such a
part as a note and lets the model's next token decide. Forced instead, the
probe requests got the same lines: the rule keeps the model's decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from springtail.models._llamacpp import BareStepAsked, Decide, More, Next, PlanLine, TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["BareStepForced"]


@dataclass(frozen=True)
class BareStepForced(BareStepAsked):
    """``BareStepAsked`` with ``More(note=…)``: the line is written under the part."""

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next | None:
        """``More(note=part)`` where the default rule asks the model."""
        decision = super().next(view, written, tools)
        return More(note=decision.note) if isinstance(decision, Decide) else decision
