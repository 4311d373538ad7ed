"""The Wilson score interval: a 95 % interval for a pass rate that behaves at 0 and n.

A sample of 40 requests gives a rate, not the rate; the interval says how far
the next sample's figure may fall, and two figures whose intervals overlap
widely are not a difference. Wilson's interval stays inside [0, 1] and is
not empty at k = 0 or k = n, where the normal approximation fails.
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson"]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` passes in ``n`` trials, as fractions.

    ``n == 0`` gives ``(0.0, 1.0)``: no data, no knowledge.

    Raises:
        ValueError: ``n`` is negative or ``k`` is outside ``[0, n]``.
    """
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"wilson needs 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return (low, high)
