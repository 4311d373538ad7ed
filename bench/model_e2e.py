"""The embedded model end to end: support-bot's scripted requests, timed per turn.

The requests run as one conversation in the ``final`` step's shape (all tools,
chat memory inside the tool loop, streamed answer, approvals granted like
``--yes``), built from springtail's public API and support-bot's tools over a
fresh store. The first turn after loading pays for the system prompt and the
tool definitions; follow-up turns reuse the cached prefix and process only
their new tokens. Then a new model instance (as a new process would) answers
the first request again, loading the first turn's prompt cache from disk.
Per turn: time to the first tool call, time to the first token of the answer
the user sees, and the total. Last, the chat's real start: a new model
instance starts evaluating the system prompt and tools as the chat opens
(``LlamaCppChatModel.prepare``, as support-bot does) and the first request
arrives after 8 s of typing, once with an empty prompt cache and once with
the one the conversation left on disk.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._timing import render_plain

REQUESTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("What is 128 times 32?", ("calculate",)),
    ("35,000 at 18% off", ("discount_calculator",)),
    ("contact of customer C-100", ("customer_contact_lookup",)),
    ("Reserve 2 units of SKU-100 and add that as a to-do", ("product_reserve", "todo_add")),
    ("show my to-do list", ("todo_list",)),
)

_FALLBACK_SYSTEM = (
    "You are the support assistant of a small shop that sells study material. "
    "Use the tools for every calculation, date, discount, customer contact, product stock, "
    "reservation and to-do: never guess a number or a fact a tool can give. "
    "When a request needs several tools, call each of them. "
    "After the tools answer, tell the user briefly what was done and the results."
)


@dataclass
class Turn:
    """What one request cost and did."""

    request: str
    expected: tuple[str, ...]
    first_tool_s: float | None = None
    first_token_s: float | None = None
    total_s: float = 0.0
    tools: list[str] = field(default_factory=list)
    answer: str = ""
    error: str = ""
    floor_s: float | None = None
    """llama.cpp alone on the same tokens (``bench/floor.py``), when measured."""
    generations: list[Any] = field(default_factory=list, repr=False)

    @property
    def tools_ok(self) -> bool:
        return all(name in self.tools for name in self.expected)


def _system_prompt() -> str:
    try:  # the bot's own prompt, so the figures are the bot's figures
        from support_bot.steps._base import SYSTEM_PROMPT

        return str(SYSTEM_PROMPT)
    except ImportError:
        return _FALLBACK_SYSTEM


def _client(model: Any, data_dir: Path) -> Any:
    from springtail import (
        ChatClient,
        InMemoryChatMemoryRepository,
        MessageChatMemoryAdvisor,
        MessageWindowChatMemory,
        ToolCallingAdvisor,
        ToolCallingManager,
    )
    from support_bot._store import Store
    from support_bot.steps.final import MEMORY_ORDER, MEMORY_WINDOW
    from support_bot.tools import all_tools

    store = Store(data_dir / "support-bot.db")
    memory = MessageWindowChatMemory(InMemoryChatMemoryRepository(), max_messages=MEMORY_WINDOW)
    manager = ToolCallingManager(approver=lambda call, definition: True)  # like --yes
    return ChatClient(
        model,
        system=_system_prompt(),
        tools=all_tools(store),
        advisors=[
            # Where support-bot's final step puts it: inside the loop, calls remembered.
            MessageChatMemoryAdvisor(memory, conversation_id="bench", order=MEMORY_ORDER),
            ToolCallingAdvisor(tool_calling_manager=manager),
        ],
        tool_context={"user_name": "bench", "conversation_id": "bench"},
    )


def _run_turn(client: Any, request: str, expected: tuple[str, ...]) -> Turn:
    from springtail import TextDelta, ToolCallStarted

    turn = Turn(request, expected)
    parts: list[str] = []
    start = time.perf_counter()
    try:
        events: Iterator[Any] = client.prompt(request).stream().events()
        for event in events:
            now = time.perf_counter() - start
            if isinstance(event, ToolCallStarted):
                turn.tools.append(event.tool_name)
                if turn.first_tool_s is None:
                    turn.first_tool_s = now
            elif isinstance(event, TextDelta) and event.text:
                if turn.first_token_s is None:
                    turn.first_token_s = now
                parts.append(event.text)
    except Exception as exc:
        turn.error = f"{type(exc).__name__}: {exc}".splitlines()[0][:120]
    turn.total_s = time.perf_counter() - start
    turn.answer = " ".join("".join(parts).split())
    return turn


TYPING_S = 8.0
"""How long the user takes to type the first request after the chat opens."""


def _typed_first_turn(name: str, n_threads: int | None, cache: Path, data_dir: Path) -> Turn:
    """The first request of a new chat, typed while the model warms up."""
    from springtail import ChatOptions, Prompt, SystemMessage
    from springtail.models import LlamaCppChatModel, from_uri

    kwargs: dict[str, Any] = {"prompt_cache": cache}
    if n_threads is not None:
        kwargs["n_threads"] = n_threads
    model = from_uri(f"llamacpp:{name}", **kwargs)  # the chat opens: nothing loaded yet
    try:
        from support_bot._store import Store
        from support_bot.tools import all_tools

        client = _client(model, data_dir)
        tools = tuple(all_tools(Store(data_dir / "support-bot.db")))
        assert isinstance(model, LlamaCppChatModel)
        model.prepare(Prompt([SystemMessage(_system_prompt())], ChatOptions(tool_callbacks=tools)))
        time.sleep(TYPING_S)
        return _run_and_report(name, client, *REQUESTS[0])
    finally:
        _close(model)


def run_model(
    name: str, *, n_threads: int | None, floor: bool = True
) -> tuple[float, list[Turn], Turn, tuple[Turn, Turn]]:
    """Run the requests as one conversation on ``llamacpp:NAME``, then the first again.

    The prompt cache starts empty, so the first turn evaluates the whole
    prompt; the next run is the first request in a new model instance (as in
    a new process) that finds the first turn's prompt cache on disk; the last
    two are a chat's first request typed while the model warms up, with an
    empty prompt cache and with the one on disk.

    With ``floor``, each turn of the conversation also gets its floor: the
    same tokens evaluated by llama.cpp alone, replayed on the same model
    (``bench/floor.py``).

    Returns:
        (load s, the conversation's turns, the first request with the prompt cache,
        (typed first request without a prompt cache, with it))
    """
    with tempfile.TemporaryDirectory(prefix="springtail-bench-") as folder:
        cache = Path(folder) / "prompt-cache"
        load_s, model = _load(name, n_threads, cache)
        try:
            client = _client(model, Path(folder))
            turns = []
            for text, expected in REQUESTS:
                if floor:
                    from bench.floor import Recorder

                    recorder = Recorder()
                    with recorder.recording():
                        turn = _run_and_report(name, client, text, expected)
                    turn.generations = recorder.generations
                else:
                    turn = _run_and_report(name, client, text, expected)
                turns.append(turn)
            if floor:
                from bench.floor import replay

                runtime = model._engine.runtime  # the loaded model, for the replay
                for turn in turns:
                    turn.floor_s = replay(runtime, turn.generations)
        finally:
            _close(model)  # free the weights before the next model loads
        again = Path(folder) / "again"  # a fresh store and memory, as in a new process
        again.mkdir()
        _, model = _load(name, n_threads, cache)
        try:
            cached = _run_and_report(name, _client(model, again), *REQUESTS[0])
        finally:
            _close(model)
        typed = []
        for label, folder_cache in (("cold", Path(folder) / "empty-cache"), ("cached", cache)):
            data = Path(folder) / f"typed-{label}"
            data.mkdir()
            typed.append(_typed_first_turn(name, n_threads, folder_cache, data))
    return load_s, turns, cached, (typed[0], typed[1])


def _load(name: str, n_threads: int | None, cache: Path) -> tuple[float, Any]:
    from springtail.models import from_uri

    kwargs: dict[str, Any] = {"prompt_cache": cache}
    if n_threads is not None:
        kwargs["n_threads"] = n_threads
    start = time.perf_counter()
    model = from_uri(f"llamacpp:{name}", **kwargs)
    # Load the weights up front so that the first turn's time is the turn's alone. The
    # model has no public load method (it loads on first call), hence the private one.
    load = getattr(model, "load", None) or getattr(model, "_load", None)
    if callable(load):
        load()
    return time.perf_counter() - start, model


def _close(model: Any) -> None:
    close = getattr(model, "close", None)
    if callable(close):
        close()


def _run_and_report(name: str, client: Any, text: str, expected: tuple[str, ...]) -> Turn:
    turn = _run_turn(client, text, expected)
    # Each turn as it ends: on a busy machine a model takes many minutes.
    print(
        f"  llamacpp:{name}: {turn.request!r} took {turn.total_s:.1f} s, "
        f"tools {turn.tools or 'none'}{', ' + turn.error if turn.error else ''}",
        file=sys.stderr,
        flush=True,
    )
    return turn


def _s(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def baseline_turns(revision: str | None, name: str, n_threads: int | None) -> list[dict[str, Any]]:
    """The conversation's turns on another release of springtail, in a child process.

    The release's ``src`` is taken from git (``git archive``) into a temporary
    folder and put first on the child's path, so this harness drives that
    release's library through the same public API, in the same run. With
    ``revision=None`` the child runs the working tree's ``src`` the same way,
    so both sides of a comparison pay the same process start and load.
    """
    import json
    import os
    import subprocess

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="springtail-baseline-") as folder:
        src = root / "src"
        if revision is not None:
            archive = subprocess.run(
                ["git", "-C", str(root), "archive", revision, "src"],
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
            src = Path(folder) / "src"
        env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{root}"}
        args = [sys.executable, "-m", "bench.model_e2e", "--json", "--model", name]
        if n_threads is not None:
            args += ["--threads", str(n_threads)]
        out = subprocess.run(args, check=True, capture_output=True, text=True, env=env).stdout
    rows: list[dict[str, Any]] = json.loads(out)
    return rows


def matched_ratios(
    revision: str, name: str, n_threads: int | None, rounds: int
) -> tuple[list[float], list[float], list[float]]:
    """Each follow-up one-tool turn's time on this tree over its time on ``revision``.

    The two run in turn, ``rounds`` times (release, this tree, release, …),
    each in a child process of its own, and each turn is compared with the
    same turn of the same round: one run of each side has let the machine's
    drift between them (another process, the CPU's clock) decide the ratio
    (1.15 and then 1.02 within ten minutes, fifteenth pass).

    Returns:
        The ratios, and the turns' seconds on this tree and on ``revision``.
    """
    ratios: list[float] = []
    new_s: list[float] = []
    old_s: list[float] = []
    for _ in range(rounds):
        before = baseline_turns(revision, name, n_threads)
        after = baseline_turns(None, name, n_threads)
        for old, new in zip(before[1:], after[1:], strict=True):
            if len(new["expected"]) != 1 or old["request"] != new["request"]:
                continue
            ratios.append(new["total_s"] / old["total_s"])
            new_s.append(new["total_s"])
            old_s.append(old["total_s"])
    return ratios, new_s, old_s


def tables(
    models: list[str],
    *,
    n_threads: int | None = None,
    baseline: str | None = None,
    rounds: int = 1,
) -> list[str]:
    """One table per model, then a first-turn vs follow-up summary.

    With ``baseline`` (a git revision), the same conversation also runs on
    that release first, and the summary gives the follow-up one-tool turn as
    a ratio to it. With ``rounds`` above one, that ratio is the median of
    ``matched_ratios`` instead, with its range.
    """
    out: list[str] = []
    summary: list[list[str]] = []
    for name in models:
        matched = (
            matched_ratios(baseline, name, n_threads, rounds) if baseline and rounds > 1 else None
        )
        before = baseline_turns(baseline, name, n_threads) if baseline and not matched else None
        load_s, turns, cached, typed = run_model(name, n_threads=n_threads)
        lines = []
        kinds = [
            "first",
            *["follow-up"] * (len(turns) - 1),
            "first, new process, prompt cache",
            f"first, new chat, typed in {TYPING_S:.0f} s",
            f"first, new chat, typed in {TYPING_S:.0f} s, prompt cache",
        ]
        for kind, turn in zip(kinds, [*turns, cached, *typed], strict=True):
            lines.append(
                [
                    turn.request,
                    kind,
                    _s(turn.first_tool_s),
                    _s(turn.first_token_s),
                    _s(turn.total_s),
                    _s(turn.floor_s),
                    "—" if not turn.floor_s else f"{turn.total_s / turn.floor_s:.2f}",
                    ", ".join(turn.tools) or "none",
                    "yes" if turn.tools_ok and not turn.error else "NO",
                    (turn.error or turn.answer)[:70],
                ]
            )
        threads = "all cores" if n_threads is None else f"{n_threads} threads"
        out.append(
            render_plain(
                f"Embedded model llamacpp:{name} ({threads}; load {load_s:.2f} s): "
                "seconds per turn, one conversation",
                [
                    "request",
                    "turn",
                    "first tool call s",
                    "first answer token s",
                    "total s",
                    "floor s",
                    "total / floor",
                    "tools called",
                    "right tools",
                    "answer",
                ],
                lines,
            )
        )
        follow = [t for t in turns[1:] if not t.error]
        one_tool = [t for t in follow if len(t.expected) == 1]
        ratios = [t.total_s / t.floor_s for t in one_tool if t.floor_s]
        token_ratios = [
            t.first_token_s / t.floor_s for t in follow if t.floor_s and t.first_token_s
        ]
        against = "—"
        if matched is not None and matched[0]:
            ratios_m, new_m, old_m = matched
            against = (
                f"{_median(ratios_m):.2f} ({min(ratios_m):.2f}–{max(ratios_m):.2f} over "
                f"{len(ratios_m)} matched turns, {rounds} rounds; "
                f"{_s(_median(new_m))} s vs {_s(_median(old_m))} s)"
            )
        elif before is not None:
            old = [r["total_s"] for r in before[1 : len(turns)] if len(r["expected"]) == 1]
            new_median, old_median = _median([t.total_s for t in one_tool]), _median(old)
            if new_median and old_median:
                against = f"{new_median / old_median:.2f} ({_s(old_median)} s)"
        summary.append(
            [
                name,
                _s(turns[0].first_token_s),
                _s(turns[0].total_s),
                _s(cached.total_s),
                f"{_s(typed[0].first_token_s)} / {_s(typed[1].first_token_s)}",
                _s(_median([t.first_token_s for t in follow if t.first_token_s is not None])),
                _s(_median([t.total_s for t in one_tool])),
                _s(_median(ratios)),
                _s(_median(token_ratios)),
                against,
                f"{sum(t.tools_ok and not t.error for t in turns)}/{len(turns)}",
            ]
        )
    out.append(
        render_plain(
            "Embedded model summary: first turn vs follow-up turns (prefix cache), seconds",
            [
                "model",
                "first turn: first token",
                "first turn: total",
                "first turn, new process, prompt cache: total",
                f"new chat, first request typed in {TYPING_S:.0f} s: first token (cold / cache)",
                "follow-up: median first token (target < 2.5 s)",
                "follow-up one-tool turn: median total (target < 4 s for embedded)",
                "follow-up one-tool turn: median total / floor",
                "follow-up: median first token / floor",
                f"follow-up one-tool turn vs {baseline or 'a baseline'}: median ratio",
                "turns with the right tools",
            ],
            summary,
        )
    )
    return out


def _median(values: list[float]) -> float | None:
    import statistics

    return statistics.median(values) if values else None


def _main(argv: list[str] | None = None) -> int:
    """``python -m bench.model_e2e --json``: the conversation's turns as JSON (for a baseline)."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m bench.model_e2e")
    parser.add_argument("--json", action="store_true", help="print the turns as JSON")
    parser.add_argument("--model", default="embedded")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="springtail-bench-") as folder:
        cache = Path(folder) / "prompt-cache"
        _, model = _load(args.model, args.threads, cache)
        try:
            client = _client(model, Path(folder))
            turns = [_run_and_report(args.model, client, t, e) for t, e in REQUESTS]
        finally:
            _close(model)
    rows = [
        {
            "request": t.request,
            "expected": list(t.expected),
            "total_s": t.total_s,
            "first_token_s": t.first_token_s,
            "tools": t.tools,
        }
        for t in turns
    ]
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
