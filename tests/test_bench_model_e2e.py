"""bench/model_e2e.py's comparison with a release: each turn against the same round's turn."""

from __future__ import annotations

from typing import Any

import pytest
from bench import model_e2e


def _rows(seconds: list[float]) -> list[dict[str, Any]]:
    # The conversation's first turn, a one-tool follow-up, a two-tool one, a one-tool one.
    shapes = [("first", ["calculate"]), ("one", ["a"]), ("two", ["a", "b"]), ("three", ["c"])]
    return [
        {"request": request, "expected": expected, "total_s": s, "first_token_s": None}
        for (request, expected), s in zip(shapes, seconds, strict=True)
    ]


def test_matched_ratios_compare_each_one_tool_follow_up_with_the_same_rounds_release_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Round 1: the release is slow (a busy machine), round 2 fast; the tree's turns follow it.
    runs = iter(
        [
            _rows([9.0, 4.0, 8.0, 6.0]),  # release, round 1
            _rows([9.0, 4.4, 1.0, 6.0]),  # this tree, round 1
            _rows([9.0, 2.0, 8.0, 3.0]),  # release, round 2
            _rows([9.0, 2.0, 1.0, 3.3]),  # this tree, round 2
        ]
    )
    asked: list[str | None] = []

    def fake(revision: str | None, name: str, n_threads: int | None) -> list[dict[str, Any]]:
        asked.append(revision)
        return next(runs)

    monkeypatch.setattr(model_e2e, "baseline_turns", fake)
    ratios, new_s, old_s = model_e2e.matched_ratios("a054bd7", "embedded", None, 2)
    assert asked == ["a054bd7", None, "a054bd7", None]
    # The first turn and the two-tool turn are not compared; the rest pair by round.
    assert ratios == pytest.approx([1.1, 1.0, 1.0, 1.1])
    assert new_s == [4.4, 6.0, 2.0, 3.3]
    assert old_s == [4.0, 6.0, 2.0, 3.0]
