"""The Messages API on the wire: messages out, replies and stream events back in.

The translation ``AnthropicChatModel`` sends and reads, kept apart from the
model class so each module has one job. A reply that is not what the API
promises raises ``MalformedReplyError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    ChatResponseMetadata,
    Generation,
    GenerationMetadata,
    Message,
    SystemMessage,
    ToolResponseMessage,
    Usage,
    UserMessage,
)
from springtail.models._faults import MalformedReplyError, json_kind, snippet
from springtail.models._wire import (
    ToolCallAssembler,
    arguments_to_object,
    object_to_arguments,
    repair_tool_call,
    usage_value,
)

__all__ = ["StreamState", "response_from_message", "to_anthropic_messages", "tool_choice"]

_TOOL_CHOICE_KEYWORDS = {"auto": "auto", "any": "any", "none": "none", "required": "any"}


def tool_choice(value: Any) -> dict[str, Any]:
    """``auto``/``any``/``none`` (``required`` means ``any``), a tool's name, or a wire dict."""
    if value is None:
        return {"type": "auto"}
    if isinstance(value, Mapping):
        return dict(value)
    text = str(value)
    if text in _TOOL_CHOICE_KEYWORDS:
        return {"type": _TOOL_CHOICE_KEYWORDS[text]}
    return {"type": "tool", "name": text}


def to_anthropic_messages(
    messages: Sequence[Message],
) -> tuple[str, list[dict[str, Any]]]:
    """The system prompt and the alternating user/assistant turns of the Messages API.

    System messages are joined into the top-level system prompt. The tool
    results of one ToolResponseMessage become ``tool_result`` blocks of one
    user turn; adjacent turns of one role are merged, since the API rejects
    two in a row; empty text blocks, which the API rejects, are left out.
    """
    system: list[str] = []
    turns: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if not blocks:
            return
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})

    for message in messages:
        if isinstance(message, SystemMessage):
            if message.text:
                system.append(message.text)
        elif isinstance(message, UserMessage):
            add("user", [{"type": "text", "text": message.text}] if message.text else [])
        elif isinstance(message, AssistantMessage):
            blocks: list[dict[str, Any]] = []
            if message.text:
                blocks.append({"type": "text", "text": message.text})
            blocks.extend(
                {
                    "type": "tool_use",
                    "id": call.id,
                    "name": call.name,
                    "input": arguments_to_object(call.arguments),
                }
                for call in message.tool_calls
            )
            add("assistant", blocks)
        elif isinstance(message, ToolResponseMessage):
            results: list[dict[str, Any]] = []
            for r in message.responses:
                block: dict[str, Any] = {
                    "type": "tool_result",
                    "tool_use_id": r.id,
                    "content": r.response_data,
                }
                if r.is_error:
                    block["is_error"] = True
                results.append(block)
            add("user", results)
        else:  # pragma: no cover - the Message union is closed
            raise TypeError(f"Cannot send a {type(message).__name__} to Anthropic")
    return "\n\n".join(system), turns


def _usage(raw: Any) -> Usage:
    if raw is None:
        return Usage()
    prompt = usage_value(raw, "input_tokens")
    completion = usage_value(raw, "output_tokens")
    return Usage(prompt, completion, prompt + completion)


def response_from_message(message: Any) -> ChatResponse:
    if isinstance(message, str):
        raise MalformedReplyError(f"a text reply starting {snippet(message)!r}")
    if message is None or isinstance(message, list | int | float):
        raise MalformedReplyError(f"{json_kind(message)} where a reply object belongs")
    content = getattr(message, "content", None)
    if not isinstance(content, list):
        raise MalformedReplyError(f"a reply whose 'content' is {json_kind(content)}, not a list")
    try:
        return _read_message(message)
    except (AttributeError, TypeError) as exc:
        raise MalformedReplyError(f"a content block the API does not define: {exc}") from exc


