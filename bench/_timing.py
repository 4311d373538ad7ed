"""Timing runs, verifying them, and printing the tables.

Every run of a scenario is verified (final text and tool-run count) outside the
timed region, so a harness that silently skips a tool can never look fast.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bench._scenarios import RUNS, Outcome, Script, verify


@dataclass
class Runner:
    """One framework set up for one scenario: call ``run`` for one conversation.

    The agent or client is built once, like an application builds it at start-up;
    ``run`` is one conversation from prompt to final text.
    """

    script: Script
    run: Callable[[], Awaitable[str]] | Callable[[], str]
    is_async: bool


@dataclass(frozen=True)
class Stats:
    """Median, min and max of the runs, in seconds."""

    median: float
    min: float
    max: float
    n: int

    @classmethod
    def of(cls, samples: Sequence[float]) -> Stats:
        return cls(statistics.median(samples), min(samples), max(samples), len(samples))

    def scaled(self, factor: float) -> Stats:
        return Stats(self.median * factor, self.min * factor, self.max * factor, self.n)


def measure(label: str, runner: Runner, *, repeat: int, warmup: int = 2) -> Stats:
    """Time ``repeat`` conversations after ``warmup`` ones, verifying every one."""
    samples: list[float] = []
    loop = asyncio.new_event_loop() if runner.is_async else None
    try:
        for i in range(warmup + repeat):
            runner.script.reset()
            RUNS.count = 0
            if loop is not None:
                elapsed, text = loop.run_until_complete(_timed_async(runner.run))  # type: ignore[arg-type]
            else:
                start = time.perf_counter()
                text = runner.run()  # type: ignore[assignment]
                elapsed = time.perf_counter() - start
            verify(label, runner.script, Outcome(str(text), RUNS.count))
            if i >= warmup:
                samples.append(elapsed)
            if i == warmup - 1:
                gc.collect()
    finally:
        if loop is not None:
            loop.run_until_complete(loop.shutdown_default_executor())
            loop.close()
    return Stats.of(samples)


async def _timed_async(run: Callable[[], Awaitable[str]]) -> tuple[float, str]:
    start = time.perf_counter()
    text = await run()
    return time.perf_counter() - start, text


def time_calls(fn: Callable[[], object], *, repeat: int, number: int, warmup: int = 1) -> Stats:
    """Per-call time of a cheap ``fn``: ``repeat`` batches of ``number`` calls."""
    for _ in range(warmup):
        fn()
    samples: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return Stats.of(samples)


# -- tables -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One line of a table: a framework's figures for one scenario."""

    framework: str
    stats: Stats | None
    note: str = ""
    kind: str = "peer"  # "peer", "springtail" (judged against the target) or "reference"

    @property
    def is_peer(self) -> bool:
        return self.kind == "peer"


UNITS = {"s": 1.0, "ms": 1e3, "µs": 1e6}


def fmt(value: float, unit: str) -> str:
    scaled = value * UNITS[unit]
    if scaled >= 100:
        return f"{scaled:,.0f}"
    if scaled >= 10:
        return f"{scaled:.1f}"
    return f"{scaled:.2f}"


def render_table(
    title: str,
    rows: Sequence[Row],
    unit: str,
    *,
    target: float | None = None,
    target_label: str = "",
) -> str:
    """A plain-text table: median, min, max, ratio to the fastest peer, target verdict."""
    peers = [r.stats.median for r in rows if r.is_peer and r.stats is not None]
    fastest_peer = min(peers) if peers else None
    header = ["framework", f"median {unit}", f"min {unit}", f"max {unit}", "× fastest peer"]
    if target is not None:
        header.append(f"target {target_label}")
    lines: list[list[str]] = []
    for row in rows:
        if row.stats is None:
            lines.append(
                [row.framework, "—", "—", "—", "—"] + ([""] if target else []) + [row.note]
            )
            continue
        s = row.stats
        ratio = f"{s.median / fastest_peer:.2f}" if fastest_peer else "—"
        line = [row.framework, fmt(s.median, unit), fmt(s.min, unit), fmt(s.max, unit), ratio]
        if target is not None:
            judged = row.kind == "springtail"
            line.append(("PASS" if s.median <= target else "MISS") if judged else "")
        line.append(row.note)
        lines.append(line)
    return _grid(title, [*header, "note"], lines)


def _grid(title: str, header: list[str], lines: list[list[str]]) -> str:
    widths = [len(h) for h in header]
    for line in lines:
        for i, cell in enumerate(line):
            widths[i] = max(widths[i], len(cell))

    def fmt_line(cells: list[str]) -> str:
        out = []
        for i, cell in enumerate(cells):
            out.append(
                cell.ljust(widths[i]) if i in (0, len(header) - 1) else cell.rjust(widths[i])
            )
        return "| " + " | ".join(out).rstrip() + " |"

    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    body = [fmt_line(header), sep] + [fmt_line(line) for line in lines]
    return f"\n### {title}\n\n" + "\n".join(body) + "\n"


def render_plain(title: str, header: list[str], lines: list[list[str]]) -> str:
    """A table of pre-formatted cells (model timings, import times)."""
    return _grid(title, header, lines)
