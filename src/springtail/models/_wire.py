"""Translation helpers every server provider shares.

Servers differ in wire format but fail in the same ways: a streamed tool call
arrives in fragments, some servers leave out the call id, a small model
writes arguments that are not JSON, a fragment turns up with no name. The
rules for those cases live here, once, so that the OpenAI, Ollama and
Anthropic providers repair a response identically (``docs/providers.md``
lists the rules).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from springtail.messages import ChatOptions, Prompt, ToolCall
from springtail.tools._definition import ToolDefinition

__all__ = [
    "MISSING_TOOL_NAME",
    "ToolCallAssembler",
    "arguments_to_object",
    "effective_options",
    "function_tools",
    "new_call_id",
    "object_to_arguments",
    "plain_json",
    "repair_tool_call",
    "tool_definitions",
    "usage_value",
]

logger = logging.getLogger("springtail.models")

MISSING_TOOL_NAME = "missing_tool_name"
"""Name given to a call whose arguments arrived without a tool name.

The tool loop answers it as an unknown tool, listing the tools that exist,
so the model can call again with the right name; an empty name would be
rejected by some servers when the conversation is sent back.
"""


def new_call_id() -> str:
    """An id for a tool call the server sent without one, unique per call."""
    return f"call_{uuid.uuid4().hex[:24]}"


def effective_options(default: ChatOptions, prompt: Prompt) -> ChatOptions:
    """The model's defaults with the request's options laid over them."""
    return default.merge(prompt.options)


def tool_definitions(options: ChatOptions) -> list[ToolDefinition]:
    """The definitions of the request's tool callbacks, in order, once per name.

    Names listed only in ``tool_names`` are resolved into callbacks by the
    client before the model is called; a provider sends what it is given.
    """
    seen: set[str] = set()
    definitions: list[ToolDefinition] = []
    for callback in options.tool_callbacks:
        definition = callback.tool_definition
        if definition.name in seen:
            continue
        seen.add(definition.name)
        definitions.append(definition)
    return definitions


def function_tools(definitions: list[ToolDefinition]) -> list[dict[str, Any]]:
    """Tool definitions in the ``{"type": "function", "function": {...}}`` form.

    OpenAI's chat completions, Ollama's ``/api/chat`` and the chat templates
    the embedded model renders share this shape.
    """
    return [
        {
            "type": "function",
            "function": {
                "name": d.name,
                "description": d.description,
                "parameters": plain_json(d.input_schema),
            },
        }
        for d in definitions
    ]


def plain_json(value: Any) -> Any:
    """Mappings and sequences as dicts and lists all the way down.

    A tool's schema may be any ``Mapping`` (a read-only ``MappingProxyType``
    included), which ``json.dumps`` and Jinja's ``tojson`` refuse.
    """
    if isinstance(value, Mapping):
        return {str(k): plain_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_json(v) for v in value]
    return value


def object_to_arguments(value: Any) -> str:
    """Arguments a server gave as an object (Ollama, Anthropic), as JSON text.

    A server that already sent text keeps its text unchanged.
    """
    if value is None:
        return "{}"
    if isinstance(value, str):
        return value if value.strip() else "{}"
    return json.dumps(value, ensure_ascii=False)


def arguments_to_object(arguments: str) -> dict[str, Any]:
    """JSON argument text back to the object Ollama and Anthropic expect.

    Arguments that are not a JSON object (a malformed call the tool loop has
    already answered with an error) are sent back as ``{}``: the wire format
    has no place for invalid JSON, and the tool response that follows tells
    the model what was wrong with its call.
    """
    if not arguments.strip():
        return {}
    try:
        value = json.loads(arguments)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def repair_tool_call(call_id: str | None, name: str | None, arguments: str | None) -> ToolCall:
    """A complete ToolCall from what the server sent, whatever was missing.

    - a missing id gets a generated one (tool results are matched by id);
    - blank arguments become ``"{}"``; other text is kept as is, even when it
      is not JSON, so the tool layer can answer with a readable error;
    - a missing name becomes ``MISSING_TOOL_NAME``, logged as a warning.
    """
    if not name or not name.strip():
        logger.warning(
            "The model sent a tool call without a tool name (arguments %r); "
            "passing it on as %r so the tool loop can answer it",
            arguments,
            MISSING_TOOL_NAME,
        )
        name = MISSING_TOOL_NAME
    text = arguments if arguments is not None and arguments.strip() else "{}"
    return ToolCall(id=call_id or new_call_id(), name=name.strip(), arguments=text)


@dataclass
class _Partial:
    id: str | None = None
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class ToolCallAssembler:
    """Joins the fragments of streamed tool calls into complete calls.

    Fragments are grouped by ``key`` (the OpenAI ``index``, the Anthropic
    content-block index). A fragment under a known key whose id differs from
    that call's id starts a new call (some servers number every call 0). A
    fragment with no key continues the call its id names, else the most
    recent call. A call that ends with neither a name nor arguments was a
    stray fragment and is dropped with a warning.
    """

    def __init__(self) -> None:
        self._calls: dict[int, _Partial] = {}
        self._slot_of_key: dict[Any, int] = {}
        self._last: int | None = None
        self._next = 0

    def add(
        self,
        key: Any,
        *,
        call_id: str | None = None,
        name: str | None = None,
        arguments: str | None = None,
    ) -> None:
        """Add one fragment; any of its parts may be missing."""
        slot = self._slot(key, call_id)
        partial = self._calls[slot]
        self._last = slot
        if call_id and not partial.id:
            partial.id = call_id
        if name and not partial.name:
            # Most servers send the name once; a few repeat it on every fragment.
            partial.name = name
        if arguments:
            partial.arguments.append(arguments)

    def _slot(self, key: Any, call_id: str | None) -> int:
        if key is None:
            if call_id:
                for slot, partial in self._calls.items():
                    if partial.id == call_id:
                        return slot
                return self._new_slot(None)
            last = self._last
            return last if last is not None and last in self._calls else self._new_slot(None)
        known_slot = self._slot_of_key.get(key)
        if known_slot is not None and known_slot in self._calls:
            known = self._calls[known_slot].id
            if not (call_id and known and call_id != known):
                return known_slot
        return self._new_slot(key)

    def _new_slot(self, key: Any) -> int:
        slot = self._next
        self._next += 1
        self._calls[slot] = _Partial()
        if key is not None:
            self._slot_of_key[key] = slot
        return slot

    def __bool__(self) -> bool:
        return bool(self._calls)

    def __len__(self) -> int:
        """How many calls are open (started and not yet finished)."""
        return len(self._calls)

    def pop(self, key: Any) -> ToolCall | None:
        """Finish the call under ``key`` (Anthropic ends each block on its own)."""
        slot = self._slot_of_key.pop(key, None)
        partial = self._calls.pop(slot, None) if slot is not None else None
        return self._finish(partial) if partial is not None else None

    def finish(self) -> list[ToolCall]:
        """Every call still open, complete, in the order they started."""
        calls = [self._finish(p) for p in self._calls.values()]
        self._calls.clear()
        self._slot_of_key.clear()
        self._last = None
        return [c for c in calls if c is not None]

    @staticmethod
    def _finish(partial: _Partial) -> ToolCall | None:
        arguments = "".join(partial.arguments)
        if not partial.name and not arguments.strip():
            logger.warning("Dropped a streamed tool-call fragment with no name and no arguments")
            return None
        return repair_tool_call(partial.id, partial.name, arguments)


def usage_value(source: Any, *names: str) -> int:
    """The first integer attribute or key of ``source`` among ``names`` (0 if none)."""
    for name in names:
        value = source.get(name) if isinstance(source, Mapping) else getattr(source, name, None)
        if isinstance(value, int):
            return value
    return 0