def _read_message(message: Any) -> ChatResponse:
    texts: list[str] = []
    thinking: list[str] = []
    calls = []
    for block in message.content or ():
        kind = getattr(block, "type", None)
        if kind == "text":
            texts.append(block.text)
        elif kind == "tool_use":
            calls.append(
                repair_tool_call(
                    getattr(block, "id", None),
                    getattr(block, "name", None),
                    object_to_arguments(getattr(block, "input", None)),
                )
            )
        elif kind == "thinking":
            thinking.append(getattr(block, "thinking", ""))
    extra = {"thinking": "".join(thinking)} if thinking else {}
    return ChatResponse(
        (
            Generation(
                AssistantMessage(text="".join(texts), tool_calls=tuple(calls)),
                GenerationMetadata(finish_reason=message.stop_reason, extra=extra),
            ),
        ),
        ChatResponseMetadata(id=message.id, model=message.model, usage=_usage(message.usage)),
    )


class StreamState:
    """What a stream has said so far; turns raw events into springtail chunks."""

    def __init__(self) -> None:
        self.id: str | None = None
        self.model: str | None = None
        self.stop_reason: str | None = None
        self.input_tokens = 0
        self.output_tokens = 0
        self.calls = ToolCallAssembler()
        self.tool_blocks: set[int] = set()
        self.characters = 0

    def _metadata(self, usage: Usage | None = None) -> ChatResponseMetadata:
        return ChatResponseMetadata(id=self.id, model=self.model, usage=usage or Usage())

    def _chunk(
        self, message: AssistantMessage, extra: Mapping[str, Any] | None = None
    ) -> ChatResponse:
        return ChatResponse(
            (Generation(message, GenerationMetadata(extra=dict(extra or {}))),), self._metadata()
        )

    def add(self, event: Any) -> ChatResponse | None:
        """Take one event in; return the chunk it completes, if any.

        Raises:
            MalformedReplyError: The event is not one the API defines.
        """
        try:
            return self._add(event)
        except (AttributeError, TypeError) as exc:
            raise MalformedReplyError(f"a stream event the API does not define: {exc}") from exc

    def _add(self, event: Any) -> ChatResponse | None:
        kind = getattr(event, "type", None)
        if kind == "message_start":
            message = event.message
            self.id, self.model = message.id, message.model
            self.input_tokens = usage_value(message.usage, "input_tokens")
            self.output_tokens = usage_value(message.usage, "output_tokens")
        elif kind == "content_block_start":
            block = event.content_block
            if getattr(block, "type", None) == "tool_use":
                self.tool_blocks.add(event.index)
                initial = getattr(block, "input", None)
                self.calls.add(
                    event.index,
                    call_id=getattr(block, "id", None),
                    name=getattr(block, "name", None),
                    arguments=json.dumps(initial) if initial else None,
                )
            elif getattr(block, "type", None) == "text" and getattr(block, "text", ""):
                return self._chunk(AssistantMessage(text=block.text))
        elif kind == "content_block_delta":
            delta = event.delta
            delta_type = getattr(delta, "type", None)
            if delta_type == "text_delta":
                self.characters += len(delta.text)
                return self._chunk(AssistantMessage(text=delta.text))
            if delta_type == "input_json_delta":
                self.calls.add(event.index, arguments=delta.partial_json)
            elif delta_type == "thinking_delta":
                return self._chunk(AssistantMessage(), {"thinking": delta.thinking})
        elif kind == "content_block_stop":
            if event.index in self.tool_blocks:
                self.tool_blocks.discard(event.index)
                call = self.calls.pop(event.index)
                if call is not None:
                    return self._chunk(AssistantMessage(tool_calls=(call,)))
        elif kind == "message_delta":
            self.stop_reason = getattr(event.delta, "stop_reason", None) or self.stop_reason
            usage = getattr(event, "usage", None)
            if usage is not None:
                self.output_tokens = usage_value(usage, "output_tokens") or self.output_tokens
                self.input_tokens = usage_value(usage, "input_tokens") or self.input_tokens
        return None

    def final_chunk(self) -> ChatResponse:
        """The last chunk: calls a stream left open, the stop reason and the usage."""
        usage = Usage(self.input_tokens, self.output_tokens, self.input_tokens + self.output_tokens)
        output = AssistantMessage(tool_calls=tuple(self.calls.finish()))
        return ChatResponse(
            (Generation(output, GenerationMetadata(finish_reason=self.stop_reason)),),
            self._metadata(usage),
        )
