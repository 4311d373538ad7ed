"""Tables for the tool-choice accuracy evaluation of ``bench/embedded_eval.py``.

The evaluation itself (cases, scoring) belongs to the embedded-model work; this
module only runs it from the one benchmark command and prints its tables.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from typing import Any

from bench._timing import render_plain

TARGET = {"embedded": 0.90}  # issue 5: at least 90% for the 1.5B default


def tables(models: Sequence[str]) -> list[str]:
    """Run the evaluation for ``models``: a per-case table each, then the summary."""
    from bench import embedded_eval

    results = embedded_eval.run(tuple(models))
    out: list[str] = []
    summary: list[list[str]] = []
    for result in results:
        lines = []
        for c in result.cases:
            lines.append(
                [
                    c.case.request[:60],
                    _calls(c.case.expected) or "(prose)",
                    _calls(c.calls) or f"prose: {c.text[:40]!r}",
                    "ok" if c.correct else "WRONG",
                    f"{c.seconds:.1f}",
                ]
            )
        out.append(
            render_plain(
                f"Tool-choice evaluation, llamacpp:{result.model}: every case",
                ["request", "expected", "got", "verdict", "s"],
                lines,
            )
        )
        right = sum(c.correct for c in result.cases)
        target = TARGET.get(result.model)
        verdict = "" if target is None else ("PASS" if result.accuracy >= target else "MISS")
        summary.append(
            [
                result.model,
                f"{right}/{len(result.cases)}",
                f"{result.accuracy:.0%}",
                f"≥ {target:.0%} {verdict}" if target is not None else "—",
                f"{statistics.median(c.seconds for c in result.cases):.1f}"
                if result.cases
                else "—",
            ]
        )
    out.append(
        render_plain(
            "Tool-choice accuracy: right tools with the right arguments (or rightly none)",
            ["model", "right", "accuracy", "target", "median s per case"],
            summary,
        )
    )
    return out


def _calls(calls: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{name}({json.dumps(args, ensure_ascii=False)})" for name, args in calls)
