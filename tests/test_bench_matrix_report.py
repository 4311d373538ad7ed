"""bench/matrix/_report.py: each half's figures, each with its count and Wilson interval."""

from __future__ import annotations

from bench.matrix._cases import Half, Kind, Language, Origin, turn
from bench.matrix._report import figures, table
from bench.matrix._run import Layout, TurnResult


def _result(
    kind: Kind,
    half: Half,
    passed: bool,
    *,
    position: int = 0,
    origin: Origin = "team",
    language: Language = "en",
) -> TurnResult:
    layout: Layout = "outside" if kind in ("follow-up", "refer") else "-"
    result = TurnResult(
        "calendar",
        "none",
        kind,
        half,
        layout,
        turn("q"),
        [],
        "a",
        1.0,
        language=language,
        origin=origin,
        position=position,
    )
    result.calls_ok = result.answer_ok = passed
    return result


def test_each_half_gives_every_kind_and_the_issue_s_lines_with_intervals() -> None:
    results = [
        _result("single", "dev", True),
        _result("chain", "dev", False),
        _result("follow-up", "dev", True),
        _result("follow-up", "dev", False, position=1),
        _result("refer", "held-out", True),
        _result("refer", "held-out", True, position=1),
        _result("single", "fresh", True, origin="elsewhere"),
        _result("single", "dev", True, language="de"),
        _result("single", "dev", False, language="es"),
    ]
    text = figures(results)
    dev = text.split("held-out:")[0]
    assert "kind follow-up               1/2 = 50% [9–91%]" in dev
    assert "chains                       0/1 = 0% [0–79%]" in dev
    assert "later conversation turns     0/1 = 0% [0–79%]" in dev
    assert "language en (team sets)      2/4 = 50% [15–85%]" in dev
    assert "language de (team sets)      1/1" in dev
    assert "language es (team sets)      0/1" in dev
    held = text.split("held-out:")[1].split("fresh:")[0]
    assert "kind refer                   2/2 = 100% [34–100%]" in held
    assert "later conversation turns     1/1" in held
    fresh = text.split("fresh:")[1]
    assert "tool sets not written here   1/1" in fresh
    assert "language" not in fresh
    # The table ends with the figures.
    assert table(results).endswith(text)
