"""An experiment of the twentieth pass: a search that found nothing looks elsewhere (issue 21).

Measured on the held-out half and the probe sets, it moved calls closer
without passing a request more (docs/embedded-model.md, "Twentieth pass"),
so it lives here, where ``--policy with:EmptySearchLooksElsewhere``
measures it again: after every search a turn called found nothing (an
empty JSON list or object), the next reply calls a search it did not try
("What's the wifi password?" searched the events, not the notes). Its
sibling S, a first line's invented texts searched for where the request
names a thing, is in ``MadeUpValues`` since the twenty-first pass, with its
search held to the things named.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from springtail.models._llamacpp import Offer, Opening, Rule, TurnView
from springtail.models._llamacpp._searched import searches
from springtail.tools._definition import ToolDefinition

__all__ = ["EmptySearchLooksElsewhere"]


@dataclass(frozen=True)
class EmptySearchLooksElsewhere(Rule):
    """E: a search that found nothing, where another search is offered, is not the answer.

    Asked "What's the wifi password?", the model searched the calendar's
    events (``find_events(query="wifi password")``), got ``[]`` and answered
    that there is no such password; the notes' search was never tried. When
    every search this turn called answered an empty JSON list or object, and
    a search is offered that it did not call, the next reply is a call to
    one of those: the model writes its query.
    """

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        """An offer of the searches not yet called, when those called found nothing."""
        offered = searches(tools)
        results = [r for r in view.plan.results.values() if r.tool in offered and not r.is_error]
        if not results or not all(_empty(r.data) for r in results):
            return None
        tried = {r.tool for r in results}
        others = tuple(d for d in tools if d.name in offered - tried)
        return Offer(others) if others else None


def _empty(result: str) -> bool:
    """Whether a result is an empty JSON list or object: a search that found nothing."""
    try:
        return bool(json.loads(result) in ([], {}))
    except ValueError:
        return False
