"""ScriptedChatModel: a ChatModel that answers from a list, for testing the tool loop.

A real model is slow and never says the same thing twice, which makes it a poor
fixture for testing *your* code around it: the loop, advisors, memory, the UI.
A scripted model replies with exactly what the test wrote down, in order, and
records what it was asked, so a test can assert both sides of the exchange.
It streams the way real providers do (text in several deltas, each tool call
complete, usage at the end), so streaming consumers are exercised too.
"""

from __future__ import annotations

import re
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import replace
from typing import TypeAlias

from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    ChatResponseMetadata,
    Generation,
    Prompt,
    Usage,
)
from springtail.models._base import ChatModel, ModelError

__all__ = ["ScriptExhaustedError", "ScriptItem", "ScriptedChatModel"]

ScriptReply: TypeAlias = ChatResponse | AssistantMessage | str | BaseException
"""A reply as written in a script; an exception instance is raised instead of answered."""

ScriptItem: TypeAlias = ScriptReply | Callable[[Prompt], ScriptReply]
"""One item of a script: a reply, or a function of the prompt that returns one."""

_WORDS = re.compile(r"\s*\S+\s*|\s+")


class ScriptExhaustedError(ModelError):
    """The scripted model was called more often than its script has replies.

    This almost always means the code under test made an unexpected extra
    model call (a loop that did not stop, a retry), so the message says how
    many replies were used and shows the prompt that asked for one more.
    """

    def __init__(self, replies: int, prompt: Prompt) -> None:
        last = prompt.messages[-1] if prompt.messages else None
        super().__init__(
            f"ScriptedChatModel ran out of script after {replies} "
            f"{'reply' if replies == 1 else 'replies'}; it was called once more with "
            f"{len(prompt.messages)} message(s), the last being {last!r}. "
            "Add a reply to the script, or check why the code under test calls the model again."
        )
        self.replies = replies
        self.prompt = prompt


class ScriptedChatModel(ChatModel):
    """A deterministic chat model that replies with the items of ``script`` in order.

    Each ``call``/``acall``/``stream``/``astream`` consumes the next item. An
    item is a [`ChatResponse`][], an [`AssistantMessage`][] (text and/or
    tool calls), a plain ``str``, a callable ``(Prompt) -> any of those`` (to
    answer from what was asked), or an exception instance, which is raised so
    that error paths can be tested. Calling past the end raises
    [`ScriptExhaustedError`][]. Safe to call from several threads.

    Args:
        script: The replies, in the order they are given.
        default_options: What ``default_options`` reports; the model
            itself ignores options, but code that inspects them sees these.
    """

    def __init__(
        self,
        script: Iterable[ScriptItem],
        *,
        default_options: ChatOptions | None = None,
    ) -> None:
        self._script: list[ScriptItem] = list(script)
        self.default_options: ChatOptions = (
            default_options if default_options is not None else ChatOptions()
        )
        self._prompts: list[Prompt] = []
        self._lock = threading.Lock()

    @property
    def prompts(self) -> list[Prompt]:
        """Every prompt received so far, oldest first (a copy)."""
        with self._lock:
            return list(self._prompts)

    @property
    def remaining(self) -> int:
        """How many replies are left in the script."""
        with self._lock:
            return len(self._script) - len(self._prompts)

    def _next(self, prompt: Prompt) -> ChatResponse:
        with self._lock:
            used = len(self._prompts)
            if used >= len(self._script):
                raise ScriptExhaustedError(used, prompt)
            self._prompts.append(prompt)
            item = self._script[used]
        reply = item(prompt) if callable(item) else item
        return _to_response(reply)

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """Reply with the next item of the script."""
        return self._next(prompt)

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """Stream the next item: text in several deltas, tool calls and usage last."""
        for chunk in _chunks(self._next(prompt)):
            yield chunk

    def __repr__(self) -> str:
        return f"ScriptedChatModel({len(self._script)} replies, {self.remaining} left)"


def _to_response(reply: object) -> ChatResponse:
    if isinstance(reply, ChatResponse):
        return reply
    if isinstance(reply, AssistantMessage | str):
        return ChatResponse.of(reply)
    if isinstance(reply, BaseException):
        raise reply
    raise TypeError(
        f"A ScriptedChatModel reply must be a ChatResponse, an AssistantMessage, a str or an "
        f"exception (or a callable returning one), got {type(reply).__name__}: {reply!r}"
    )


def _chunks(response: ChatResponse) -> list[ChatResponse]:
    """Cut a response the way a streaming provider delivers it.

    Text comes word by word, each tool call complete in the last chunk, and
    the finish reason and usage only at the end. A response with several
    generations is delivered as one chunk, since providers stream one.
    """
    meta = response.metadata
    if len(response.results) != 1:
        return [response]
    generation = response.results[0]
    output = generation.output
    pieces = _WORDS.findall(output.text) if output.text else []
    partial_meta = ChatResponseMetadata(id=meta.id, model=meta.model, usage=Usage())
    chunks = [
        ChatResponse((Generation(AssistantMessage(piece)),), partial_meta) for piece in pieces
    ]
    last_output = AssistantMessage("", output.tool_calls, output.metadata)
    last = ChatResponse((replace(generation, output=last_output),), meta)
    if chunks and not output.tool_calls:
        # The last word carries the end of the response, as providers do.
        last = ChatResponse(
            (replace(generation, output=AssistantMessage(pieces[-1], (), output.metadata)),),
            meta,
        )
        chunks[-1] = last
        return chunks
    chunks.append(last)
    return chunks
