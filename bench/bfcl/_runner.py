"""Running BFCL entries through springtail's ``ChatClient`` and scoring them.

Every request goes the way an application's does: a ``ChatClient`` with the
entry's tools, springtail's ``ToolCallingAdvisor`` and ``ToolCallingManager``
running the calls, and the provider the URI names. A recording advisor
inside the tool loop (it runs on every model call) keeps each model response,
so the scorer sees the calls exactly as the model returned them.

- **Single-turn categories** (AST and irrelevance): the tools run no code;
  each one answers ``"Done"`` and is return-direct, so the loop ends after
  the first response's calls ran. BFCL scores that first response (its
  single-turn inference queries the model once), and so does this runner.
- **multi_turn_base**: the tools are the methods of BFCL's API classes, live
  on the entry's instances; the turns are one conversation (a
  ``MessageChatMemoryAdvisor`` inside the loop keeps every call and result,
  as BFCL's chat history does), each turn runs until the model answers
  without a call, and after each turn :class:`MultiTurnJudge` checks state
  and results. A turn that fails ends the entry (later turns cannot change
  a failed verdict) unless ``all_turns`` is set.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bench.bfcl._checker import Verdict, ast_check, is_empty_output
from bench.bfcl._data import CATEGORIES, Entry
from bench.bfcl._multi_turn import MAX_STEPS, MultiTurnJudge
from bench.bfcl._schema import ToolNames, tool_definition, tool_names
from springtail import (
    HIGHEST_PRECEDENCE,
    AssistantMessage,
    ChatClient,
    ChatOptions,
    ChatResponse,
    InMemoryChatMemoryRepository,
    Message,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    Prompt,
    SystemMessage,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolContext,
    ToolDefinition,
    ToolMetadata,
    UserMessage,
)
from springtail.client import CallAdvisorChain, ChatClientRequest, ChatClientResponse
from springtail.models import ChatModel

__all__ = ["NEUTRAL_RESULT", "Outcome", "RunSettings", "decode_calls", "run_entry"]

NEUTRAL_RESULT = "Done"
"""What a single-turn tool answers: nothing the model could use."""

_LOOP_ORDER = HIGHEST_PRECEDENCE + 300
_MEMORY_ORDER = HIGHEST_PRECEDENCE + 400
_RECORDER_ORDER = HIGHEST_PRECEDENCE + 500
_MODEL_CALL_LIMIT = "modelCallLimitExceeded"
_LIMIT = 10_000
_TEXT_CHARS = 300

Decoded = list[dict[str, dict[str, Any]]]


@dataclass(frozen=True)
class RunSettings:
    """How each request is sent."""

    max_tokens: int | None = None
    temperature: float | None = None
    all_turns: bool = False
    """multi-turn: play every turn even after one failed (slower; same verdict)."""

    def options(self) -> ChatOptions:
        """The request options (``None`` fields keep the provider's defaults)."""
        return ChatOptions(max_tokens=self.max_tokens, temperature=self.temperature)


@dataclass(frozen=True)
class Outcome:
    """One entry's result."""

    id: str
    category: str
    passed: bool
    error_type: str = ""
    errors: tuple[str, ...] = ()
    calls: Any = None
    """AST and irrelevance: the first response's decoded calls (``None``: not decodable);
    multi-turn: one list of ``{name: arguments}`` per turn played."""
    seconds: float = 0.0
    turns_passed: int = 0
    """multi-turn: the turns that passed before the first failure (all of them on a pass)."""
    text: str = ""
    """The first response's text (single-turn) or the last turn's answer (multi-turn), cut
    to 300 characters: why a request got no call is often in it."""

    def as_json(self, *, details: bool = True) -> dict[str, Any]:
        """For ``--output``; without ``details`` only the verdict (final-only categories)."""
        data: dict[str, Any] = {
            "id": self.id,
            "category": self.category,
            "passed": self.passed,
            "error_type": self.error_type,
            "seconds": round(self.seconds, 2),
        }
        if details:
            data["errors"] = list(self.errors)
            data["calls"] = self.calls
            data["turns_passed"] = self.turns_passed
            data["text"] = self.text
        return data


class _Recorder:
    """An advisor inside the tool loop that keeps every model response of the request."""

    def __init__(self) -> None:
        self.responses: list[ChatResponse] = []

    @property
    def name(self) -> str:
        return "BfclRecorder"

    @property
    def order(self) -> int:
        return _RECORDER_ORDER

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        response = await chain.next_call(request)
        self.responses.append(response.chat_response)
        return response


class _NeutralTool:
    """A single-turn tool: runs no code, answers :data:`NEUTRAL_RESULT`, ends the loop."""

    def __init__(self, definition: ToolDefinition) -> None:
        self.tool_definition = definition
        self.tool_metadata = ToolMetadata(return_direct=True, is_async=True)

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return NEUTRAL_RESULT

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return NEUTRAL_RESULT


class _LiveTool:
    """A multi-turn tool: one method of BFCL's API classes, run on the model's instances.

    It is async and never awaits, so the calls of one response run one at a
    time in the order the model wrote them, as BFCL executes them.
    """

    def __init__(self, definition: ToolDefinition, method: str, judge: MultiTurnJudge) -> None:
        self.tool_definition = definition
        self.tool_metadata = ToolMetadata(is_async=True)
        self._method = method
        self._judge = judge

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        try:
            arguments = json.loads(tool_input or "{}")
        except ValueError as exc:
            return f"Error during execution: the arguments are not JSON ({exc})"
        if not isinstance(arguments, dict):
            return "Error during execution: the arguments must be a JSON object"
        return self._judge.execute(self._method, arguments)

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return self.call(tool_input, tool_context)


def _messages(turn: Sequence[Mapping[str, Any]]) -> list[Message]:
    out: list[Message] = []
    for m in turn:
        role, content = m.get("role"), str(m.get("content") or "")
        if role == "system":
            out.append(SystemMessage(content))
        elif role == "assistant":
            out.append(AssistantMessage(content))
        else:
            out.append(UserMessage(content))
    return out


def decode_calls(response: ChatResponse | None, names: ToolNames) -> Decoded | None:
    """The first generation's calls as BFCL's FC handlers decode them, under BFCL's names.

    ``None`` when a call's arguments are not a JSON object (BFCL's decoder fails
    on them); ``[]`` when the response has no call.
    """
    generation = response.result if response is not None else None
    if generation is None:
        return []
    decoded: Decoded = []
    for call in generation.output.tool_calls:
        try:
            arguments = json.loads(call.arguments) if call.arguments.strip() else {}
        except ValueError:
            return None
        if not isinstance(arguments, dict):
            return None
        decoded.append({names.original(call.name): arguments})
    return decoded


def _manager() -> ToolCallingManager:
    # One call at a time, in order; no springtail limit below BFCL's own.
    return ToolCallingManager(
        max_concurrency=1, max_calls_per_tool=_LIMIT, max_total_tool_calls=_LIMIT
    )


def _single_turn(model: ChatModel, entry: Entry, settings: RunSettings) -> Outcome:
    names = tool_names(entry.functions)
    tools = [_NeutralTool(tool_definition(f, names.sent[f["name"]])) for f in entry.functions]
    recorder = _Recorder()
    client = ChatClient(
        model,
        tools=tools,
        options=settings.options(),
        advisors=[
            ToolCallingAdvisor(_manager(), order=_LOOP_ORDER, max_model_calls=2),
            recorder,
        ],
    )
    client.prompt(Prompt(_messages(entry.turns[0]))).call()
    first = recorder.responses[0] if recorder.responses else None
    calls = decode_calls(first, names)
    if CATEGORIES[entry.category].kind == "irrelevance":
        passed = calls is None or is_empty_output(calls)
        verdict = (
            Verdict(True)
            if passed
            else Verdict(False, "irrelevance_error:decoder_success", ("a call was made",))
        )
    elif not calls:
        verdict = Verdict(False, "ast_decoder:decoder_failed", ("no decodable call",))
    else:
        verdict = ast_check(entry.category, entry.functions, calls, entry.answer)
    return Outcome(
        entry.id,
        entry.category,
        verdict.valid,
        verdict.error_type,
        verdict.errors,
        calls,
        text=_text(first),
    )


def _text(response: ChatResponse | None) -> str:
    generation = response.result if response is not None else None
    return generation.output.text[:_TEXT_CHARS] if generation is not None else ""


def _multi_turn(model: ChatModel, entry: Entry, settings: RunSettings) -> Outcome:
    judge = MultiTurnJudge(entry)
    names = tool_names(entry.functions)
    tools = [
        _LiveTool(tool_definition(f, names.sent[f["name"]]), f["name"], judge)
        for f in entry.functions
    ]
    recorder = _Recorder()
    memory = MessageWindowChatMemory(InMemoryChatMemoryRepository(), max_messages=_LIMIT)
    client = ChatClient(
        model,
        tools=tools,
        options=settings.options(),
        advisors=[
            ToolCallingAdvisor(_manager(), order=_LOOP_ORDER, max_model_calls=MAX_STEPS + 1),
            MessageChatMemoryAdvisor(memory, conversation_id=entry.id, order=_MEMORY_ORDER),
            recorder,
        ],
    )
    played: list[list[dict[str, Any]]] = []
    answer = ""
    first_failure: Verdict | None = None
    passed_turns = 0
    for turn in entry.turns:
        recorder.responses.clear()
        response = client.prompt(Prompt(_messages(turn))).call().chat_response()
        steps = [decode_calls(r, names) for r in recorder.responses]
        calls = [c for s in steps if s for c in s]
        played.append(calls)
        for _ in range(sum(1 for s in steps if s)):
            judge.step()
        last = response.result
        answer = _text(response)
        finish = last.metadata.finish_reason if last is not None else None
        force_quit = finish == _MODEL_CALL_LIMIT
        verdict = judge.end_turn(force_quit=force_quit)
        if verdict.valid and first_failure is None:
            passed_turns += 1
        elif first_failure is None:
            first_failure = verdict
        if force_quit or (first_failure is not None and not settings.all_turns):
            break
    if first_failure is None:
        return Outcome(
            entry.id, entry.category, True, calls=played, turns_passed=passed_turns, text=answer
        )
    return Outcome(
        entry.id,
        entry.category,
        False,
        first_failure.error_type,
        first_failure.errors,
        played,
        turns_passed=passed_turns,
        text=answer,
    )


def run_entry(
    model_for: Callable[[Entry], ChatModel], entry: Entry, settings: RunSettings | None = None
) -> Outcome:
    """Run one entry on the model ``model_for(entry)`` gives and score it.

    A provider error counts as a failure (``error_type`` ``"run_error"``), not
    a crash of the run: BFCL scores such an entry as failed too.
    """
    settings = settings or RunSettings()
    started = time.perf_counter()
    try:
        model = model_for(entry)
        if CATEGORIES[entry.category].kind == "multi_turn":
            outcome = _multi_turn(model, entry, settings)
        else:
            outcome = _single_turn(model, entry, settings)
    except Exception as exc:  # a failure is a result of the evaluation too
        outcome = Outcome(
            entry.id, entry.category, False, "run_error", (f"{type(exc).__name__}: {exc}",)
        )
    return replace(outcome, seconds=time.perf_counter() - started)
