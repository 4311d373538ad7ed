"""Tool search at 113 tools: support-bot's 13 plus 100 from other domains (``distractors.py``).

Two parts, both on the cases of ``bench/matrix`` for support-bot's tools:

- ``scripted``: what each way of offering tools gives the model (do the
  offered tools hold the expected ones, how many tools and estimated
  tokens), and what retrieval costs per request (the scripted model answers
  at once, so the time is the framework's).
- ``model``: the embedded model over the matrix's one-tool and
  same-tool-twice requests (both halves, the held-out half's texts hidden in
  the log) under the matrix's four system prompts, with the 13 tools, with
  all 113, and with all 113 behind tool search as ``support-bot --mcp`` sets
  it up: the share passed and the prompt tokens of each model call.

    python -m bench --only tool-search              # the scripted part (seconds)
    python -m bench --only tool-search-model        # the embedded model (minutes)
    python -m bench.tool_search [scripted|model] [--prompt NAME ...]
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._timing import render_plain, time_calls
from bench.distractors import distractor_tools
from bench.matrix._cases import Case, ToolSet
from bench.matrix._prompts import PROMPTS
from bench.matrix._run import Runner, Selection, TurnResult
from bench.matrix._shop import SHOP
from springtail import (
    ChatClient,
    ChatClientRequest,
    ChatClientResponse,
    ChatOptions,
    Prompt,
    ScriptedChatModel,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolSearch,
    UserMessage,
    estimated_tool_tokens,
)
from springtail.client import CallAdvisorChain
from support_bot._tool_search import plan_tool_search
from support_bot.steps import SYSTEM_PROMPT

RETRIEVAL_TARGET_S = 1e-3
"""Issue 25: retrieval adds under 1 ms per request at 113 tools."""

PROMPT_TARGET = 2500
"""Issue 25: the embedded model's prompt stays under 2,500 tokens at 113 tools."""

POINTS_TARGET = 5
"""Issue 25: within 5 points of the 13-tool figure."""

KINDS = frozenset({"single", "twice"})


def large_set() -> list[Any]:
    """Support-bot's 13 tools over a fresh store, then the 100 others."""
    return [*SHOP.build(), *distractor_tools()]


def bot_search() -> ToolSearch:
    """The setting ``support-bot --mcp`` picks for 113 tools on the embedded model."""

    class _Embedded:
        n_ctx = 4096

    plan = plan_tool_search(_Embedded(), large_set(), system_prompt=SYSTEM_PROMPT)  # type: ignore[arg-type]
    assert plan is not None, "113 tools must turn tool search on"
    return plan.search


# -- scripted: what is offered, and what it costs ----------------------------------------


@dataclass(frozen=True)
class Request:
    text: str
    kind: str
    expected: frozenset[str]


def requests() -> list[Request]:
    """Every request of the matrix's support-bot cases that expects a tool."""
    out = []
    for case in SHOP.cases:
        for turn in case.turns:
            if turn.calls:
                out.append(Request(turn.request, case.kind, frozenset(c.name for c in turn.calls)))
    return out


def _offered_first(tools: Sequence[Any], search: ToolSearch | None, text: str) -> list[Any]:
    model = ScriptedChatModel(["ok"])
    loop = ToolCallingAdvisor(tool_search=search)
    ChatClient(model, system=SYSTEM_PROMPT, tools=tools, advisors=[loop]).prompt(text).call()
    options = model.prompts[0].options
    return list(options.tool_callbacks) if options is not None else []


def offered_table() -> str:
    tools = large_set()
    found_by_search = ToolSearch(mode="search_tool", max_tools=8)
    configs: list[tuple[str, list[Any], ToolSearch | None]] = [
        ("13 tools (support-bot alone)", tools[:13], None),
        ("113 tools, no search", tools, None),
        ("113, retrieve as support-bot --mcp (≤ 6, ≤ 900 tokens, ratio 0.3)", tools, bot_search()),
        ("113, retrieve: top 8", tools, ToolSearch(max_tools=8)),
        ("113, search tool: first call (tool_search + always-on)", tools, found_by_search),
    ]
    cases = requests()
    lines = []
    for label, toolset, search in configs:
        hits, counts, tokens = 0, [], []
        for request in cases:
            offered = _offered_first(toolset, search, request.text)
            names = {cb.tool_definition.name for cb in offered}
            hits += request.expected <= names
            counts.append(len(offered))
            tokens.append(sum(estimated_tool_tokens(cb.tool_definition) for cb in offered))
        lines.append(
            [
                label,
                f"{hits}/{len(cases)}" if "first call" not in label else "— (it searches)",
                f"{statistics.mean(counts):.1f}",
                f"{statistics.mean(tokens):,.0f} (max {max(tokens):,})",
            ]
        )
    index = ToolSearch(max_tools=8)._indexed(tools).index
    found = sum(r.expected <= {h.name for h in index.search(r.text, limit=5)} for r in cases)
    label = "113, search tool: tool_search(<the request>) finds, 5 results"
    lines.append([label, f"{found}/{len(cases)}", "", ""])
    return render_plain(
        f"Tool search, scripted model: what the first model call is offered "
        f"({len(cases)} requests of bench/matrix's support-bot cases that expect a tool)",
        ["tools offered", "expected tools offered", "tools per call", "est. tool tokens per call"],
        lines,
    )


