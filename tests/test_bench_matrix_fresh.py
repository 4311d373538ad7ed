"""bench/matrix's fresh half: it exists for every tool set, and nothing prints its texts.

The fresh half is the figure nobody may tune on (issue 54). These tests check that it
stays unread: every line, table and ``--output`` row of a fresh turn carries counts
and ids only, even with ``--show-held-out``. Failure messages name cases by tool set
and index, never by their text.
"""

from __future__ import annotations

import json
import pkgutil
from pathlib import Path

import bench.matrix.fresh as fresh_package
from bench.matrix import __main__ as cli
from bench.matrix._cases import Case
from bench.matrix._prompts import PROMPTS
from bench.matrix._report import table
from bench.matrix._run import Runner, Selection, TurnResult
from bench.matrix._sets import TOOL_SETS

from springtail import ScriptedChatModel

_HEADER = "# fresh held-out half: do not read while tuning"


def _fresh() -> list[tuple[str, int, Case]]:
    return [(t.name, i, c) for t in TOOL_SETS for i, c in enumerate(t.cases) if c.half == "fresh"]


def _texts() -> set[str]:
    """Every request of the fresh half and every text value its expected calls hold."""
    texts: set[str] = set()
    for _, _, case in _fresh():
        for t in case.turns:
            texts.add(t.request)
    return texts


def test_every_fresh_module_starts_with_the_header_and_holds_only_fresh_cases() -> None:
    folder = Path(fresh_package.__file__).parent
    modules = [m.name for m in pkgutil.iter_modules([str(folder)])]
    assert len(modules) >= 12
    for path in [folder / "__init__.py", *(folder / f"{m}.py" for m in modules)]:
        assert path.read_text(encoding="utf-8").splitlines()[0] == _HEADER, path.name
    for name in modules:
        module = __import__(f"bench.matrix.fresh.{name}", fromlist=["CASES"])
        assert {c.half for c in module.CASES} == {"fresh"}, name


def test_every_tool_set_has_a_fresh_half() -> None:
    for tool_set in TOOL_SETS:
        assert sum(c.half == "fresh" for c in tool_set.cases) >= 7, tool_set.name


def _played() -> list[TurnResult]:
    """The fresh half played by a model that answers in prose: enough to print every part."""
    model = ScriptedChatModel(["I am not sure."] * 2000)
    seen: list[TurnResult] = []
    selection = Selection(halves=frozenset({"fresh"}), prompts=frozenset({"none"}))
    Runner(model, TOOL_SETS, {"none": PROMPTS["none"]}, selection).run(on_turn=seen.append)
    return seen


def test_no_fresh_text_is_printed_even_when_held_out_texts_are_revealed() -> None:
    seen = _played()
    assert seen
    assert {r.half for r in seen} == {"fresh"}
    requests = _texts()
    printed = [r.line(reveal=True) for r in seen] + [r.line(reveal=False) for r in seen]
    printed.append(table(seen))
    rows = [json.dumps(r.as_json(reveal=True)) for r in seen]
    for text in printed + rows:
        leaked = [q for q in requests if q in text]
        assert leaked == []
        assert "I am not sure" not in text
    for row in (r.as_json(reveal=True) for r in seen):
        assert set(row) == {
            "case",
            "turn",
            "tool_set",
            "origin",
            "prompt",
            "language",
            "kind",
            "half",
            "layout",
            "calls_ok",
            "answer_ok",
            "passed",
        }


def test_the_command_line_runs_the_fresh_half_and_all_halves() -> None:
    fresh = cli.selection(cli.parser().parse_args(["--half", "fresh"]))
    assert fresh.halves == {"fresh"}
    assert fresh.languages == {"en"}
    every = cli.selection(cli.parser().parse_args(["--half", "all", "--language", "all"]))
    assert every.halves == {"dev", "held-out", "fresh"}
    assert every.languages == {"en", "de", "es"}
    assert cli.selection(cli.parser().parse_args([])).halves == {"dev", "held-out"}
