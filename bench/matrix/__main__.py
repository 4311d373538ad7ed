"""``python -m bench.matrix``: run the evaluation matrix on the embedded model and print it."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.matrix._cases import KINDS, LANGUAGES
from bench.matrix._prompts import PROMPTS
from bench.matrix._report import HALVES, table
from bench.matrix._run import Runner, Selection, TurnResult
from bench.matrix._sets import TOOL_SETS


def _set(values: list[str] | None) -> frozenset[Any] | None:
    return frozenset(values) if values else None


def parser() -> argparse.ArgumentParser:
    """The command's options."""
    parser = argparse.ArgumentParser(prog="python -m bench.matrix", description=__doc__)
    parser.add_argument("--model", default="embedded", help="embedded, embedded-small or a GGUF")
    parser.add_argument(
        "--half",
        choices=("dev", "held-out", "fresh", "probe", "both", "all"),
        default="both",
        help="both: dev and held-out; all: dev, held-out and fresh (the fresh half's texts are "
        "never printed)",
    )
    parser.add_argument(
        "--language",
        choices=(*LANGUAGES, "all"),
        default="en",
        help="the requests' language: en, de or es (the team tool sets' dev and held-out "
        "requests, translated), or all three",
    )
    parser.add_argument("--tool-set", action="append", choices=[t.name for t in TOOL_SETS])
    parser.add_argument("--prompt", action="append", choices=list(PROMPTS))
    parser.add_argument("--kind", action="append", choices=list(KINDS))
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--output", type=Path, help="write every turn's result as JSON here")
    parser.add_argument(
        "--cases", type=Path, help='a JSON list of case ids (an --output\'s "case") to run'
    )
    parser.add_argument(
        "--profile",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="replace a field of the policy's DecodingProfile (an experiment), e.g. "
        "tool_example=true",
    )
    parser.add_argument(
        "--policy",
        default="default",
        help="the embedded model's policy: default, or without:RULE[,RULE...] (the default "
        "rules less these)",
    )
    parser.add_argument(
        "--shared-prompt-cache",
        action="store_true",
        help="load and keep prompt caches in the model's usual folder (by default each run "
        "starts from an empty folder of its own: a prompt loaded from another run's cache is "
        "evaluated in other batches, and a near tie can go the other way)",
    )
    parser.add_argument(
        "--show-held-out",
        action="store_true",
        help="print the held-out turns' requests, calls and answers (hidden by default: "
        "whoever tunes the rules must not read them); the fresh half stays hidden",
    )
    return parser


def selection(args: argparse.Namespace) -> Selection:
    """The part of the matrix the options ask for."""
    wide = {"both": ("dev", "held-out"), "all": ("dev", "held-out", "fresh")}
    halves = frozenset(wide.get(args.half, (args.half,)))
    languages = frozenset(LANGUAGES if args.language == "all" else (args.language,))
    cases = frozenset(json.loads(args.cases.read_text())) if args.cases else None
    return Selection(
        halves, _set(args.tool_set), _set(args.prompt), _set(args.kind), cases, languages
    )


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)

    from springtail.models import LlamaCppChatModel

    chosen = selection(args)
    kwargs: dict[str, Any] = {}
    if args.policy != "default" or args.profile:
        # Only then: the default path also runs an earlier release's library (a baseline).
        from bench.matrix._policies import policy

        kwargs["policy"] = policy(args.policy, args.profile)
    fresh = None if args.shared_prompt_cache else tempfile.TemporaryDirectory(prefix="matrix-")
    if fresh is not None:
        kwargs["prompt_cache"] = Path(fresh.name)
    model = LlamaCppChatModel(args.model, n_threads=args.threads, **kwargs)
    runner = Runner(model, TOOL_SETS, PROMPTS, chosen)
    started = time.perf_counter()
    results: list[TurnResult] = []
    try:
        results = runner.run(on_turn=lambda r: print(r.line(reveal=args.show_held_out), flush=True))
    finally:
        model.close()
        if fresh is not None:
            fresh.cleanup()
    print(
        f"\n{args.model}, {len(results)} requests in {(time.perf_counter() - started) / 60:.1f} "
        "min\n"
    )
    print(table(results))
    for half in HALVES:
        part = [r for r in results if r.half == half]
        if part and len(chosen.halves) > 1:
            print(f"\n== {half}\n{table(part)}")
    if args.output:
        rows = [r.as_json(reveal=args.show_held_out) for r in results]
        args.output.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