def _request(tools: Sequence[Any], text: str) -> ChatClientRequest:
    options = ChatOptions(tool_callbacks=tuple(tools))
    return ChatClientRequest(Prompt([UserMessage(text)], options))


def overhead_table(quick: bool) -> str:
    tools = large_set()
    texts = [r.text for r in requests()]
    repeat, number = (5, 50) if quick else (15, 200)

    def build() -> None:
        ToolSearch(max_tools=8)._indexed(tools)

    build_stats = time_calls(build, repeat=repeat, number=5)

    search = bot_search()
    search._indexed(tools)  # built once, as a running application has it
    prepared = [_request(tools, t) for t in texts]
    position = [0]

    def offer() -> None:
        position[0] = (position[0] + 1) % len(prepared)
        search.begin_turn().offer(prepared[position[0]])

    offer_stats = time_calls(offer, repeat=repeat, number=number)

    def end_to_end(search: ToolSearch | None) -> Callable[[], None]:
        n = repeat * number + 10
        model = ScriptedChatModel(["ok"] * n)
        loop = ToolCallingAdvisor(tool_search=search)
        client = ChatClient(model, system=SYSTEM_PROMPT, tools=tools, advisors=[loop])
        turn = [0]

        def run() -> None:
            turn[0] = (turn[0] + 1) % len(texts)
            client.prompt(texts[turn[0]]).call()

        return run

    plain = time_calls(end_to_end(None), repeat=repeat, number=number)
    searched = time_calls(end_to_end(bot_search()), repeat=repeat, number=number)
    added = searched.median - plain.median

    def verdict(seconds: float) -> str:
        return "PASS" if seconds < RETRIEVAL_TARGET_S else "MISS"

    lines = [
        ["index build, 113 tools (once per tool set)", f"{build_stats.median * 1e3:.2f} ms", "—"],
        [
            "retrieval: ToolSearchTurn.offer() for one request",
            f"{offer_stats.median * 1e6:.0f} µs",
            f"< 1 ms {verdict(offer_stats.median)}",
        ],
        ["request, scripted model, 113 tools, no search", f"{plain.median * 1e6:.0f} µs", "—"],
        ["request, scripted model, 113 tools, retrieve", f"{searched.median * 1e6:.0f} µs", "—"],
        ["retrieval adds per request", f"{added * 1e6:.0f} µs", f"< 1 ms {verdict(added)}"],
    ]
    return render_plain(
        "Tool search, scripted model: what it costs at 113 tools (median)",
        ["what", "time", "target"],
        lines,
    )


def scripted_tables(quick: bool = False) -> list[str]:
    """The scripted part's tables."""
    return [offered_table(), overhead_table(quick)]


# -- the embedded model -----------------------------------------------------------------


@dataclass
class _Usage:
    """An advisor inside the loop: the prompt tokens and offered tools of each model call."""

    calls: list[tuple[int, int]] = field(default_factory=list)
    name: str = "usage"
    order: int = 0  # inside the loop (the loop's order is HIGHEST_PRECEDENCE + 300)

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        response = await chain.next_call(request)
        options = request.prompt.options
        tools = len(options.tool_callbacks) if options is not None else 0
        self.calls.append((response.chat_response.metadata.usage.prompt_tokens, tools))
        return response


@dataclass
class _SearchRunner(Runner):
    """The matrix's runner, with tool search in its loop and the usage advisor inside it."""

    search: ToolSearch | None = None
    usage: _Usage = field(default_factory=_Usage)

    def _client(self, tools: list[Any], system: str | None, layout: Any) -> ChatClient:
        loop = ToolCallingAdvisor(
            tool_calling_manager=ToolCallingManager(approver=lambda c, d: True),
            tool_search=self.search,
        )
        return ChatClient(
            self.model,
            system=system,
            tools=tools,
            options=ChatOptions(max_tokens=200),
            advisors=[loop, self.usage],
        )


