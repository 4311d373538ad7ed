"""One tool of an MCP server, as a springtail ``ToolCallback``."""

from __future__ import annotations

import json
from typing import Any, Protocol

from springtail.tools import (
    ToolArgumentsError,
    ToolContext,
    ToolDefinition,
    ToolMetadata,
)

__all__ = ["McpToolCallback", "ToolRunner"]


class ToolRunner(Protocol):
    """What runs a call on the server: the ``McpClient``."""

    async def acall_tool(
        self,
        definition: ToolDefinition,
        server_tool: str,
        arguments: dict[str, Any],
        context: ToolContext | None,
    ) -> str:
        """Call the tool from async code; failures are ``ToolExecutionError``."""
        ...

    def call_tool_sync(
        self,
        definition: ToolDefinition,
        server_tool: str,
        arguments: dict[str, Any],
        context: ToolContext | None,
    ) -> str:
        """Call the tool from sync code; failures are ``ToolExecutionError``."""
        ...


class McpToolCallback:
    """A tool that runs in an MCP server, usable wherever springtail takes tools.

    The definition is the server's name (with the client's prefix), its
    description and its input schema, unchanged. Calls go through the
    client's session; the request's ``ToolContext`` travels as the MCP
    request's ``_meta``. A result the server marks ``isError``, a call that
    times out and a server that has stopped all raise ``ToolExecutionError``,
    which the tool loop hands to the model as an error result.

    Attributes:
        server: The name of the MCP server the tool lives in.
        server_tool_name: The tool's name on that server (without the prefix).
    """

    __slots__ = ("_definition", "_metadata", "_runner", "server", "server_tool_name")

    def __init__(
        self,
        *,
        runner: ToolRunner,
        definition: ToolDefinition,
        metadata: ToolMetadata,
        server: str,
        server_tool_name: str,
    ) -> None:
        self._runner = runner
        self._definition = definition
        self._metadata = metadata
        self.server = server
        self.server_tool_name = server_tool_name

    @property
    def tool_definition(self) -> ToolDefinition:
        """Name, description and input schema, as the server lists them."""
        return self._definition

    @property
    def tool_metadata(self) -> ToolMetadata:
        """Timeout and approval from the client's options.

        ``is_async`` is true: a call waits on another process, not the CPU, so
        the manager awaits it on the event loop.
        """
        return self._metadata

    @property
    def requires_approval(self) -> bool:
        """Whether the manager asks its approver before each call."""
        return self._metadata.requires_approval

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        """Call the tool from sync code and wait for its result text."""
        arguments = self._arguments(tool_input)
        return self._runner.call_tool_sync(
            self._definition, self.server_tool_name, arguments, tool_context
        )

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        """Call the tool from async code; other calls to the server run meanwhile."""
        arguments = self._arguments(tool_input)
        return await self._runner.acall_tool(
            self._definition, self.server_tool_name, arguments, tool_context
        )

    def _arguments(self, tool_input: str) -> dict[str, Any]:
        """The model's JSON text as the object MCP sends; the server checks the fields."""
        if not tool_input or tool_input.isspace():
            return {}
        name = self._definition.name
        try:
            value = json.loads(tool_input)
        except json.JSONDecodeError as exc:
            message = (
                f"The arguments for tool '{name}' are not valid JSON ({exc.msg} at "
                f"position {exc.pos}); send one JSON object."
            )
            raise ToolArgumentsError(self._definition, message, errors=(message,)) from exc
        if not isinstance(value, dict):
            message = (
                f"The arguments for tool '{name}' must be a JSON object, "
                f"not {type(value).__name__}."
            )
            raise ToolArgumentsError(self._definition, message, errors=(message,))
        return value

    def __repr__(self) -> str:
        return f"McpToolCallback({self._definition.name!r}, server={self.server!r})"
