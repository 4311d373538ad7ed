"""The extension point every tool implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition, ToolMetadata

__all__ = ["ToolCallback"]


@runtime_checkable
class ToolCallback(Protocol):
    """A tool the model can call: its definition plus a way to run it.

    ``tool_input`` is the raw JSON text of the arguments as the model wrote
    it; the callback validates it and returns the result as text for the
    model. ``acall`` is what the tool loop uses; ``call`` is for plain code.
    """

    @property
    def tool_definition(self) -> ToolDefinition: ...

    @property
    def tool_metadata(self) -> ToolMetadata: ...

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str: ...

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str: ...
