"""A tool a chat model can see but never runs: for tests that play the tool loop by hand."""

from __future__ import annotations

from typing import Any

from springtail.tools._definition import ToolDefinition, ToolMetadata


class DescribedTool:
    """Carries a definition to the model; calling it is a test failure (models never run tools)."""

    def __init__(self, definition: ToolDefinition) -> None:
        self.tool_definition = definition
        self.tool_metadata = ToolMetadata()

    def call(self, tool_input: str, tool_context: Any = None) -> str:
        raise AssertionError("a ChatModel never runs tools")

    async def acall(self, tool_input: str, tool_context: Any = None) -> str:
        raise AssertionError("a ChatModel never runs tools")
