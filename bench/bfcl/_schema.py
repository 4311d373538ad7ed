"""BFCL function docs as springtail tool definitions.

BFCL writes parameters in its own JSON-Schema dialect (``dict``, ``float``,
``tuple``, ``any``). Its function-calling handlers send them to a model after
``convert_to_tool(functions, GORILLA_TO_OPENAPI, ...)``; this module does the
same conversion, so a springtail provider sees what BFCL's OpenAI-style
handlers send:

- the description gains BFCL's hint " Note that the provided function is in
  Python 3 syntax." (``add_language_specific_hint_to_function_doc``);
- types map by ``GORILLA_TO_OPENAPI`` (``dict`` -> ``object``, ``float`` ->
  ``number`` with ``format: float`` and " This is a float type value." added
  to its description, ``tuple`` -> ``array``, ``any`` -> ``string``); a
  property without a type, or with an unknown one, becomes a ``string``;
- names outside ``[A-Za-z0-9_-]`` have those characters replaced by ``_``
  (BFCL replaces ``.`` for the OpenAI, Mistral, Google, OSS ... styles); the
  :class:`ToolNames` of an entry maps each sent name back to BFCL's, so the
  checker compares BFCL's own names.

BFCL converts two levels of nesting by hand; this conversion recurses to any
depth the same way (the data has no deeper nesting, so the result is the same).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail import ToolDefinition

__all__ = ["PYTHON_HINT", "ToolNames", "to_input_schema", "tool_definition", "tool_names"]

PYTHON_HINT = " Note that the provided function is in Python 3 syntax."

# BFCL's constants/type_mappings.py GORILLA_TO_OPENAPI.
_OPENAPI_TYPES: dict[str, str] = {
    "integer": "integer",
    "number": "number",
    "float": "number",
    "string": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "dict": "object",
    "object": "object",
    "tuple": "array",
    "any": "string",
    "byte": "integer",
    "short": "integer",
    "long": "integer",
    "double": "number",
    "char": "string",
    "ArrayList": "array",
    "Array": "array",
    "HashMap": "object",
    "Hashtable": "object",
    "Queue": "array",
    "Stack": "array",
    "Any": "string",
    "String": "string",
    "Bigint": "integer",
}
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def _openapi_type(bfcl_type: Any) -> str:
    """BFCL's type name as JSON Schema's; none, or an unknown one, is a string (as in BFCL)."""
    return _OPENAPI_TYPES.get(bfcl_type, "string") if isinstance(bfcl_type, str) else "string"


def _convert(spec: Mapping[str, Any]) -> dict[str, Any]:
    """One property (or array item) in BFCL's dialect, as JSON Schema."""
    out = dict(spec)
    bfcl_type = out.get("type")
    if bfcl_type == "float":
        out["format"] = "float"
        out["description"] = str(out.get("description", "")) + " This is a float type value."
    out["type"] = _openapi_type(bfcl_type)
    if out["type"] in ("array", "object"):
        properties = out.get("properties")
        if isinstance(properties, Mapping):
            out["properties"] = {k: _convert(v) for k, v in properties.items()}
        elif isinstance(out.get("items"), Mapping):
            out["items"] = _convert_items(out["items"])
    return out


def _convert_items(spec: Mapping[str, Any]) -> dict[str, Any]:
    """An array's ``items``: BFCL maps their type only (no float note), then goes inside."""
    out = dict(spec)
    bfcl_type = out.get("type")
    out["type"] = _openapi_type(bfcl_type)
    if out["type"] == "object" and isinstance(out.get("properties"), Mapping):
        out["properties"] = {k: _convert(v) for k, v in out["properties"].items()}
    elif out["type"] == "array" and isinstance(out.get("items"), Mapping):
        out["items"] = _convert_items(out["items"])
    return out


def to_input_schema(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """A BFCL ``parameters`` object as a JSON Schema object for ``ToolDefinition``.

    ``required`` is always present (empty when BFCL's doc has none), as
    springtail's own schemas have it.
    """
    schema = copy.deepcopy(dict(parameters))
    schema["type"] = "object"
    properties = schema.get("properties") or {}
    schema["properties"] = {k: _convert(v) for k, v in properties.items()}
    schema["required"] = list(schema.get("required") or [])
    return schema


@dataclass(frozen=True)
class ToolNames:
    """The names one entry's tools are sent under, and BFCL's name for each."""

    sent: Mapping[str, str]
    """BFCL name -> the name the model sees."""
    bfcl: Mapping[str, str]
    """The name the model sees -> BFCL name."""

    def original(self, name: str) -> str:
        """BFCL's name for a called name (an unknown name stays as it was called)."""
        return self.bfcl.get(name, name)


def tool_names(functions: Sequence[Mapping[str, Any]]) -> ToolNames:
    """Safe, distinct names for ``functions`` (``uber.ride`` -> ``uber_ride``).

    A clash after replacing characters (``a.b`` next to ``a_b``) gets a
    ``_2``, ``_3``... suffix; BFCL's data has none.
    """
    sent: dict[str, str] = {}
    taken: set[str] = set()
    for f in functions:
        name = str(f["name"])
        base = _UNSAFE.sub("_", name)[:64] or "tool"
        safe, n = base, 1
        while safe in taken:
            n += 1
            safe = f"{base[: 64 - len(str(n)) - 1]}_{n}"
        taken.add(safe)
        sent[name] = safe
    return ToolNames(sent, {v: k for k, v in sent.items()})


def tool_definition(function: Mapping[str, Any], name: str) -> ToolDefinition:
    """The springtail definition of one BFCL function doc, sent as ``name``."""
    return ToolDefinition(
        name,
        str(function.get("description") or "") + PYTHON_HINT,
        to_input_schema(function.get("parameters") or {}),
    )
