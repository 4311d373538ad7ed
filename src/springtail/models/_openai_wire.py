"""Chat completions on the wire: messages out, completions and stream chunks back in.

The translation ``OpenAIChatModel`` sends and reads, kept apart from the
model class so each module has one job. A reply that is not what the API
promises (an HTML page, ``{"choices": "nope"}``) raises
``NotACompletionError``, which the model turns into a ``ModelError`` naming
the server.
"""

from __future__ import annotations

import re
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
    plain_json,
    repair_tool_call,
    usage_value,
)

__all__ = [
    "NotACompletionError",
    "StreamState",
    "response_format",
    "response_from_completion",
    "strict_compatible",
    "to_openai_messages",
    "tool_choice",
]

_TOOL_CHOICE_KEYWORDS = frozenset({"auto", "none", "required"})


class NotACompletionError(MalformedReplyError):
    """The server's reply is not a chat completion; the message says what it is."""


def response_format(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``ChatOptions.response_schema`` as chat completions' ``response_format``.

    The name is the schema's ``title`` cut to the characters OpenAI accepts
    (``response`` without one). ``strict`` is asked for only when the schema
    meets strict mode's rules (every object closed with
    ``additionalProperties: false`` and listing all its properties as
    required): OpenAI rejects a strict request whose schema does not, and
    Pydantic's schemas of models with optional fields do not.
    """
    plain = plain_json(schema)
    title = plain.get("title") if isinstance(plain, dict) else None
    name = re.sub(r"[^A-Za-z0-9_-]", "_", title)[:64] if isinstance(title, str) else ""
    return {
        "type": "json_schema",
        "json_schema": {
            "name": name or "response",
            "schema": plain,
            "strict": strict_compatible(plain),
        },
    }


def strict_compatible(schema: Any) -> bool:
    """Whether every object in ``schema`` is closed and requires all its properties."""
    if not isinstance(schema, dict):
        return True
    properties = schema.get("properties")
    if schema.get("type") == "object" or isinstance(properties, dict):
        names = set(properties) if isinstance(properties, dict) else set()
        if schema.get("additionalProperties") is not False:
            return False
        if set(schema.get("required") or ()) != names:
            return False
    children: list[Any] = []
    for key in ("properties", "$defs", "definitions"):
        if isinstance(schema.get(key), dict):
            children.extend(schema[key].values())
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        if isinstance(schema.get(key), list):
            children.extend(schema[key])
    for key in ("items", "additionalProperties", "not"):
        if isinstance(schema.get(key), dict):
            children.append(schema[key])
    return all(strict_compatible(child) for child in children)


def tool_choice(value: Any) -> Any:
    """``"auto"``/``"none"``/``"required"``, a tool's name, or the raw wire object."""
    if isinstance(value, str) and value not in _TOOL_CHOICE_KEYWORDS:
        return {"type": "function", "function": {"name": value}}
    return value


