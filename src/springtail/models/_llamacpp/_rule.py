"""The base every small-model rule extends.

A rule answers one of the policy's three questions (``_policy.py``) or passes
by returning ``None``. Rules read structure only: the plan's lines, the
calls this turn made, the tools' schemas and the model's own probabilities;
never the words of the user's request (``tests/test_models_llamacpp_no_phrasing.py``
fails if a word list or a regex over the request comes back).
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail.models._llamacpp._decisions import Next, Opening, Review
from springtail.models._llamacpp._plan import PlanLine
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["Rule"]


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
