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

An object may add ``"delay_s": 2.5``: the model takes that long to answer.
With ``SUPPORT_BOT_SCRIPT_LOG=<file>`` the script's position lives in that
file, not in the process: each call appends ``start N`` and, once answered,
``done N``, and the next call answers reply N+1 after the last ``done``. So a
process that replaces a killed one goes on where the script was, a call that
the kill interrupted is answered again by the same reply, and the file tells
a test which calls were made.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from springtail import (
    AssistantMessage,
    ChatModel,
    ChatOptions,
    ChatResponse,
    ModelError,
    ModelUnavailableError,
    Prompt,
    ScriptedChatModel,
    ToolCall,
    from_uri,
)
from springtail.models import mask_url
from support_bot._demo_model import DEMO_MODEL_URI, DemoChatModel

__all__ = [
    "DEFAULT_MODEL_URI",
    "SCRIPT_ENV",
    "SCRIPT_LOG_ENV",
    "LoggedScript",
    "build_model",
    "scripted_model_from_file",
]

DEFAULT_MODEL_URI = "llamacpp:embedded"
SCRIPT_ENV = "SUPPORT_BOT_SCRIPT"
SCRIPT_LOG_ENV = "SUPPORT_BOT_SCRIPT_LOG"


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


def scripted_model_from_file(path: Path) -> ChatModel:
    """A ``ScriptedChatModel`` replaying the replies written in ``path``.

    With ``$SUPPORT_BOT_SCRIPT_LOG`` set, or a reply with ``delay_s``, a
    ``LoggedScript`` (see the module's docstring).
    """
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"Cannot read the model script {path}: {exc}") from None
    if not isinstance(items, list):
        raise ValueError(f"The model script {path} must hold a JSON list of replies.")
    replies = [_reply(item, n) for n, item in enumerate(items)]
    delays = [float(item.get("delay_s", 0)) if isinstance(item, dict) else 0.0 for item in items]
    log = os.environ.get(SCRIPT_LOG_ENV, "").strip()
    if log or any(delays):
        return LoggedScript(replies, delays, Path(log) if log else None)
    return ScriptedChatModel(replies)


class LoggedScript(ChatModel):
    """Scripted replies with delays, whose position may live in a file (``SUPPORT_BOT_SCRIPT_LOG``).

    Args:
        replies: The replies, in order.
        delays: Seconds each reply takes.
        log: The position file; ``None`` keeps the position in the process.
    """

    def __init__(
        self,
        replies: list[AssistantMessage | str | ModelError],
        delays: list[float],
        log: Path | None,
    ) -> None:
        self.default_options = ChatOptions()
        self._replies = replies
        self._delays = delays
        self._log = log
        self._calls = 0
        self._lock = threading.Lock()

    def _begin(self) -> int:
        with self._lock:
            if self._log is None:
                index = self._calls
                self._calls += 1
                return index
            lines = self._log.read_text("ascii").split() if self._log.exists() else []
            index = sum(word == "done" for word in lines)
            with self._log.open("a", encoding="ascii") as out:
                out.write(f"start {index}\n")
            return index

    def _end(self, index: int) -> None:
        if self._log is not None:
            with self._lock, self._log.open("a", encoding="ascii") as out:
                out.write(f"done {index}\n")

    def _model(self, index: int) -> ScriptedChatModel:
        return ScriptedChatModel(self._replies[index : index + 1])

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """The next reply, after its delay."""
        index = self._begin()
        await asyncio.sleep(self._delay(index))
        response = await self._model(index).acall(prompt)
        self._end(index)
        return response

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """The next reply streamed, after its delay."""
        index = self._begin()
        await asyncio.sleep(self._delay(index))
        async for chunk in self._model(index).astream(prompt):
            yield chunk
        self._end(index)

    def call(self, prompt: Prompt) -> ChatResponse:
        """The next reply, after its delay, from sync code."""
        index = self._begin()
        time.sleep(self._delay(index))
        response = self._model(index).call(prompt)
        self._end(index)
        return response

    def stream(self, prompt: Prompt) -> Iterator[ChatResponse]:
        """The next reply streamed, after its delay, from sync code."""
        index = self._begin()
        time.sleep(self._delay(index))
        yield from self._model(index).stream(prompt)
        self._end(index)

    def _delay(self, index: int) -> float:
        return self._delays[index] if index < len(self._delays) else 0.0


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
