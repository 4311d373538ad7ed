"""The score table: passed/total, percent and the Wilson 95 % interval per category."""

from __future__ import annotations

from collections.abc import Sequence

from bench.bfcl._runner import Outcome
from bench.bfcl._wilson import wilson

__all__ = ["summary", "table"]


def summary(outcomes: Sequence[Outcome]) -> dict[str, dict[str, float | int]]:
    """Per category (in the order first seen): passed, total, percent and the interval."""
    counts: dict[str, list[int]] = {}
    for o in outcomes:
        k_n = counts.setdefault(o.category, [0, 0])
        k_n[0] += int(o.passed)
        k_n[1] += 1
    out: dict[str, dict[str, float | int]] = {}
    for category, (k, n) in counts.items():
        low, high = wilson(k, n)
        out[category] = {
            "passed": k,
            "total": n,
            "percent": round(100 * k / n, 1) if n else 0.0,
            "ci95_low": round(100 * low, 1),
            "ci95_high": round(100 * high, 1),
        }
    return out


def table(outcomes: Sequence[Outcome]) -> str:
    """The summary as aligned text, one category a line."""
    lines = [f"{'category':24} {'passed':>9} {'percent':>8}  95% interval"]
    for category, s in summary(outcomes).items():
        lines.append(
            f"{category:24} {s['passed']:>4}/{s['total']:<4} {s['percent']:>7.1f}%  "
            f"[{s['ci95_low']:.1f}, {s['ci95_high']:.1f}]"
        )
    return "\n".join(lines)
