"""Running the matrix: each case through a real ChatClient, calls recorded, answer scored."""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bench.matrix._cases import (
    ANY,
    CONVERSATIONS,
    HIDDEN,
    Call,
    Case,
    Contains,
    Half,
    Kind,
    Language,
    OneOf,
    Origin,
    ToolSet,
    Turn,
)
from springtail import (
    HIGHEST_PRECEDENCE,
    ChatClient,
    ChatMemory,
    ChatOptions,
    InMemoryChatMemoryRepository,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    ToolCallingAdvisor,
    ToolCallingManager,
)

Layout = Literal["-", "outside", "inside"]
"""Where a conversation's memory advisor sits: at its default order (outside the tool loop)
or inside it (support-bot's ``final`` step); ``-`` for single requests."""

_LAYOUTS: tuple[Layout, Layout] = ("outside", "inside")
_MAX_TOKENS = 200
_HIDDEN = "(held out)"


def _approve(call: Any, definition: Any) -> bool:
    return True


class _Recording:
    """A tool that writes down each call it runs (name and parsed arguments), then runs it."""

    def __init__(self, inner: Any, log: list[tuple[str, dict[str, Any]]]) -> None:
        self._inner = inner
        self._log = log
        self.tool_definition = inner.tool_definition
        self.tool_metadata = inner.tool_metadata

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _record(self, tool_input: str) -> None:
        try:
            arguments = json.loads(tool_input or "{}")
        except ValueError:
            arguments = {"<unparsed>": tool_input}
        self._log.append((self.tool_definition.name, arguments))

    def call(self, tool_input: str, tool_context: Any = None) -> str:
        self._record(tool_input)
        return str(self._inner.call(tool_input, tool_context))

    async def acall(self, tool_input: str, tool_context: Any = None) -> str:
        self._record(tool_input)
        return str(await self._inner.acall(tool_input, tool_context))


@dataclass
class TurnResult:
    """What happened for one request."""

    tool_set: str
    prompt: str
    kind: Kind
    half: Half
    layout: Layout
    turn: Turn
    calls: list[tuple[str, dict[str, Any]]]
    answer: str
    seconds: float
    error: str = ""
    calls_ok: bool = False
    answer_ok: bool = False
    case: str = ""
    """Which case and prompt this is (``tool set:half:index:prompt``), for ``--cases``."""
    rules: list[str] = field(default_factory=list)
    """The small-model rules that decided something in this turn, by class name."""
    language: Language = "en"
    origin: Origin = "team"
    """Who wrote the tool set's tools."""
    position: int = 0
    """Which turn of its case this is (0: the first; a later turn of a conversation if more)."""

    def hidden(self, *, reveal: bool) -> bool:
        """Whether this turn's texts stay unprinted: a held-out turn unless ``reveal``, and a
        fresh turn always (nobody reads the fresh half, not even to debug a miss)."""
        return self.half == "fresh" or (self.half in HIDDEN and not reveal)

    @property
    def passed(self) -> bool:
        """Right calls, no unwanted call, and an answer that states the results."""
        return self.calls_ok and self.answer_ok and not self.error

    def line(self, *, reveal: bool = True) -> str:
        """One line for the log; a held-out turn's request, calls and answer only if ``reveal``."""
        mark = "ok  " if self.passed else ("CALL" if not self.calls_ok else "ANSW")
        if self.error:
            mark = "ERR "
        calls = ", ".join(f"{n}({json.dumps(a, ensure_ascii=False)})" for n, a in self.calls)
        answer = (self.error or self.answer).replace("\n", " ")
        request = self.turn.request
        if self.hidden(reveal=reveal):
            request, calls, answer = _HIDDEN, f"{len(self.calls)} call(s)", _HIDDEN
        return (
            f"{mark} {self.seconds:5.1f}s {self.tool_set:11} {self.prompt:11} {self.kind:9} "
            f"{self.layout:7} {request[:50]:50} | {calls or '-'} | {answer[:110]!r}"
        )

    def as_json(self, *, reveal: bool = True) -> dict[str, Any]:
        """For ``--output``; a held-out turn's texts only if ``reveal``, a fresh turn's never.

        A fresh turn keeps its ids, kind and pass or fail only: no text, no calls, no
        error, no rule that fired (which rule fires on a miss is a hint to tune on).
        """
        if self.half == "fresh":
            return {
                "case": self.case,
                "turn": self.position,
                "tool_set": self.tool_set,
                "origin": self.origin,
                "prompt": self.prompt,
                "language": self.language,
                "kind": self.kind,
                "half": self.half,
                "layout": self.layout,
                "calls_ok": self.calls_ok,
                "answer_ok": self.answer_ok,
                "passed": self.passed,
            }
        hide = self.hidden(reveal=reveal)
        return {
            "tool_set": self.tool_set,
            "prompt": self.prompt,
            "kind": self.kind,
            "half": self.half,
            "layout": self.layout,
            "request": _HIDDEN if hide else self.turn.request,
            "calls": len(self.calls) if hide else self.calls,
            "answer": _HIDDEN if hide else self.answer,
            "seconds": round(self.seconds, 2),
            "error": self.error.split(":", 1)[0] if hide else self.error,
            "calls_ok": self.calls_ok,
            "answer_ok": self.answer_ok,
            "passed": self.passed,
            "case": self.case,
            "turn": self.position,
            "origin": self.origin,
            "language": self.language,
            "rules": self.rules,
        }


