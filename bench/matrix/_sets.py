"""The matrix's tool sets, in the order they run (each set's cases share one prompt prefix)."""

from __future__ import annotations

from dataclasses import replace

from bench.matrix._calendar import CALENDAR
from bench.matrix._clinic import CLINIC
from bench.matrix._orders import ORDERS
from bench.matrix._shop import SHOP
from bench.matrix.probe import PROBE

__all__ = ["TOOL_SETS"]

TOOL_SETS = tuple(
    replace(t, cases=t.cases + PROBE[t.name]) for t in (SHOP, CALENDAR, ORDERS, CLINIC)
)
