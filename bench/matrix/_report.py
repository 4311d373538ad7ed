"""Tables of the matrix: every cell (tool set × prompt × kind), each margin, each half."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from bench.matrix._cases import KINDS, LANGUAGES
from bench.matrix._interval import rate
from bench.matrix._run import TurnResult

__all__ = ["HALVES", "figures", "table"]

HALVES = ("dev", "held-out", "fresh", "probe")
"""The halves in the order the report gives them."""

TARGET = 0.85
"""Issue 21's target for each half, end to end."""
MARGIN_FLOOR = 0.70
"""No kind, tool set or system prompt below this."""
KIND_TARGETS = {"chain": 0.75, "twice": 0.90, "none": 0.875}
"""Kinds with a target of their own (``none``: no worse than 42/48, the last round's)."""


def _score(results: Iterable[TurnResult]) -> tuple[int, int]:
    items = list(results)
    return sum(r.passed for r in items), len(items)


def _cell(passed: int, total: int) -> str:
    return f"{passed}/{total}" if total else "-"


def _pct(passed: int, total: int) -> str:
    return f"{passed / total:4.0%}" if total else "   -"


def _verdict(passed: int, total: int, target: float) -> str:
    met = "meets" if passed / total >= target else "misses"
    return f"{passed}/{total} = {_pct(passed, total).strip()} ({met} the {target:.0%} target)"


def _margin(
    title: str, results: Sequence[TurnResult], key: Callable[[TurnResult], str], floor: float
) -> list[str]:
    groups: dict[str, list[TurnResult]] = defaultdict(list)
    for r in results:
        groups[key(r)].append(r)
    lines = [f"{title:14} " + "".join(f"{name:>14}" for name in groups)]
    row = []
    for items in groups.values():
        passed, total = _score(items)
        flag = "" if total and passed / total >= floor else " !"
        row.append(f"{_cell(passed, total)} {_pct(passed, total)}{flag}".rjust(14))
    lines.append(" " * 15 + "".join(row))
    return lines


def table(results: Sequence[TurnResult]) -> str:
    """The cells, the margins and the totals of these results, as text."""
    out: list[str] = []
    present = {r.kind for r in results}
    kinds = [k for k in KINDS if k in present]
    cells: dict[tuple[str, str], dict[str, list[TurnResult]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for r in results:
        cells[(r.tool_set, r.prompt)][r.kind].append(r)
    out.append(f"{'tool set':12} {'prompt':12} " + "".join(f"{k:>10}" for k in kinds) + "      all")
    for (tool_set, prompt), by_kind in cells.items():
        row = "".join(f"{_cell(*_score(by_kind.get(k, []))):>10}" for k in kinds)
        passed, total = _score(r for items in by_kind.values() for r in items)
        out.append(f"{tool_set:12} {prompt:12} {row} {_pct(passed, total):>7}")
    out.append("")
    out += _margin("tool set", results, lambda r: r.tool_set, MARGIN_FLOOR)
    out += _margin("prompt", results, lambda r: r.prompt, MARGIN_FLOOR)
    out += _margin(
        "kind", sorted(results, key=lambda r: KINDS.index(r.kind)), lambda r: r.kind, MARGIN_FLOOR
    )
    follow = [r for r in results if r.layout != "-"]
    if follow:
        out += _margin("memory", follow, lambda r: r.layout, MARGIN_FLOOR)
    out.append("")
    for half in HALVES:
        part = [r for r in results if r.half == half]
        if part:
            out.append(f"{half:9} {_verdict(*_score(part), TARGET)}")
        for kind, target in KIND_TARGETS.items():
            of_kind = [r for r in part if r.kind == kind]
            if of_kind:
                out.append(f"{'':9}   {kind:6} {_verdict(*_score(of_kind), target)}")
    failures: dict[str, int] = defaultdict(int)
    for r in results:
        if not r.passed:
            failures["error" if r.error else "calls" if not r.calls_ok else "answer"] += 1
    if failures:
        out.append("failures: " + ", ".join(f"{k} {v}" for k, v in failures.items()))
    seconds = sorted(r.seconds for r in results)
    if seconds:
        out.append(
            f"turn time: median {seconds[len(seconds) // 2]:.1f} s, "
            f"total {sum(seconds) / 60:.1f} min"
        )
    out.append("")
    out.append(figures(results))
    return "\n".join(out)


def _line(title: str, items: Sequence[TurnResult]) -> str:
    return f"  {title:28} {rate(*_score(items))}"


def figures(results: Sequence[TurnResult]) -> str:
    """Each half's figures with their Wilson 95 % intervals: every kind, then the lines issue
    54 targets (chains, later conversation turns, the tool sets not written here, each
    language next to English). Counts only: no request is named."""
    out = ["figures (k/n = rate [Wilson 95% interval]), per turn:"]
    for half in HALVES:
        part = [r for r in results if r.half == half]
        if not part:
            continue
        out.append(f"{half}:")
        out.append(_line("all", part))
        for kind in KINDS:
            of_kind = [r for r in part if r.kind == kind]
            if of_kind:
                out.append(_line(f"kind {kind}", of_kind))
        for title, items in (
            ("chains", [r for r in part if r.kind == "chain"]),
            ("later conversation turns", [r for r in part if r.position > 0]),
        ):
            if items:
                out.append(_line(title, items))
        for origin, title in (
            ("team", "tool sets written here"),
            ("elsewhere", "tool sets not written here"),
        ):
            of_origin = [r for r in part if r.origin == origin]
            if of_origin:
                out.append(_line(title, of_origin))
        languages = [lang for lang in LANGUAGES if any(r.language == lang for r in part)]
        if len(languages) > 1 or languages != ["en"]:
            # Next to English on the same cases: the team sets, whose requests are translated.
            team = [r for r in part if r.origin == "team"]
            for lang in languages:
                out.append(
                    _line(f"language {lang} (team sets)", [r for r in team if r.language == lang])
                )
    return "\n".join(out)
