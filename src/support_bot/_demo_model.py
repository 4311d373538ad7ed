"""``--model scripted:demo``: a deterministic model for tests, demos and the load benchmark.

A real model is slow and never answers the same way twice; the web service's
tests, the browser test and ``bench/serve_load.py`` need answers that are
instant and known in advance, for any number of conversations at once. This
model reads the last message and replies by rule, through springtail's
``ScriptedChatModel`` (one single-reply script per call), so it streams
exactly the way the scripted model does:

- "reserve N of SKU-X" → a ``product_reserve`` call;
- "stock of SKU-X" / "look up SKU-X" → a ``product_lookup`` call;
- "A times B" → a ``calculate`` call;
- "add a to-do: T" → a ``todo_add`` call;
- tool results → "Done: <the results>.";
- anything else → "You said: <the text>".
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Final

from springtail import (
    AssistantMessage,
    ChatModel,
    ChatOptions,
    ChatResponse,
    Prompt,
    ScriptedChatModel,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)
from support_bot.tool_names import CALCULATE, PRODUCT_LOOKUP, PRODUCT_RESERVE, TODO_ADD

__all__ = ["DEMO_MODEL_URI", "DemoChatModel"]

DEMO_MODEL_URI: Final = "scripted:demo"

_RESERVE = re.compile(r"reserve\s+(\d+)\s+(?:units?\s+)?(?:of\s+)?(sku[\s_-]*\d+)", re.IGNORECASE)
_LOOKUP = re.compile(r"(?:stock\s+of|look\s*up)\s+(sku[\s_-]*\d+)", re.IGNORECASE)
_TIMES = re.compile(r"(-?\d+(?:\.\d+)?)\s*(?:times|\*|x)\s*(-?\d+(?:\.\d+)?)", re.IGNORECASE)
_TODO = re.compile(r"add\s+(?:a\s+)?to-?do:?\s*(.+)", re.IGNORECASE)


class DemoChatModel(ChatModel):
    """Answers by rule from the last message; safe for any number of concurrent turns."""

    def __init__(self) -> None:
        self.default_options = ChatOptions()

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """The rule's reply, whole."""
        return await ScriptedChatModel([reply_for(prompt)]).acall(prompt)

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """The rule's reply, streamed word by word."""
        async for chunk in ScriptedChatModel([reply_for(prompt)]).astream(prompt):
            yield chunk

    def call(self, prompt: Prompt) -> ChatResponse:
        """The rule's reply, from sync code."""
        return ScriptedChatModel([reply_for(prompt)]).call(prompt)

    def stream(self, prompt: Prompt) -> Iterator[ChatResponse]:
        """The rule's reply, streamed from sync code."""
        return ScriptedChatModel([reply_for(prompt)]).stream(prompt)

    def __repr__(self) -> str:
        return "DemoChatModel()"


def reply_for(prompt: Prompt) -> AssistantMessage | str:
    """What the demo model answers to ``prompt``."""
    last = prompt.messages[-1] if prompt.messages else None
    if isinstance(last, ToolResponseMessage):
        results = "; ".join(r.response_data for r in last.responses)
        return f"Done: {results}"
    text = last.text if isinstance(last, UserMessage) else ""
    if match := _RESERVE.search(text):
        return _call(PRODUCT_RESERVE, sku=match.group(2), quantity=int(match.group(1)))
    if match := _LOOKUP.search(text):
        return _call(PRODUCT_LOOKUP, sku=match.group(1))
    if match := _TIMES.search(text):
        return _call(CALCULATE, operation="multiply", left=match.group(1), right=match.group(2))
    if match := _TODO.search(text):
        return _call(TODO_ADD, title=match.group(1).strip())
    return f"You said: {text}"


def _call(name: str, **arguments: object) -> AssistantMessage:
    # Random, not counted: a decision names its call by id, and several processes make
    # calls in one conversation, so a counter's "demo-1" could name another process's call.
    call = ToolCall(f"demo-{secrets.token_hex(6)}", name, json.dumps(arguments))
    return AssistantMessage("", (call,))
