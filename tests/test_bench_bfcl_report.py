"""bench/bfcl/_report.py: the per-category table, intervals and failure counts."""

from __future__ import annotations

import pytest
from bench.bfcl._report import failures, summary, table
from bench.bfcl._runner import Outcome

OUTCOMES = [
    Outcome("a1", "live_simple", True, seconds=1.0),
    Outcome("a2", "live_simple", False, "value_error:string", seconds=3.0),
    Outcome("a3", "live_simple", False, "ast_decoder:decoder_failed", seconds=2.0),
    Outcome("a4", "live_simple", False, "ast_decoder:decoder_failed", seconds=4.0),
    Outcome("b1", "irrelevance", True, seconds=0.5),
]


def test_summary_counts_rates_intervals_and_median_time() -> None:
    s = summary(OUTCOMES)
    assert list(s) == ["live_simple", "irrelevance"]  # the order first seen
    assert s["live_simple"]["passed"] == 1
    assert s["live_simple"]["total"] == 4
    assert s["live_simple"]["percent"] == 25.0
    assert s["live_simple"]["ci95_low"] == pytest.approx(4.6, abs=0.1)
    assert s["live_simple"]["ci95_high"] == pytest.approx(69.9, abs=0.1)
    assert s["live_simple"]["median_seconds"] == 2.5
    assert s["irrelevance"]["ci95_high"] == 100.0


def test_failures_are_counted_by_error_type_most_first() -> None:
    assert failures(OUTCOMES) == {
        "live_simple": {"ast_decoder:decoder_failed": 2, "value_error:string": 1},
        "irrelevance": {},
    }


def test_table_has_one_line_per_category_and_the_failures() -> None:
    lines = table(OUTCOMES).splitlines()
    assert lines[1].split() == ["live_simple", "1/4", "25.0%", "[4.6,", "69.9]", "2.5"]
    assert lines[2].split()[:3] == ["irrelevance", "1/1", "100.0%"]
    assert lines[3] == (
        "  live_simple failures: ast_decoder:decoder_failed 2, value_error:string 1"
    )
    assert len(lines) == 4
