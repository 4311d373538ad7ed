"""An experiment of the twenty-first pass: a number an aggregate took is not its result (issue 21).

"Order SKU-5 for Carla Mendes by express, as many as we sell in an average
week; the last four weeks were 14, 18, 22 and 26." was planned as
``average(numbers=[14, 18, 22, 26])``, then ``create_order(…, quantity=14)``:
the order took the first of the numbers the average was for, not the
average. Measured here first (``--policy with:AggregateInputWaits``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from springtail.models._llamacpp import PlanLine, Review, Rule, TurnView, Wait
from springtail.models._llamacpp._rule import literal_arguments
from springtail.models._llamacpp._values import normal
from springtail.tools._definition import ToolDefinition

__all__ = ["AggregateInputWaits", "aggregated_numbers"]


def aggregated_numbers(line: PlanLine) -> frozenset[str]:
    """The numbers a line takes two or more at a time in one list argument (``[14, 18, 22]``)."""
    return frozenset(n for v in literal_arguments(line).values() for n in _number_list(v))


def _number_list(value: object) -> list[str]:
    """A list argument's numbers when it is two numbers or more and nothing else."""
    if not isinstance(value, list) or len(value) < 2 or not all(map(_is_number, value)):
        return []
    return [normal(v) for v in value]


@dataclass(frozen=True)
class AggregateInputWaits(Rule):
    """A line writing alone one of the numbers the line before took as a list waits for it.

    The line before aggregates (an average, a sum of a list) and no line takes
    its result; the new line writes one of its inputs by itself, where the
    request asks for what the aggregate gives. The line waits for that
    result (``Wait``), and the model writes the argument having read it.
    Two lines that each take a list ("the average of 3, 4 and 5, and their
    sum") are left alone, as is a line that takes the aggregate's result.
    """

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """``Wait`` on the arguments holding a lone input of the line before's aggregate."""
        if not written or written[-1].variable in line.refs:
            return None
        inputs = aggregated_numbers(written[-1])
        if not inputs or any(written[-1].variable in w.refs for w in written):
            return None
        waiting = frozenset(
            name
            for name, value in literal_arguments(line).items()
            if not _number_list(value)
            and any(_is_number(v) and normal(v) in inputs for v in _leaves(value))
        )
        return Wait(waiting) if waiting else None


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _leaves(value: object) -> list[object]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]
