"""An MCP server written with the SDK's own low-level API, no springtail in it.

``python tests/mcp_raw_server.py`` serves over stdio. Tools: ``echo``
(text plus structured content), ``broken`` (an ``isError`` result),
``picture`` (an image block) and ``grow``, which adds a tool ``extra`` and
announces that the list changed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from mcp import types
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server

server: Server[Any, Any] = Server("raw-sdk-server", version="9.9")
grown = False

ECHO = types.Tool(
    name="echo",
    description="Echo a word back.",
    inputSchema={
        "type": "object",
        "properties": {"word": {"type": "string"}},
        "required": ["word"],
    },
)
BROKEN = types.Tool(
    name="broken", description="Always fails.", inputSchema={"type": "object", "properties": {}}
)
PICTURE = types.Tool(
    name="picture", description="A tiny picture.", inputSchema={"type": "object", "properties": {}}
)
GROW = types.Tool(
    name="grow", description="Add a tool.", inputSchema={"type": "object", "properties": {}}
)
EXTRA = types.Tool(
    name="extra", description="Added later.", inputSchema={"type": "object", "properties": {}}
)


@server.list_tools()  # type: ignore[untyped-decorator,no-untyped-call]
async def list_tools() -> list[types.Tool]:
    return [ECHO, BROKEN, PICTURE, GROW, *([EXTRA] if grown else [])]


@server.call_tool()  # type: ignore[untyped-decorator]
async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
    global grown
    if name == "echo":
        word = arguments["word"]
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"echo: {word}")],
            structuredContent={"word": word, "length": len(word)},
        )
    if name == "broken":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text="the printer is on fire")], isError=True
        )
    if name == "picture":
        return [types.ImageContent(type="image", data="iVBORw0KGgo=", mimeType="image/png")]
    if name == "grow":
        grown = True
        await server.request_context.session.send_tool_list_changed()
        return [types.TextContent(type="text", text="grown")]
    if name == "extra":
        return [types.TextContent(type="text", text="extra ran")]
    raise ValueError(f"no tool {name}")


async def main() -> None:
    async with stdio_server() as (read, write):
        options = server.create_initialization_options(NotificationOptions(tools_changed=True))
        await server.run(read, write, options)


if __name__ == "__main__":
    asyncio.run(main())
