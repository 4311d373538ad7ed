"""The matrix's tool sets, in the order they run (each set's cases share one prompt prefix)."""

from __future__ import annotations

from bench.matrix._calendar import CALENDAR
from bench.matrix._clinic import CLINIC
from bench.matrix._orders import ORDERS
from bench.matrix._shop import SHOP

__all__ = ["TOOL_SETS"]

TOOL_SETS = (SHOP, CALENDAR, ORDERS, CLINIC)