@dataclass(frozen=True)
class Selection:
    """Which part of the matrix to run."""

    halves: frozenset[Half] = frozenset({"dev", "held-out"})
    tool_sets: frozenset[str] | None = None
    prompts: frozenset[str] | None = None
    kinds: frozenset[Kind] | None = None
    cases: frozenset[str] | None = None
    """Only these case ids (``TurnResult.case``), when set."""
    languages: frozenset[Language] = frozenset({"en"})

    def wants(self, tool_set: str, prompt: str, case: Case, case_id: str = "") -> bool:
        """Whether this case runs."""
        return (
            case.half in self.halves
            and case.language in self.languages
            and (self.tool_sets is None or tool_set in self.tool_sets)
            and (self.prompts is None or prompt in self.prompts)
            and (self.kinds is None or case.kind in self.kinds)
            and (self.cases is None or case_id in self.cases)
        )


@dataclass
class Runner:
    """Plays the selected cases on one model, grouped so the KV cache keeps each prefix."""

    model: Any
    tool_sets: Sequence[ToolSet]
    prompts: dict[str, str | None]
    selection: Selection = field(default_factory=Selection)

    def run(self, on_turn: Callable[[TurnResult], None] | None = None) -> list[TurnResult]:
        """Every selected turn's result, in the order they ran."""
        results: list[TurnResult] = []
        for tool_set in self.tool_sets:
            for p, (prompt_name, system) in enumerate(self.prompts.items()):
                for c, case in enumerate(tool_set.cases):
                    case_id = f"{tool_set.name}:{case.half}:{c}:{prompt_name}"
                    if not self.selection.wants(tool_set.name, prompt_name, case, case_id):
                        continue
                    layout: Layout = _LAYOUTS[(p + c) % 2] if case.kind in CONVERSATIONS else "-"
                    for result in self._play(tool_set, prompt_name, system, case, layout):
                        result.case = case_id
                        results.append(result)
                        if on_turn is not None:
                            on_turn(result)
        return results

    def _client(self, tools: list[Any], system: str | None, layout: Layout) -> ChatClient:
        options = ChatOptions(max_tokens=_MAX_TOKENS)
        # The user approves every call that asks (a reservation): approval is not on trial.
        loop = ToolCallingAdvisor(tool_calling_manager=ToolCallingManager(approver=_approve))
        if layout == "-":
            return ChatClient(
                self.model, system=system, tools=tools, options=options, advisors=[loop]
            )
        memory = MessageWindowChatMemory(InMemoryChatMemoryRepository(), max_messages=24)
        order = {"outside": {}, "inside": {"order": HIGHEST_PRECEDENCE + 400}}[layout]
        return ChatClient(
            self.model,
            system=system,
            tools=tools,
            options=options,
            advisors=[MessageChatMemoryAdvisor(memory, conversation_id="c", **order), loop],
        )

    def _play(
        self, tool_set: ToolSet, prompt: str, system: str | None, case: Case, layout: Layout
    ) -> Iterator[TurnResult]:
        log: list[tuple[str, dict[str, Any]]] = []
        tools = [_Recording(t, log) for t in tool_set.build()]
        client = self._client(tools, system, layout)
        for position, turn in enumerate(case.turns):
            log.clear()
            started = time.perf_counter()
            answer, error = "", ""
            with _RulesFired() as fired:
                try:
                    spec = client.prompt(turn.request)
                    if layout != "-":
                        spec = spec.advisor_param(ChatMemory.CONVERSATION_ID, "c")
                    answer = spec.call().content() or ""
                except Exception as exc:  # a failure is a result of the evaluation too
                    error = f"{type(exc).__name__}: {exc}"
            result = TurnResult(
                tool_set.name,
                prompt,
                case.kind,
                case.half,
                layout,
                turn,
                list(log),
                answer,
                time.perf_counter() - started,
                error,
                language=case.language,
                origin=tool_set.origin,
                position=position,
            )
            result.rules = sorted(set(fired.rules))
            result.calls_ok = calls_match(result.calls, turn.calls, ordered=turn.ordered)
            names = [t.tool_definition.name for t in tools]
            result.answer_ok = answer_states(answer, turn, names)
            yield result


