"""BFCL's live function documents as springtail tools over this project's fake back-ends.

The documents (``functions.json``, see ``NOTICE.md``) keep their authors' names,
descriptions and schemas. Loading changes only BFCL's own type names into JSON Schema's,
the way BFCL itself does before it sends them to an OpenAI-style model, so that every
provider reads the same schema. Each function runs the back-end method of its name with
the model's arguments as keywords: the back-ends, not the documents, are ours.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from springtail import ToolArgumentsError, ToolDefinition, ToolMetadata

__all__ = ["DocumentTool", "documents", "json_schema", "tools"]

_TYPES = {
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
}
"""BFCL's ``GORILLA_TO_OPENAPI`` (bfcl_eval/constants/type_mappings.py), the part in use."""


@cache
def _all() -> dict[str, list[dict[str, Any]]]:
    text = (Path(__file__).parent / "functions.json").read_text(encoding="utf-8")
    loaded: dict[str, list[dict[str, Any]]] = json.loads(text)["tool_sets"]
    return loaded


def documents(tool_set: str) -> list[dict[str, Any]]:
    """The function documents of one tool set, as BFCL ships them (a fresh copy)."""
    return copy.deepcopy(_all()[tool_set])


def json_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """A BFCL ``parameters`` object with JSON Schema's type names, everything else kept."""
    schema = copy.deepcopy(parameters)
    _retype(schema)
    schema["type"] = "object"
    return schema


def _retype(node: Any) -> None:
    if isinstance(node, dict):
        kind = node.get("type")
        if isinstance(kind, str):
            node["type"] = _TYPES.get(kind, "string")
        for key, value in node.items():
            if key in ("properties", "items") or isinstance(value, dict | list):
                _retype(value)
    elif isinstance(node, list):
        for item in node:
            _retype(item)


class DocumentTool:
    """A tool whose definition is a function document and whose body is a back-end method.

    The arguments are checked against the document's own schema only for names (an
    argument it does not list, or a required one missing, is the model's error to
    correct); the values go to the method as written, as a real service would take them.
    """

    def __init__(self, document: dict[str, Any], method: Callable[..., Any]) -> None:
        self._method = method
        self.tool_definition = ToolDefinition(
            document["name"], document["description"], json_schema(document["parameters"])
        )
        self.tool_metadata = ToolMetadata(is_async=False)

    def call(self, tool_input: str, tool_context: Any = None) -> str:
        """Run the method with the model's arguments; its result as compact JSON."""
        definition = self.tool_definition
        try:
            arguments = json.loads(tool_input or "{}")
        except ValueError as exc:
            raise ToolArgumentsError(definition, f"the arguments are not JSON: {exc}") from exc
        if not isinstance(arguments, dict):
            raise ToolArgumentsError(definition, "the arguments must be a JSON object")
        schema = definition.input_schema
        unknown = sorted(set(arguments) - set(schema.get("properties", {})))
        missing = sorted(set(schema.get("required", ())) - set(arguments))
        if unknown or missing:
            message = f"unknown arguments {unknown}, missing arguments {missing}"
            raise ToolArgumentsError(definition, message)
        return json.dumps(self._method(**arguments), ensure_ascii=False)

    async def acall(self, tool_input: str, tool_context: Any = None) -> str:
        """As :meth:`call` (the fakes never block)."""
        return self.call(tool_input, tool_context)


def tools(tool_set: str, backend: object) -> list[Any]:
    """One tool per document of ``tool_set``, each running ``backend``'s method of its name."""
    return [DocumentTool(d, getattr(backend, d["name"])) for d in documents(tool_set)]