_TOO_LONG = re.compile(r"The prompt is (\d+) tokens")


@dataclass
class _Config:
    label: str
    tool_set: ToolSet
    search: ToolSearch | None
    results: list[TurnResult] = field(default_factory=list)
    prompt_tokens: list[int] = field(default_factory=list)
    tools_offered: list[int] = field(default_factory=list)
    seconds: float = 0.0


def _cases(extra: bool) -> ToolSet:
    cases: tuple[Case, ...] = tuple(c for c in SHOP.cases if c.kind in KINDS)
    if not extra:
        return ToolSet("shop", SHOP.build, cases)
    return ToolSet("shop+100", large_set, cases)


def model_tables(
    model_name: str = "embedded",
    n_threads: int | None = None,
    prompts: Sequence[str] = tuple(PROMPTS),
) -> list[str]:
    """Run the embedded model over the selected matrix cases, per configuration."""
    from springtail.models import LlamaCppChatModel

    chosen = {name: PROMPTS[name] for name in prompts}

    # Tool search first: on a busy machine it is the figure a cut-short run must not lose.
    configs = [
        _Config("113 tools, retrieve (support-bot --mcp)", _cases(True), bot_search()),
        _Config("13 tools", _cases(False), None),
        _Config("113 tools, no search", _cases(True), None),
    ]
    model = LlamaCppChatModel(model_name, n_threads=n_threads)
    try:
        for config in configs:
            runner = _SearchRunner(
                model, [config.tool_set], chosen, Selection(), search=config.search
            )

            def turn_done(result: TurnResult, config: _Config = config, r: Any = runner) -> None:
                calls = r.usage.calls
                if calls:
                    config.prompt_tokens.append(max(p for p, _ in calls))
                    config.tools_offered.append(max(t for _, t in calls))
                elif (found := _TOO_LONG.search(result.error)) is not None:
                    config.prompt_tokens.append(int(found.group(1)))
                r.usage.calls = []
                config.results.append(result)
                line = result.line(reveal=False)  # the held-out half is run, never read
                print(f"[{config.label}] {line}", file=sys.stderr, flush=True)

            started = time.perf_counter()
            runner.run(on_turn=turn_done)
            config.seconds = time.perf_counter() - started
    finally:
        model.close()
    return [_model_table(model_name, configs, prompts)]


def _model_table(model_name: str, configs: list[_Config], prompts: Sequence[str]) -> str:
    base = next(c for c in configs if c.label == "13 tools")
    base_share = _share(base.results)
    lines = []
    for config in configs:
        share = _share(config.results)
        tokens = config.prompt_tokens
        target = ""
        if config is not base and config.search is not None:
            within = base_share - share <= POINTS_TARGET
            under = bool(tokens) and max(tokens) < PROMPT_TARGET
            target = (
                f"≥ {base_share - POINTS_TARGET:.0f}% {'PASS' if within else 'MISS'}; "
                f"prompt < {PROMPT_TARGET:,} {'PASS' if under else 'MISS'}"
            )
        errors = sum(bool(r.error) for r in config.results)
        lines.append(
            [
                config.label,
                f"{sum(r.passed for r in config.results)}/{len(config.results)}",
                f"{share:.0f}%",
                f"{statistics.median(tokens):,.0f} / {max(tokens):,}" if tokens else "—",
                f"{statistics.mean(config.tools_offered):.1f}" if config.tools_offered else "—",
                str(errors),
                f"{config.seconds / max(len(config.results), 1):.1f}",
                target,
            ]
        )
    return render_plain(
        f"Tool search, llamacpp:{model_name}: bench/matrix's support-bot one-tool and "
        f"same-tool-twice requests, both halves, system prompts: {', '.join(prompts)}",
        [
            "tools",
            "passed",
            "share",
            "prompt tokens median / max",
            "tools per call",
            "errors",
            "s per request",
            "target",
        ],
        lines,
    )


def _share(results: list[TurnResult]) -> float:
    return 100.0 * sum(r.passed for r in results) / len(results) if results else 0.0


def main(argv: list[str] | None = None) -> int:
    args = list(argv if argv is not None else sys.argv[1:])
    prompts: list[str] = []
    while "--prompt" in args:
        at = args.index("--prompt")
        prompts.append(args[at + 1])
        del args[at : at + 2]
    for part in args or ["scripted"]:
        if part == "scripted":
            tables = scripted_tables()
        else:
            tables = model_tables(prompts=prompts or tuple(PROMPTS))
        for text in tables:
            print(text, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