class _RulesFired(logging.Handler):
    """Collects, while active, the names of the small-model rules that decided something."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.rules: list[str] = []
        self._logger = logging.getLogger("springtail.models.llamacpp")
        self._level = self._logger.level

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("rule "):
            self.rules.append(message[5:].split(":", 1)[0])

    def __enter__(self) -> _RulesFired:
        self._logger.addHandler(self)
        if not self._logger.isEnabledFor(logging.DEBUG):
            self._logger.setLevel(logging.DEBUG)
        return self

    def __exit__(self, *exc: object) -> None:
        self._logger.removeHandler(self)
        self._logger.setLevel(self._level)


def calls_match(
    got: Sequence[tuple[str, dict[str, Any]]], want: Sequence[Call], *, ordered: bool
) -> bool:
    """Exactly the expected calls: each matched once, nothing more (in order when it matters)."""
    if len(got) != len(want):
        return False
    if ordered:
        return all(_call_matches(g, w) for g, w in zip(got, want, strict=True))
    left = list(got)
    for expected in want:
        hit = next((g for g in left if _call_matches(g, expected)), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


def _call_matches(got: tuple[str, dict[str, Any]], want: Call) -> bool:
    name, arguments = got
    if name != want.name:
        return False
    if _arguments_match(arguments, want.arguments):
        return True
    if want.commutes is None:
        return False
    first, second = want.commutes
    swapped = dict(arguments)
    swapped[first], swapped[second] = arguments.get(second), arguments.get(first)
    return _arguments_match(swapped, want.arguments)


def _arguments_match(arguments: dict[str, Any], want: Mapping[str, Any]) -> bool:
    return all(key in arguments and _same(arguments[key], value) for key, value in want.items())


def _same(got: Any, want: Any) -> bool:
    if want is ANY:
        return True
    if isinstance(want, OneOf):
        return any(_same(got, option) for option in want.options)
    if isinstance(want, Contains):
        return isinstance(got, str) and all(w.lower() in got.lower() for w in want.words)
    if isinstance(want, bool):
        return got is want
    if isinstance(want, int | float):
        try:
            return float(got) == float(want)
        except (TypeError, ValueError):
            return False
    if isinstance(want, str):
        return isinstance(got, str) and _text(got) == _text(want)
    if isinstance(want, list):
        return (
            isinstance(got, list)
            and len(got) == len(want)
            and all(_same(g, w) for g, w in zip(got, want, strict=True))
        )
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _same(got[k], v) for k, v in want.items())
    return bool(got == want)


def _text(value: str) -> str:
    return value.strip().rstrip(".").lower()


_GROUPED = re.compile(r"(?<=\d)[,\u202f\u00a0 ](?=\d{3}\b)")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def answer_states(answer: str, turn: Turn, tool_names: Sequence[str] = ()) -> bool:
    """The answer holds one string of every group the turn expects, and talks to the user.

    An empty answer, or one that names a tool (it describes a call instead of
    answering), fails.
    """
    if not answer.strip() or "<tool_call>" in answer:
        return False
    if any(_names_tool(answer, name) for name in tool_names):
        return False
    text = _GROUPED.sub("", answer.lower())
    compact = re.sub(r"\s+", "", text)
    return all(any(_holds(text, compact, option) for option in group) for group in turn.answer)


def _names_tool(answer: str, name: str) -> bool:
    """Whether the answer names a tool as code (``todo_add``, `` `today` ``, ``today(``)."""
    return ("_" in name and name in answer) or f"`{name}" in answer or f"{name}(" in answer


def _holds(text: str, compact: str, option: str) -> bool:
    option = option.lower()
    if _NUMBER.match(option):
        pattern = rf"(?<![\d.]){re.escape(option)}{'0*' if '.' in option else ''}(?!\d)"
        return re.search(pattern, text) is not None or re.search(pattern, compact) is not None
    return option in text or option.replace(" ", "") in compact
