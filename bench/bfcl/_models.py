"""The model each entry runs on: a provider URI, or one of two scripted stand-ins.

``scripted:oracle`` answers every entry with its own ground truth (the first
allowed value of each parameter; each multi-turn turn's ground-truth calls in
one response, then a short text), and ``scripted:silent`` never calls a tool.
They check the harness, not a model: the oracle must pass every AST and
multi-turn entry and fail every irrelevance entry, the silent one the
opposite. Any other URI goes to ``springtail.models.from_uri``, built once and
shared by every entry.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bench.bfcl._data import CATEGORIES, Entry
from bench.bfcl._multi_turn import Backend, parse_call
from bench.bfcl._schema import tool_names
from springtail import AssistantMessage, ScriptedChatModel, ToolCall
from springtail.models import ChatModel, from_uri

__all__ = ["SCRIPTED", "model_factory", "oracle_script"]

SCRIPTED = ("scripted:oracle", "scripted:silent")
_SILENT_TEXT = "I cannot help with that using the tools I have."
_TURN_END = "Done."


_ABSENT = object()


def _first(allowed: list[Any]) -> Any:
    """The first allowed value (``_ABSENT`` when only ``""``, "may be absent", is allowed).

    A dict's allowed value holds an allowed list per key, and a list of dicts
    holds such dicts: those are resolved the same way, key by key.
    """
    value = next((v for v in allowed if v != ""), _ABSENT)
    if isinstance(value, dict):
        return _pick(value)
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [_pick(v) for v in value]
    return value


def _pick(allowed_by_key: dict[str, Any]) -> dict[str, Any]:
    picked = {}
    for key, allowed in allowed_by_key.items():
        value = _first(allowed) if isinstance(allowed, list) else allowed
        if value is not _ABSENT:
            picked[key] = value
    return picked


def oracle_script(entry: Entry) -> list[Any]:
    """The replies that answer ``entry`` exactly as its ground truth does."""
    names = tool_names(entry.functions)
    kind = CATEGORIES[entry.category].kind
    if kind == "irrelevance":
        return [_SILENT_TEXT]
    if kind == "ast":
        answers = tuple(
            ToolCall(f"call_{i}", names.sent.get(name, name), json.dumps(_pick(args)))
            for i, answer in enumerate(entry.answer)
            for name, args in answer.items()
        )
        return [AssistantMessage(tool_calls=answers), _TURN_END]
    backend = Backend(entry)
    script: list[Any] = []
    for t, truth in enumerate(entry.answer):
        calls: list[ToolCall] = []
        for i, text in enumerate(truth):
            name, args, kwargs = parse_call(text)
            arguments = backend.keyword_arguments(name, args, kwargs)
            calls.append(
                ToolCall(f"call_{t}_{i}", names.sent.get(name, name), json.dumps(arguments))
            )
        if calls:
            script.append(AssistantMessage(tool_calls=tuple(calls)))
        script.append(_TURN_END)
    return script


def model_factory(uri: str, threads: int | None = None) -> Callable[[Entry], ChatModel]:
    """``entry -> model`` for ``uri``; ``threads`` goes to the embedded model only."""
    if uri == "scripted:oracle":
        return lambda entry: ScriptedChatModel(oracle_script(entry))
    if uri == "scripted:silent":
        return lambda entry: ScriptedChatModel([_SILENT_TEXT] * len(entry.turns))
    if uri.startswith("scripted:"):
        raise ValueError(f"Unknown scripted model {uri!r}: use one of {', '.join(SCRIPTED)}.")
    kwargs: dict[str, Any] = {}
    if threads is not None and uri.partition(":")[0].strip().lower() == "llamacpp":
        kwargs["n_threads"] = threads
    model = from_uri(uri, **kwargs)
    return lambda entry: model
