"""MCP: tools that live in other processes, and springtail's tools served to others.

The client side turns an MCP server's tools into ``ToolCallback``s, so they
work wherever tools work; the loop never knows a tool came from MCP:

```python
from springtail.mcp import McpClient, StdioServer

with McpClient(StdioServer(command="python", args=("server.py",)), prefix="calc_") as calc:
    client = ChatClient(model, tools=calc.tool_callbacks())
```

The server side (``springtail mcp serve MODULE:NAME``, or ``serve``)
offers any ``@tool`` functions or objects to any MCP client.

Needs the ``mcp`` extra (``pip install 'springtail[mcp]'``); the SDK is
imported only when a connection starts or a server is built.
"""

from springtail.mcp._access import HttpAccess
from springtail.mcp._callback import McpToolCallback
from springtail.mcp._cli import add_http_arguments, serve_command
from springtail.mcp._client import McpClient, ToolFilter
from springtail.mcp._connection import Elicitor
from springtail.mcp._errors import McpServerError
from springtail.mcp._params import (
    HttpServer,
    McpServerSpec,
    StdioServer,
    load_servers,
    servers_from_config,
)
from springtail.mcp._server import create_server, serve, serve_http, serve_stdio

__all__ = [
    "Elicitor",
    "HttpAccess",
    "HttpServer",
    "McpClient",
    "McpServerError",
    "McpServerSpec",
    "McpToolCallback",
    "StdioServer",
    "ToolFilter",
    "add_http_arguments",
    "create_server",
    "load_servers",
    "serve",
    "serve_command",
    "serve_http",
    "serve_stdio",
    "servers_from_config",
]
