"""An MCP server with 100 tools (``bench/distractor_tools.json``), written with the official SDK.

A large server, as a real deployment meets one: ``support-bot --mcp FILE``
with ``{"mcpServers": {"many": {"command": "python", "args":
["bench/mcp_many_tools.py"]}}}`` gets 113 tools, too many for the embedded
model's context, and turns tool search on. Speaks MCP on stdin/stdout.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from bench.distractors import specs

SPECS = {s.name: s for s in specs()}
server: Server[Any, Any] = Server("many-tools", version="1.0")


@server.list_tools()  # type: ignore[untyped-decorator,no-untyped-call]
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name=s.name, description=s.description, inputSchema=s.schema())
        for s in SPECS.values()
    ]


@server.call_tool()  # type: ignore[untyped-decorator]
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    spec = SPECS.get(name)
    if spec is None:
        raise ValueError(f"no tool {name}")
    return [types.TextContent(type="text", text=spec.answer(arguments))]


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    asyncio.run(main())
