"""``support-bot --mcp FILE``: the tools of other processes, added to the chat.

``FILE`` holds the ``{"mcpServers": {name: {command, args, env} | {url,
headers}}}`` configuration most MCP hosts read. Each server is started (or
reached) before the chat opens and stopped when it ends; a server that will
not start is one sentence and exit code 4, before the model is loaded.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from springtail import ToolCallback

__all__ = ["MCP_CALL_TIMEOUT_S", "MCP_MAX_RESULT_CHARS", "McpSetupError", "mcp_tools"]

MCP_CALL_TIMEOUT_S = 120.0
"""How long one call to another process's tool may take."""
MCP_MAX_RESULT_CHARS = 4000
"""The longest result of another process's tool the model reads (longer ones are cut, saying
so): about 1,000 tokens, a quarter of the embedded model's context; the bot's own tools
answer in under 1,000 characters."""


class McpSetupError(Exception):
    """The ``--mcp`` file or one of its servers cannot be used; the message is one sentence."""


@contextlib.contextmanager
def mcp_tools(path: Path | None, *, taken: Sequence[str] = ()) -> Iterator[list[ToolCallback]]:
    """Connect to every server in ``path`` and yield their tools; close them on exit.

    Args:
        path: The configuration file, or ``None`` for no MCP tools.
        taken: Tool names the bot already has; a server tool with one of
            these names is an error, since the model could not tell them
            apart.

    Raises:
        McpSetupError: the file is unreadable or wrong, a server would not
            start, or two tools share a name.
    """
    if path is None:
        yield []
        return
    from springtail.mcp import McpClient, McpServerError, load_servers

    try:
        servers = load_servers(path)
    except ValueError as exc:
        raise McpSetupError(str(exc)) from None
    with contextlib.ExitStack() as stack:
        tools: list[ToolCallback] = []
        owner = dict.fromkeys(taken, "support-bot")
        for name, spec in servers.items():
            client = McpClient(
                spec,
                name=name,
                timeout=MCP_CALL_TIMEOUT_S,
                max_result_chars=MCP_MAX_RESULT_CHARS,
            )
            try:
                stack.enter_context(client)
            except McpServerError as exc:
                raise McpSetupError(str(exc)) from None
            for callback in client.tool_callbacks():
                tool_name = callback.tool_definition.name
                if tool_name in owner:
                    raise McpSetupError(
                        f"MCP server {name!r} offers a tool named {tool_name!r}, which "
                        f"{owner[tool_name]} already has; leave one of them out of {path}."
                    )
                owner[tool_name] = f"MCP server {name!r}"
                tools.append(callback)
        yield tools
