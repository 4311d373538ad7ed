r"""The JSON form of a message, shared by the SQLite and PostgreSQL repositories.

One small, explicit format rather than pickle: other programs (the ``sqlite3``
shell, a report script, another language) read the chat memory table, and a
format written by hand stays stable when the dataclasses grow.

Format, one JSON object per message:

```json
{"role": "system", "text": "..."}
{"role": "user", "text": "..."}
{"role": "assistant", "text": "...",
 "tool_calls": [{"id": "...", "name": "...", "arguments": "<raw JSON text>"}],
 "metadata": {...}}
{"role": "tool",
 "responses": [{"id": "...", "name": "...", "response_data": "...", "is_error": false}]}
```

``tool_calls`` and ``metadata`` are left out when empty, so messages written
before ``metadata`` existed read the same.

Text is stored as readable UTF-8; a string that UTF-8 cannot carry (a lone
surrogate from a model's escaped output) makes that one message fall back to
``\uXXXX`` escapes, so every string round-trips exactly.
"""

from __future__ import annotations

import json
from typing import Any

from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)

__all__ = [
    "MessageCodec",
    "decode_message",
    "dumps_json",
    "encode_message",
    "message_data",
    "message_from_data",
    "response_data",
    "response_from_data",
]

_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
_ascii = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), check_circular=False)


def encode_message(message: Message) -> str:
    """The message as one line of JSON."""
    return dumps_json(message_data(message))


def dumps_json(data: dict[str, Any]) -> str:
    """``data`` as compact JSON: readable UTF-8, or ASCII escapes where UTF-8 cannot go."""
    text = _compact.encode(data)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = _ascii.encode(data)
    return text


def message_data(message: Message) -> dict[str, Any]:
    """The message as a JSON object (the dict ``encode_message`` writes)."""
    data: dict[str, Any]
    if isinstance(message, AssistantMessage):
        data = {"role": "assistant", "text": message.text}
        if message.tool_calls:
            data["tool_calls"] = [
                {"id": c.id, "name": c.name, "arguments": c.arguments} for c in message.tool_calls
            ]
        if message.metadata:
            data["metadata"] = dict(message.metadata)
    elif isinstance(message, UserMessage | SystemMessage):
        data = {"role": message.role, "text": message.text}
    elif isinstance(message, ToolResponseMessage):
        data = {"role": "tool", "responses": [response_data(r) for r in message.responses]}
    else:
        raise TypeError(f"cannot store {type(message).__name__} in chat memory: {message!r}")
    return data


def response_data(response: ToolResponse) -> dict[str, Any]:
    """One tool answer as a JSON object."""
    return {
        "id": response.id,
        "name": response.name,
        "response_data": response.response_data,
        "is_error": response.is_error,
    }


def response_from_data(data: object) -> ToolResponse:
    """The tool answer ``response_data`` wrote; ``ValueError`` when it is not one."""
    r = _obj(data)
    return ToolResponse(
        _str(r, "id"), _str(r, "name"), _str(r, "response_data"), _bool(r, "is_error")
    )


def decode_message(text: str) -> Message:
    """The message stored as ``text``; ``ValueError`` says what is wrong with it."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not valid JSON ({exc})") from None
    return message_from_data(data)


def message_from_data(data: object) -> Message:
    """The message ``message_data`` wrote; ``ValueError`` says what is wrong with it."""
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    role = data.get("role")
    if role == "user":
        return UserMessage(_str(data, "text"))
    if role == "assistant":
        calls = data.get("tool_calls", [])
        if not isinstance(calls, list):
            raise ValueError("'tool_calls' must be a list")
        return AssistantMessage(
            _str(data, "text"),
            tuple(
                ToolCall(_str(c, "id"), _str(c, "name"), _str(c, "arguments"))
                for c in map(_obj, calls)
            ),
            _obj(data.get("metadata", {})),
        )
    if role == "tool":
        responses = data.get("responses")
        if not isinstance(responses, list):
            raise ValueError("'responses' must be a list")
        return ToolResponseMessage(tuple(map(response_from_data, responses)))
    if role == "system":
        return SystemMessage(_str(data, "text"))
    raise ValueError(f"unknown role {role!r} (expected system, user, assistant or tool)")


def _obj(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


def _str(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key!r} must be a string, got {type(value).__name__}")
    return value


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{key!r} must be true or false, got {value!r}")
    return value


class MessageCodec:
    """``encode_message`` and ``decode_message`` with a memory of recent results.

    A chat window is read and written on every turn, and almost all of it is
    the same as last time. Messages are immutable and their JSON is
    canonical, so both directions can be remembered: decoding the same JSON
    again returns the same message object, and encoding that object again
    returns its JSON (looked up by identity, which costs no hashing of the
    text). A turn then encodes and decodes only its new messages. The memory
    is bounded (``max_entries`` per direction, emptied when full), so a
    long-running app does not grow.
    """

    def __init__(self, max_entries: int = 4096) -> None:
        self._max_entries = max_entries
        # id(message) -> (message, json); holding the message keeps its id unique.
        self._encoded: dict[int, tuple[Message, str]] = {}
        self._decoded: dict[str, Message] = {}

    def encode(self, message: Message) -> str:
        """The message's JSON."""
        entry = self._encoded.get(id(message))
        if entry is not None and entry[0] is message:
            return entry[1]
        text = encode_message(message)
        self._remember(message, text)
        return text

    def decode(self, text: str) -> Message:
        """The message stored as ``text``; ``ValueError`` when it is not one."""
        message = self._decoded.get(text)
        if message is None:
            message = decode_message(text)
            if len(self._decoded) >= self._max_entries:
                self._decoded.clear()
            self._decoded[text] = message
            self._remember(message, text)
        return message

    def _remember(self, message: Message, text: str) -> None:
        if len(self._encoded) >= self._max_entries:
            self._encoded.clear()
        self._encoded[id(message)] = (message, text)
