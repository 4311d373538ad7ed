"""``python -m bench.bfcl``: run a fixed-seed sample of BFCL v4 through ChatClient and score it.

python -m bench.bfcl --list
python -m bench.bfcl --model llamacpp:embedded --category live_simple --limit 40
python -m bench.bfcl --model openai-compatible:http://127.0.0.1:8080/v1 --limit 0
python -m bench.bfcl --model scripted:oracle --limit 0        # checks the harness
python -m bench.bfcl --final --model llamacpp:embedded        # the non-live categories, once
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.bfcl._data import CATEGORIES, FINAL_ONLY, TUNING, Entry, load, sample
from bench.bfcl._models import model_factory
from bench.bfcl._report import failures, summary, table
from bench.bfcl._runner import Outcome, RunSettings, run_entry

DEFAULT_LIMIT = 40
DEFAULT_SEED = 0


def _list() -> str:
    lines = [f"{'category':24} {'entries':>7}  kind         use"]
    for name, c in CATEGORIES.items():
        use = "final report only (--final)" if c.final_only else "tuning"
        lines.append(f"{name:24} {len(load(name)):>7}  {c.kind:12} {use}")
    return "\n".join(lines)


def _line(o: Outcome, *, details: bool) -> str:
    mark = "ok  " if o.passed else "FAIL"
    why = o.error_type if not o.passed else ""
    if details and not o.passed and o.errors:
        why += f": {o.errors[0][:120]}"
    return f"{mark} {o.seconds:6.1f}s {o.id:36} {why}"


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the sample, print the table; 0 unless the arguments are wrong."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.bfcl",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", default="llamacpp:embedded", help="a provider URI")
    parser.add_argument("--category", action="append", choices=list(CATEGORIES))
    parser.add_argument(
        "--final",
        action="store_true",
        help="allow the non-live categories (simple, multiple, parallel, parallel_multiple); "
        "alone, run just those. They are for the final report: never tune on them",
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        help=f"entries per category, drawn with --seed (default {DEFAULT_LIMIT}; 0: all)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--id", action="append", help="run only these entry ids (repeatable)")
    parser.add_argument("--threads", type=int, default=None, help="the embedded model's threads")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="entries run at once (for a server that serves several requests; default 1)",
    )
    parser.add_argument("--max-tokens", type=int, default=None)
    parser.add_argument("--temperature", type=float, default=None)
    parser.add_argument(
        "--all-turns",
        action="store_true",
        help="multi-turn: play every turn after a failed one too (same verdict, slower)",
    )
    parser.add_argument("--output", type=Path, help="write the summary and each result as JSON")
    parser.add_argument("--list", action="store_true", help="list the categories and their sizes")
    args = parser.parse_args(argv)

    if args.list:
        print(_list())
        return 0
    categories: list[str] = args.category or (list(FINAL_ONLY) if args.final else list(TUNING))
    refused = [c for c in categories if CATEGORIES[c].final_only and not args.final]
    if refused:
        parser.error(f"{', '.join(refused)}: final-report categories need --final")
    if args.limit < 0:
        parser.error("--limit must be 0 (all) or more")
    if args.workers < 1:
        parser.error("--workers must be 1 or more")

    model_for = model_factory(args.model, args.threads)
    settings = RunSettings(args.max_tokens, args.temperature, args.all_turns)
    wanted = set(args.id or ())
    entries = [
        entry
        for category in categories
        for entry in sample(load(category), args.limit, args.seed)
        if not wanted or entry.id in wanted
    ]

    def one(entry: Entry) -> Outcome:
        outcome = run_entry(model_for, entry, settings)
        details = not CATEGORIES[entry.category].final_only
        print(_line(outcome, details=details), file=sys.stderr, flush=True)
        return outcome

    if args.workers > 1:
        with ThreadPoolExecutor(args.workers) as pool:
            outcomes = list(pool.map(one, entries))  # in the entries' order
    else:
        outcomes = [one(entry) for entry in entries]

    print(f"model {args.model}, seed {args.seed}, limit {args.limit or 'all'}")
    if not outcomes:
        print("no entries selected")
        return 0
    print(table(outcomes))
    if args.output:
        report = {
            "model": args.model,
            "seed": args.seed,
            "limit": args.limit,
            "categories": categories,
            "summary": summary(outcomes),
            "failures": failures(outcomes),
            "results": [o.as_json(details=not CATEGORIES[o.category].final_only) for o in outcomes],
        }
        args.output.write_text(json.dumps(report, indent=1, ensure_ascii=False, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
