"""Put a streamed response back together.

Providers stream text deltas and complete tool calls; the tool loop, the
memory advisor and ``StreamResponse`` each need the whole response once the
stream ends. Text pieces are joined once at the end, so aggregating is linear
in the size of the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    ChatResponseMetadata,
    Generation,
    GenerationMetadata,
    ToolCall,
    Usage,
)

__all__ = ["StreamAggregator"]


class _Parts:
    __slots__ = ("extra", "finish_reason", "metadata", "texts", "tool_calls")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.tool_calls: list[ToolCall] = []
        self.finish_reason: str | None = None
        self.extra: Mapping[str, Any] = {}
        self.metadata: dict[str, Any] = {}


class StreamAggregator:
    """Collects the chunks of one streamed response.

    Texts are concatenated, tool calls collected in order, message metadata
    merged key by key (a later chunk's value wins), usage summed (a
    provider reports it once, in the last chunk; the tool loop adds earlier
    iterations' usage to a chunk of its own), and the last non-empty finish
    reason, id and model win.
    """

    __slots__ = ("_id", "_model", "_parts", "_usage")

    def __init__(self) -> None:
        self._parts: list[_Parts] = []
        self._usage = Usage()
        self._id: str | None = None
        self._model: str | None = None

    def add(self, chunk: ChatResponse) -> None:
        """Take one chunk into account."""
        meta = chunk.metadata
        if meta.usage.total_tokens or meta.usage.prompt_tokens or meta.usage.completion_tokens:
            self._usage = self._usage + meta.usage
        if meta.id is not None:
            self._id = meta.id
        if meta.model is not None:
            self._model = meta.model
        for index, generation in enumerate(chunk.results):
            while len(self._parts) <= index:
                self._parts.append(_Parts())
            parts = self._parts[index]
            output = generation.output
            if output.text:
                parts.texts.append(output.text)
            if output.tool_calls:
                parts.tool_calls.extend(output.tool_calls)
            if output.metadata:
                parts.metadata.update(output.metadata)
            if generation.metadata.finish_reason is not None:
                parts.finish_reason = generation.metadata.finish_reason
            if generation.metadata.extra:
                parts.extra = generation.metadata.extra

    @property
    def has_tool_calls(self) -> bool:
        """Whether any chunk so far carried a tool call."""
        return any(parts.tool_calls for parts in self._parts)

    def response(self) -> ChatResponse:
        """The whole response the chunks add up to."""
        generations = tuple(
            Generation(
                AssistantMessage("".join(parts.texts), tuple(parts.tool_calls), parts.metadata),
                GenerationMetadata(parts.finish_reason, parts.extra),
            )
            for parts in self._parts
        )
        return ChatResponse(generations, ChatResponseMetadata(self._id, self._model, self._usage))