def to_openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages in chat-completions form; each tool response becomes its own message."""
    wire: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            wire.append({"role": "system", "content": message.text})
        elif isinstance(message, UserMessage):
            wire.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text}
            if message.tool_calls:
                entry["content"] = message.text or None
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments},
                    }
                    for call in message.tool_calls
                ]
            wire.append(entry)
        elif isinstance(message, ToolResponseMessage):
            wire.extend(
                {"role": "tool", "tool_call_id": r.id, "content": r.response_data}
                for r in message.responses
            )
        else:  # pragma: no cover - the Message union is closed
            raise TypeError(f"Cannot send a {type(message).__name__} to an OpenAI server")
    return wire


def _usage(raw: Any) -> Usage:
    if raw is None:
        return Usage()
    prompt = usage_value(raw, "prompt_tokens")
    completion = usage_value(raw, "completion_tokens")
    total = usage_value(raw, "total_tokens") or prompt + completion
    return Usage(prompt, completion, total)


def _reasoning(message: Any) -> str:
    """The reasoning text some servers add (vLLM, llama.cpp, DeepSeek), kept out of the answer."""
    for name in ("reasoning_content", "reasoning"):
        value = getattr(message, name, None)
        if isinstance(value, str) and value:
            return value
    return ""


def response_from_completion(completion: Any) -> ChatResponse:
    """A ChatResponse from what the SDK parsed, or ``NotACompletionError``."""
    _check_choices(completion, "reply")
    try:
        return _read_completion(completion)
    except (AttributeError, TypeError, ValueError) as exc:
        raise NotACompletionError(f"a choice the API does not define: {exc}") from exc


def _check_choices(value: Any, what: str) -> None:
    """Raise ``NotACompletionError`` unless ``value`` holds a ``choices`` list."""
    if isinstance(value, str):
        raise NotACompletionError(f"a text {what} starting {snippet(value)!r}")
    if value is None or isinstance(value, list | tuple | int | float):
        raise NotACompletionError(f"{json_kind(value)} where a {what} object belongs")
    choices = getattr(value, "choices", None)
    if choices is None:
        raise NotACompletionError(f"a {what} without 'choices'")
    if not isinstance(choices, list):
        raise NotACompletionError(f"a {what} whose 'choices' is {json_kind(choices)}, not a list")


def _read_completion(completion: Any) -> ChatResponse:
    generations = []
    for choice in completion.choices or ():
        message = choice.message
        calls = tuple(
            repair_tool_call(
                getattr(call, "id", None),
                getattr(getattr(call, "function", None), "name", None),
                getattr(getattr(call, "function", None), "arguments", None),
            )
            for call in (getattr(message, "tool_calls", None) or ())
        )
        thinking = _reasoning(message)
        generations.append(
            Generation(
                AssistantMessage(text=message.content or "", tool_calls=calls),
                GenerationMetadata(
                    finish_reason=choice.finish_reason,
                    extra={"thinking": thinking} if thinking else {},
                ),
            )
        )
    return ChatResponse(
        tuple(generations),
        ChatResponseMetadata(
            id=getattr(completion, "id", None),
            model=getattr(completion, "model", None),
            usage=_usage(getattr(completion, "usage", None)),
        ),
    )


class StreamState:
    """What a stream has said so far: id, model, finish reason, usage, open tool calls."""

    def __init__(self) -> None:
        self.id: str | None = None
        self.model: str | None = None
        self.finish_reason: str | None = None
        self.usage = Usage()
        self.characters = 0
        self.calls = ToolCallAssembler()

    def add(self, chunk: Any) -> tuple[str, str]:
        """Take one chunk in; return its text and reasoning deltas ("" when none).

        Raises:
            NotACompletionError: The chunk is not a chat-completion chunk.
        """
        if not isinstance(chunk, str) and getattr(chunk, "choices", None) is None:
            # A chunk without choices (usage only, or a server's own notice) adds no text.
            if getattr(chunk, "usage", None) is not None:
                self.usage = _usage(chunk.usage)
            return "", ""
        _check_choices(chunk, "stream chunk")
        try:
            return self._add(chunk)
        except (AttributeError, TypeError, ValueError) as exc:
            raise NotACompletionError(f"a stream chunk the API does not define: {exc}") from exc

    def _add(self, chunk: Any) -> tuple[str, str]:
        self.id = self.id or getattr(chunk, "id", None)
        self.model = self.model or getattr(chunk, "model", None)
        if getattr(chunk, "usage", None) is not None:
            self.usage = _usage(chunk.usage)
        text = thinking = ""
        for choice in getattr(chunk, "choices", None) or ():
            if choice.index != 0:  # one generation per request is what springtail asks for
                continue
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
            delta = choice.delta
            if delta is None:
                continue
            text += delta.content or ""
            thinking += _reasoning(delta)
            for fragment in getattr(delta, "tool_calls", None) or ():
                function = getattr(fragment, "function", None)
                self.calls.add(
                    getattr(fragment, "index", None),
                    call_id=getattr(fragment, "id", None),
                    name=getattr(function, "name", None),
                    arguments=getattr(function, "arguments", None),
                )
        self.characters += len(text)
        return text, thinking

    def _metadata(self, usage: Usage | None = None) -> ChatResponseMetadata:
        return ChatResponseMetadata(id=self.id, model=self.model, usage=usage or Usage())

    def text_chunk(self, text: str, thinking: str = "") -> ChatResponse:
        extra = {"thinking": thinking} if thinking else {}
        return ChatResponse(
            (Generation(AssistantMessage(text=text), GenerationMetadata(extra=extra)),),
            self._metadata(),
        )

    def truncation(self) -> str | None:
        """What is missing when the stream ended without a finish reason, else ``None``.

        A server ends a complete answer with a ``finish_reason`` (and
        ``[DONE]``); a stream that simply stops was cut off, and what it holds
        (``'Hello wor'``, a call whose arguments are ``'{"te'``) must not pass
        for an answer.
        """
        if self.finish_reason is not None:
            return None
        open_calls = len(self.calls)
        calls = f" and {open_calls} unfinished tool call(s)" if open_calls else ""
        return f"no finish_reason after {self.characters} characters{calls}"

    def final_chunk(self) -> ChatResponse:
        """The last chunk: the complete tool calls, the finish reason and the usage."""
        output = AssistantMessage(tool_calls=tuple(self.calls.finish()))
        return ChatResponse(
            (Generation(output, GenerationMetadata(finish_reason=self.finish_reason)),),
            self._metadata(self.usage),
        )
