"""The matrix's tool sets, in the order they run (each set's cases share one prompt prefix).

A team tool set's cases are its development and held-out halves, then the probe, the
fresh half and the translations, appended in that order: case ids are positional, so an
earlier case's id never changes when a later part grows.
"""

from __future__ import annotations

from dataclasses import replace

from bench.matrix._calendar import CALENDAR
from bench.matrix._clinic import CLINIC
from bench.matrix._orders import ORDERS
from bench.matrix._shop import SHOP
from bench.matrix.elsewhere import ELSEWHERE
from bench.matrix.fresh import FRESH
from bench.matrix.languages import in_other_languages
from bench.matrix.probe import PROBE

__all__ = ["TEAM", "TOOL_SETS"]

TEAM = tuple(
    replace(t, cases=t.cases + PROBE[t.name] + FRESH[t.name] + in_other_languages(t.cases))
    for t in (SHOP, CALENDAR, ORDERS, CLINIC)
)
"""The four tool sets the team wrote (origin ``team``)."""

TOOL_SETS = TEAM + ELSEWHERE
"""Every tool set: the team's, then the eight from BFCL's live data (origin ``elsewhere``)."""
