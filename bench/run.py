"""One command for every table: ``python -m bench`` (or ``python bench/run.py``).

``--only overhead`` runs the framework-overhead tables (about a minute),
``--only model`` the embedded model end to end and ``--only eval`` the
tool-choice accuracy evaluation (minutes each); ``--only tool-search`` tool
search at 113 tools on the scripted model (seconds) and ``--only
tool-search-model`` on the embedded model (about half an hour on 2 cores);
``--only durable`` a durable turn against a plain one on SQLite and
PostgreSQL (seconds, once PostgreSQL started). The default runs them all.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import platform
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._env import disable_telemetry

disable_telemetry()

from bench import _scenarios as sc  # noqa: E402
from bench._timing import Row, Runner, measure, render_plain, render_table, time_calls  # noqa: E402

SECTIONS = ("overhead", "durable", "model", "eval", "tool-search", "tool-search-model")
ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "performance.md"


@dataclass(frozen=True)
class Scenario:
    key: str
    title: str
    script: Callable[[], sc.Script]
    unit: str
    per: int  # divide a conversation's time by this (round trips in S1)
    target: float  # seconds, per unit of ``per``
    target_label: str
    repeat: int


SCENARIOS = (
    Scenario(
        "S1",
        f"S1 — {sc.N_ROUNDS} sequential responses, one call each to sync add(a, b), then text: "
        "µs per tool-call round trip",
        sc.s1_script,
        "µs",
        sc.N_ROUNDS,
        150e-6,
        "≤ 150 µs",
        30,
    ),
    Scenario(
        "S1a",
        "S1a — the same with async def add: µs per tool-call round trip",
        sc.s1_script,
        "µs",
        sc.N_ROUNDS,
        50e-6,
        "≤ 50 µs",
        30,
    ),
    Scenario(
        "S2",
        f"S2 — one response with {sc.N_PARALLEL} calls to a tool awaiting "
        f"asyncio.sleep({sc.SLEEP_S}), then text: ms per conversation",
        sc.s2_script,
        "ms",
        1,
        0.053,
        "≤ 53 ms",
        12,
    ),
    Scenario(
        "S2s",
        f"S2s — the same with a blocking time.sleep({sc.SLEEP_S}): ms per conversation",
        sc.s2_script,
        "ms",
        1,
        0.053,
        "≤ 53 ms",
        12,
    ),
    Scenario(
        "S4",
        f"S4 — one tool call on top of a {sc.HISTORY_LEN}-message history: ms per run",
        sc.s4_script,
        "ms",
        1,
        0.0005,
        "≤ 0.5 ms",
        30,
    ),
)

PEER_MODULES = ("bench.fw_pydantic_ai", "bench.fw_langgraph", "bench.fw_openai_agents")


def _import(name: str) -> Any:
    import importlib

    return importlib.import_module(name)


def _short_error(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return text[:140]


def _measure_row(
    label: str, make: Callable[[], Runner], scenario: Scenario, quick: bool, kind: str
) -> Row:
    repeat = max(3, scenario.repeat // 4) if quick else scenario.repeat
    try:
        stats = measure(f"{label} {scenario.key}", make(), repeat=repeat)
    except sc.VerificationError:
        raise
    except Exception as exc:
        return Row(label, None, note=f"not measured: {_short_error(exc)}", kind=kind)
    return Row(label, stats.scaled(1 / scenario.per), kind=kind)


def overhead_tables(quick: bool, out: TextIO) -> None:
    """S1, S1a, S2, S2s, S4, S3, the springtail breakdown, import time and peak RSS."""
    st = _import("bench.fw_springtail")
    peers = [_import(name) for name in PEER_MODULES]
    for scenario in SCENARIOS:
        rows = [
            _measure_row(
                "springtail — client.prompt().call()",
                functools.partial(st.build, scenario.key, scenario.script()),
                scenario,
                quick,
                "springtail",
            ),
            _measure_row(
                "springtail — await client.prompt().acall()",
                functools.partial(st.build, scenario.key, scenario.script(), use_async=True),
                scenario,
                quick,
                "springtail",
            ),
        ]
        if scenario.key in ("S1", "S1a"):
            rows.append(
                _measure_row(
                    "springtail — new model + client inside every run",
                    functools.partial(st.build_fresh_client, scenario.key, scenario.script()),
                    scenario,
                    quick,
                    "reference",
                )
            )
        if scenario.key in ("S2", "S2s"):
            floor = _import("bench.fw_floor")
            label = (
                "no framework — asyncio.gather of the 8 calls"
                if scenario.key == "S2"
                else "no framework — 8 calls on ThreadPoolExecutor(8)"
            )
            rows.append(
                _measure_row(
                    label,
                    functools.partial(floor.build, scenario.key, scenario.script()),
                    scenario,
                    quick,
                    "reference",
                )
            )
        for peer in peers:
            rows.append(
                _measure_row(
                    peer.NAME,
                    functools.partial(peer.build, scenario.key, scenario.script()),
                    scenario,
                    quick,
                    "peer",
                )
            )
        _emit(
            out,
            render_table(
                scenario.title,
                rows,
                scenario.unit,
                target=scenario.target,
                target_label=scenario.target_label,
            ),
        )
    _schema_tables(quick, out)
    _breakdown_table(quick, out)
    _footprint_tables(quick, out)


def _schema_tables(quick: bool, out: TextIO) -> None:
    from bench import schema_build as s3

    repeat = 8 if quick else 30
    base_first, base_cached = s3.baseline_stats(repeat)
    first_rows = [
        Row("pydantic create_model + model_json_schema (baseline)", base_first, kind="reference")
    ]
    cached_rows = [
        Row("pydantic model_json_schema on the built model", base_cached, kind="reference")
    ]
    try:
        f_row, c_row = s3.measure_builder(
            "springtail — @tool, tool_callbacks → tool_definition.input_schema",
            s3.springtail_builder,
            repeat=repeat,
            kind="springtail",
        )
        first_rows.insert(0, f_row)
        cached_rows.insert(0, c_row)
        again = s3.springtail_recollect()
        cached_rows.insert(
            1,
            Row(
                "springtail — tool_callbacks(decorated fn) again (a new client)",
                time_calls(again, repeat=repeat, number=200),
                kind="reference",
            ),
        )
    except Exception as exc:
        note = f"not measured: {_short_error(exc)}"
        first_rows.insert(0, Row("springtail", None, note=note, kind="springtail"))
        cached_rows.insert(0, Row("springtail", None, note=note, kind="springtail"))
    for label, builder in s3.PEERS.items():
        f_row, c_row = s3.measure_builder(label, builder, repeat=repeat)
        first_rows.append(f_row)
        cached_rows.append(c_row)
    _emit(
        out,
        render_table(
            "S3 — tool definition for a signature with a nested model, an enum, an optional "
            "with default and a list of objects: first build, ms",
            first_rows,
            "ms",
            target=base_first.median,
            target_label=f"≤ create_model ({base_first.median * 1e3:.2f} ms)",
        ),
    )
    _emit(
        out,
        render_table(
            "S3 — the same definition asked for again (cached): µs",
            cached_rows,
            "µs",
            target=5e-6,
            target_label="≤ 5 µs",
        ),
    )


def _breakdown_table(quick: bool, out: TextIO) -> None:
    from bench import breakdown

    try:
        rows = breakdown.layer_rows(repeat=5 if quick else 15)
    except Exception as exc:
        rows = [Row("springtail layers", None, note=f"not measured: {_short_error(exc)}")]
    _emit(
        out,
        render_table(
            "Where springtail's S1 time goes — each layer alone: µs per operation", rows, "µs"
        ),
    )


def _footprint_tables(quick: bool, out: TextIO) -> None:
    from bench import footprint

    runs = 3 if quick else 7
    rows = footprint.import_times(runs)
    _emit(
        out,
        render_table(
            f"Import time in a fresh interpreter (median of {runs}): ms",
            rows,
            "ms",
            target=0.150,
            target_label="import springtail ≤ 150 ms",
        ),
    )
    rss = footprint.peak_rss()
    peer_peaks = [kib for label, kib, _ in rss if kib is not None and label != "springtail"]
    fastest = min(peer_peaks) if peer_peaks else None
    lines = []
    for label, kib, note in rss:
        if kib is None:
            lines.append([label, "—", "—", note])
            continue
        ratio = f"{kib / fastest:.2f}" if fastest else "—"
        lines.append([label, f"{kib / 1024:.1f}", ratio, note])
    _emit(
        out,
        render_plain(
            "Peak RSS after import + one S1 conversation (fresh interpreter): MiB",
            ["framework", "peak RSS MiB", "× smallest peer", "note"],
            lines,
        ),
    )


def machine_description() -> str:
    cpu = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    versions = []
    for mod in ("bench.fw_springtail", *PEER_MODULES):
        with contextlib.suppress(Exception):
            m = _import(mod)
            versions.append(f"{m.NAME} {m.version()}")
    return (
        f"Machine: {cores} cores (nproc), {cpu}; Python {platform.python_version()} "
        f"({platform.system()} {platform.release()}); load average {load} at start\n"
        f"Versions: {'; '.join(versions)}"
    )


def _emit(out: TextIO, text: str) -> None:
    print(text, flush=True)
    out.write(text + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description="springtail's benchmarks: every table in one run."
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=SECTIONS,
        help="run only this section (repeatable); default: all",
    )
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    parser.add_argument(
        "--models",
        default="embedded,embedded-small",
        help="embedded models for the model section, comma-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="llama.cpp threads (default: all cores)"
    )
    parser.add_argument(
        "--baseline",
        default=None,
        help="a git revision: the model section also runs its conversation on that release, "
        "in the same run, and reports the follow-up one-tool turn as a ratio to it",
    )
    parser.add_argument(
        "--baseline-rounds",
        type=int,
        default=1,
        help="with --baseline, run the release and this tree in turn this many times, each in "
        "a child process, and report the median of the matched turns' ratios (default: 1, "
        "one run of each)",
    )
    parser.add_argument("--output", help="also write the tables (markdown) to this file")
    parser.add_argument(
        "--update-docs",
        action="store_true",
        help=f"replace the figures in {DOCS.relative_to(ROOT)} with this run's tables",
    )
    args = parser.parse_args(argv)
    if args.threads is not None:
        # LlamaCppChatModel's default thread count; reaches the evaluation's models too.
        os.environ["SPRINGTAIL_THREADS"] = str(args.threads)
    sections = args.only or list(SECTIONS)
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    header = machine_description()
    print(header, flush=True)
    outputs: dict[str, str] = {}
    failed = False
    for section in SECTIONS:
        if section not in sections:
            continue
        out = io.StringIO()
        out.write(header.replace("\n", "  \n") + "\n")
        if section == "overhead":
            overhead_tables(args.quick, out)
        elif section == "model":
            failed |= not _guarded(
                section, functools.partial(_model_section, models, args, out), out
            )
        elif section == "tool-search":
            failed |= not _guarded(section, functools.partial(_search_section, args, out), out)
        elif section == "durable":
            failed |= not _guarded(section, functools.partial(_durable_section, args, out), out)
        elif section == "tool-search-model":
            failed |= not _guarded(
                section, functools.partial(_search_model_section, models, args, out), out
            )
        else:
            failed |= not _guarded(
                section, functools.partial(_eval_section, models, args, out), out
            )
        outputs[section] = out.getvalue()
    if args.output:
        Path(args.output).write_text("\n".join(outputs.values()), encoding="utf-8")
    if args.update_docs:
        update_docs_file(outputs, argv if argv is not None else sys.argv[1:])
    return 1 if failed else 0


def update_docs_file(outputs: dict[str, str], argv: list[str]) -> None:
    """Replace each section's block of figures in docs/performance.md with this run's."""
    doc = DOCS.read_text(encoding="utf-8")
    kept: list[str] = []
    skip = False
    for arg in argv:  # the command a reader should run: no doc update, no private output file
        if skip or arg == "--update-docs" or arg.startswith("--output"):
            skip = arg == "--output"
            continue
        kept.append(arg)
    command = " ".join(["python -m bench", *kept])
    for section, text in outputs.items():
        begin, end = f"<!-- bench:{section}:begin -->", f"<!-- bench:{section}:end -->"
        start, stop = doc.find(begin), doc.find(end)
        if start < 0 or stop < start:
            raise SystemExit(f"{DOCS}: the markers {begin} and {end} are missing; add them back.")
        block = f"{begin}\nCommand: `{command}`\n\n{text.strip()}\n"
        doc = doc[:start] + block + doc[stop:]
    DOCS.write_text(doc, encoding="utf-8")


def _guarded(section: str, fn: Callable[[], None], out: TextIO) -> bool:
    try:
        fn()
    except Exception:
        _emit(out, f"\n### {section}: not measured\n\n```\n{traceback.format_exc().strip()}\n```\n")
        return False
    return True


def _model_section(models: list[str], args: argparse.Namespace, out: TextIO) -> None:
    from bench import model_e2e

    for text in model_e2e.tables(
        models, n_threads=args.threads, baseline=args.baseline, rounds=args.baseline_rounds
    ):
        _emit(out, text)


def _search_section(args: argparse.Namespace, out: TextIO) -> None:
    from bench import tool_search

    for text in tool_search.scripted_tables(args.quick):
        _emit(out, text)


def _durable_section(args: argparse.Namespace, out: TextIO) -> None:
    from bench import durable

    for text in durable.tables(args.quick, postgres=True):
        _emit(out, text)


def _search_model_section(models: list[str], args: argparse.Namespace, out: TextIO) -> None:
    from bench import tool_search

    for text in tool_search.model_tables(models[0], n_threads=args.threads):
        _emit(out, text)


def _eval_section(models: list[str], args: argparse.Namespace, out: TextIO) -> None:
    from bench import eval_report

    for text in eval_report.tables(models):
        _emit(out, text)


if __name__ == "__main__":
    raise SystemExit(main())
