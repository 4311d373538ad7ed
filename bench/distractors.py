"""100 tools from other domains (travel, logistics, HR, finance, ...), written as data.

``distractor_tools.json`` holds each tool's name, description and typed
parameters; this module turns them into springtail ``ToolCallback``s (for
the tool-search benchmark) and into JSON Schemas (for the MCP server in
``bench/mcp_many_tools.py``). A tool answers with its ``result`` template
filled from the arguments, or with a short acknowledgement: they stand next
to support-bot's 13 tools to make the choice hard, not to do real work.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from springtail import ToolArgumentsError, ToolContext, ToolDefinition, ToolMetadata

DATA = Path(__file__).with_name("distractor_tools.json")


@dataclass(frozen=True)
class Spec:
    """One distractor tool as the data file writes it."""

    domain: str
    name: str
    description: str
    parameters: tuple[Mapping[str, Any], ...]
    result: str = ""

    def schema(self) -> dict[str, Any]:
        """The tool's input JSON Schema."""
        properties: dict[str, Any] = {}
        for p in self.parameters:
            prop: dict[str, Any] = {"type": p["type"], "description": p["description"]}
            if "enum" in p:
                prop["enum"] = list(p["enum"])
            if "default" in p:
                prop["default"] = p["default"]
            properties[p["name"]] = prop
        required = [p["name"] for p in self.parameters if p["required"]]
        return {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }

    def answer(self, arguments: Mapping[str, Any]) -> str:
        """What the tool returns for these arguments."""
        required = [p["name"] for p in self.parameters if p["required"]]
        missing = [name for name in required if name not in arguments]
        if missing:
            raise ValueError(f"missing required argument(s): {', '.join(missing)}")
        values = {p["name"]: p.get("default", "") for p in self.parameters}
        values.update(arguments)
        if self.result:
            return self.result.format_map(values)
        return f"{self.name}: done ({json.dumps(dict(arguments), ensure_ascii=False)})."


def specs() -> list[Spec]:
    """The 100 tools, in the data file's order."""
    items = json.loads(DATA.read_text(encoding="utf-8"))
    return [
        Spec(
            item["domain"],
            item["name"],
            item["description"],
            tuple(item["parameters"]),
            item.get("result", ""),
        )
        for item in items
    ]


class DataTool:
    """A ``ToolCallback`` over one :class:`Spec`."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.tool_definition = ToolDefinition(spec.name, spec.description, spec.schema())
        self.tool_metadata = ToolMetadata(is_async=False)

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        try:
            arguments = json.loads(tool_input or "{}")
            if not isinstance(arguments, dict):
                raise ValueError("the arguments must be a JSON object")
            return self.spec.answer(arguments)
        except ValueError as exc:
            raise ToolArgumentsError(
                self.tool_definition, f"Invalid arguments for tool '{self.spec.name}': {exc}"
            ) from None

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return self.call(tool_input, tool_context)


def distractor_tools() -> list[DataTool]:
    """The 100 tools as callbacks."""
    return [DataTool(s) for s in specs()]
