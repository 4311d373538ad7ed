"""bench/matrix/_interval.py: the Wilson interval every matrix figure is reported with."""

from __future__ import annotations

import pytest
from bench.matrix._interval import interval, rate


def test_the_interval_matches_published_values() -> None:
    # Newcombe (1998), table I: 81/263 gives 0.2553 to 0.3662.
    low, high = interval(81, 263)
    assert low == pytest.approx(0.2553, abs=5e-4)
    assert high == pytest.approx(0.3662, abs=5e-4)
    # 15/148: 0.0624 to 0.1605.
    low, high = interval(15, 148)
    assert low == pytest.approx(0.0624, abs=5e-4)
    assert high == pytest.approx(0.1605, abs=5e-4)


def test_the_ends_stay_inside_zero_and_one_and_are_not_empty() -> None:
    low, high = interval(0, 10)
    assert low == 0.0
    assert 0.25 < high < 0.35
    low, high = interval(10, 10)
    assert high == 1.0
    assert 0.65 < low < 0.75
    assert interval(0, 0) == (0.0, 1.0)


def test_the_interval_narrows_with_more_requests_and_holds_the_rate() -> None:
    small = interval(8, 10)
    large = interval(80, 100)
    assert small[0] < 0.8 < small[1]
    assert large[0] < 0.8 < large[1]
    assert large[1] - large[0] < small[1] - small[0]


def test_a_count_that_is_no_count_is_refused() -> None:
    for passed, total in ((3, 2), (-1, 4), (0, -1)):
        with pytest.raises(ValueError, match="not a count"):
            interval(passed, total)


def test_a_rate_reads_as_count_share_and_interval() -> None:
    assert rate(48, 56) == "48/56 = 86% [74–93%]"
    assert rate(0, 0) == "0/0"
