"""The score table: passed/total, percent, the Wilson 95 % interval and the time per category.

Below the table, each category's failures are counted by BFCL's error type:
"no call at all" and "a wrong value" call for different mechanisms.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence

from bench.bfcl._runner import Outcome
from bench.bfcl._wilson import wilson

__all__ = ["failures", "summary", "table"]


def _by_category(outcomes: Sequence[Outcome]) -> dict[str, list[Outcome]]:
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(o.category, []).append(o)
    return groups


def summary(outcomes: Sequence[Outcome]) -> dict[str, dict[str, float | int]]:
    """Per category (in the order first seen): passed, total, percent, interval, median s."""
    out: dict[str, dict[str, float | int]] = {}
    for category, group in _by_category(outcomes).items():
        k, n = sum(o.passed for o in group), len(group)
        low, high = wilson(k, n)
        out[category] = {
            "passed": k,
            "total": n,
            "percent": round(100 * k / n, 1),
            "ci95_low": round(100 * low, 1),
            "ci95_high": round(100 * high, 1),
            "median_seconds": round(statistics.median(o.seconds for o in group), 2),
        }
    return out


def failures(outcomes: Sequence[Outcome]) -> dict[str, dict[str, int]]:
    """Per category: how many entries failed with each BFCL error type, most first."""
    return {
        category: dict(Counter(o.error_type for o in group if not o.passed).most_common())
        for category, group in _by_category(outcomes).items()
    }


def table(outcomes: Sequence[Outcome]) -> str:
    """The summary as aligned text, one category a line, then the failures by type."""
    lines = [f"{'category':24} {'passed':>9} {'percent':>8}  {'95% interval':14} {'median s':>8}"]
    for category, s in summary(outcomes).items():
        interval = f"[{s['ci95_low']:.1f}, {s['ci95_high']:.1f}]"
        lines.append(
            f"{category:24} {s['passed']:>4}/{s['total']:<4} {s['percent']:>7.1f}%  "
            f"{interval:14} {s['median_seconds']:>8.1f}"
        )
    for category, counts in failures(outcomes).items():
        if counts:
            listed = ", ".join(f"{kind} {n}" for kind, n in counts.items())
            lines.append(f"  {category} failures: {listed}")
    return "\n".join(lines)
