"""bench/bfcl/_wilson.py: the Wilson 95 % interval against known values."""

from __future__ import annotations

import pytest
from bench.bfcl._wilson import wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),  # statsmodels proportion_confint(5, 10, method="wilson")
        (26, 40, 0.4951, 0.7787),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (89, 130, 0.6004, 0.7582),
    ],
)
def test_known_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-4)


def test_bounds_are_exact_at_zero_and_all() -> None:
    assert wilson(0, 40)[0] == 0.0
    assert wilson(40, 40)[1] == 1.0


def test_no_data_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_interval_contains_the_rate_and_narrows_with_n() -> None:
    small, large = wilson(7, 10), wilson(70, 100)
    assert small[0] < 0.7 < small[1]
    assert large[1] - large[0] < small[1] - small[0]


@pytest.mark.parametrize(("k", "n"), [(-1, 5), (6, 5), (0, -1)])
def test_rejects_impossible_counts(k: int, n: int) -> None:
    with pytest.raises(ValueError, match="0 <= k <= n"):
        wilson(k, n)
