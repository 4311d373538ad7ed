"""The Wilson score interval: how far a pass rate of k out of n can be trusted.

Every figure the matrix reports comes with its 95 % interval, because a half of a few
dozen requests moves by several points from cache state alone: a gain is only a gain
where the intervals say so. Wilson's interval, unlike the normal approximation, stays
inside [0, 1] and is not empty at 0/n or n/n.
"""

from __future__ import annotations

import math

__all__ = ["Z95", "interval", "rate"]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""


def interval(passed: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``passed`` out of ``total`` (``(0, 1)`` when none ran).

    Raises:
        ValueError: when the counts are negative or ``passed`` exceeds ``total``.
    """
    if total < 0 or passed < 0 or passed > total:
        raise ValueError(f"not a count of passes: {passed}/{total}")
    if total == 0:
        return 0.0, 1.0
    p = passed / total
    z2 = z * z
    centre = p + z2 / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total))
    denominator = 1 + z2 / total
    low = (centre - spread) / denominator
    high = (centre + spread) / denominator
    # Exact at the ends: rounding must not put 0/n above 0 or n/n below 1.
    return (0.0 if passed == 0 else max(0.0, low)), (1.0 if passed == total else min(1.0, high))


def rate(passed: int, total: int) -> str:
    """``k/n = p% [lo–hi]``, the way the report writes a figure."""
    if total == 0:
        return "0/0"
    low, high = interval(passed, total)
    return f"{passed}/{total} = {passed / total:.0%} [{low * 100:.0f}–{high:.0%}]"
