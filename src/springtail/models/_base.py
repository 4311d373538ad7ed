"""The ChatModel extension point and the errors every provider shares."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Protocol, runtime_checkable

from springtail.messages import ChatOptions, ChatResponse, Prompt

__all__ = ["ChatModel", "ModelError", "ModelUnavailableError"]


@runtime_checkable
class ChatModel(Protocol):
    """A chat model: sends tool definitions, returns tool calls, never runs tools.

    ``stream`` and ``astream`` yield partial responses: text deltas as they
    arrive, and each tool call once it is complete (providers assemble the
    fragments of a call before yielding it). ``astream`` is an async
    generator function.
    """

    default_options: ChatOptions

    def call(self, prompt: Prompt) -> ChatResponse: ...

    async def acall(self, prompt: Prompt) -> ChatResponse: ...

    def stream(self, prompt: Prompt) -> Iterator[ChatResponse]: ...

    def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]: ...


class ModelError(Exception):
    """A model call failed in a way the caller should hear about."""


class ModelUnavailableError(ModelError):
    """The model cannot be reached or loaded; the message says what to start or install."""
