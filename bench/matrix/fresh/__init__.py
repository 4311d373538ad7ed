# fresh held-out half: do not read while tuning
"""The matrix's fresh half (issue 54): requests written before its design changes, hidden.

One module per tool set, the team's four and the tool sets from elsewhere. The runner
never prints a fresh turn's request, calls or answer (not even with ``--show-held-out``),
and ``--output`` keeps only its ids, kind and pass or fail: whoever tunes the embedded
model must never read these cases or their misses, only count them.
"""

from __future__ import annotations

from bench.matrix._cases import Case
from bench.matrix.fresh import _calendar, _clinic, _orders, _shop

__all__ = ["FRESH"]

FRESH: dict[str, tuple[Case, ...]] = {
    "support-bot": _shop.CASES,
    "calendar": _calendar.CASES,
    "orders": _orders.CASES,
    "clinic": _clinic.CASES,
}
"""The team tool sets' fresh cases by tool set name (the other sets hold their own)."""
