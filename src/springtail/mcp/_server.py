"""springtail tools served to any MCP client, on the SDK's low-level ``Server``.

The low-level server is used rather than the SDK's ``FastMCP`` because
springtail already has what FastMCP would rebuild: the input schemas (sent
exactly as a model sees them through springtail), argument validation with
field-by-field messages, result conversion and approval. The server only
translates: ``tools/list`` lists the callbacks' definitions, ``tools/call``
runs ``callback.acall`` with the request's ``_meta`` as the ``ToolContext``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import socket
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any

from springtail.mcp._access import HttpAccess
from springtail.mcp._meta import context_from_meta
from springtail.tools import ToolCallback, ToolExecutionError

if TYPE_CHECKING:
    from mcp import types
    from mcp.server.lowlevel import Server

__all__ = ["create_server", "serve", "serve_http", "serve_stdio"]

_APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "approve": {
            "type": "boolean",
            "title": "Approve",
            "description": "Run the tool with these arguments",
        }
    },
    "required": ["approve"],
}


def create_server(
    tools: Sequence[Any],
    *,
    name: str = "springtail",
    version: str | None = None,
    instructions: str | None = None,
    approve_all: bool = False,
) -> Server[Any, Any]:
    """An SDK ``Server`` that lists and runs ``tools``.

    Args:
        tools: What to serve: ``@tool`` functions, objects with ``@tool``
            methods, ``ToolCallback``s, or lists of these (anything
            [`tool_callbacks`][springtail.tools.tool_callbacks] takes).
        name: The server's name in the ``initialize`` answer.
        version: Its version; springtail's by default.
        instructions: Sent to clients on connect.
        approve_all: Run tools marked ``requires_approval`` without asking.
            Otherwise the server asks the client's user through MCP
            elicitation, and refuses the call when the client cannot ask or
            the user does not approve.

    Raises:
        ValueError: a source holds no tools, or two tools share a name.
    """
    from mcp import types
    from mcp.server.lowlevel import Server

    from springtail.execution import DefaultToolExecutionExceptionProcessor
    from springtail.tools import tool_callbacks

    by_name = {cb.tool_definition.name: cb for cb in tool_callbacks(*tools)}
    listed = [
        types.Tool(
            name=cb.tool_definition.name,
            description=cb.tool_definition.description,
            inputSchema=dict(cb.tool_definition.input_schema),
        )
        for cb in by_name.values()
    ]
    processor = DefaultToolExecutionExceptionProcessor(always_throw=False)
    server: Server[Any, Any] = Server(
        name, version=version or _version(), instructions=instructions
    )

    @server.list_tools()  # type: ignore[untyped-decorator,no-untyped-call]
    async def list_tools() -> list[types.Tool]:
        return listed

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
    async def call_tool(tool_name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        callback = by_name.get(tool_name)
        if callback is None:
            known = ", ".join(by_name) or "none"
            return _error(f"Unknown tool '{tool_name}'; the tools are: {known}.")
        request = server.request_context
        if callback.tool_metadata.requires_approval and not approve_all:
            refusal = await _ask_approval(request, tool_name, arguments)
            if refusal is not None:
                return _error(refusal)
        try:
            text = await _run(callback, arguments, context_from_meta(request.meta))
        except ToolExecutionError as exc:
            return _error(str(processor(exc)))
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], isError=False
        )

    return server


async def _run(callback: ToolCallback, arguments: dict[str, Any], context: Any) -> str:
    timeout = callback.tool_metadata.timeout
    tool_input = json.dumps(arguments, ensure_ascii=False)
    if timeout is None:
        return await callback.acall(tool_input, context)
    try:
        async with asyncio.timeout(timeout):
            return await callback.acall(tool_input, context)
    except TimeoutError as exc:
        definition = callback.tool_definition
        raise ToolExecutionError(
            definition, exc, f"Tool '{definition.name}' timed out after {timeout:g} s."
        ) from None


async def _ask_approval(request: Any, tool_name: str, arguments: dict[str, Any]) -> str | None:
    """``None`` when the client's user approved; else why the tool did not run."""
    from mcp import types

    session = request.session
    capability = types.ClientCapabilities(elicitation=types.ElicitationCapability())
    if not session.check_client_capability(capability):
        return (
            f"Tool '{tool_name}' needs the user's approval and was not run: this MCP client "
            "cannot ask (it does not support elicitation); the server's operator can allow "
            "such calls with --yes."
        )
    shown = json.dumps(arguments, ensure_ascii=False)
    try:
        answer = await session.elicit(
            message=f"Allow {tool_name}({shown})?",
            requestedSchema=_APPROVAL_SCHEMA,
            related_request_id=request.request_id,
        )
    except Exception as exc:
        return f"Tool '{tool_name}' was not run: asking for approval failed ({exc})."
    if answer.action == "accept" and (answer.content or {}).get("approve") is True:
        return None
    return f"Tool '{tool_name}' was not run: the user did not approve it."


def _error(text: str) -> types.CallToolResult:
    from mcp import types

    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], isError=True)


async def serve_stdio(server: Server[Any, Any]) -> None:
    """Serve over stdin/stdout until the client closes stdin.

    Stdout carries the protocol, so once the transport holds it, whatever a
    tool prints goes to stderr instead of corrupting the stream.
    """
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        with contextlib.redirect_stdout(sys.stderr):
            await server.run(read, write, server.create_initialization_options())


async def serve_http(
    server: Server[Any, Any],
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    on_ready: Callable[[str], None] | None = None,
    token: str | None = None,
    allowed_hosts: Sequence[str] = (),
) -> None:
    """Serve Streamable HTTP at ``http://HOST:PORT/mcp`` until interrupted.

    ``port=0`` picks a free port; ``on_ready`` receives the endpoint's URL
    once the socket listens. The SDK's DNS-rebinding protection is on: only
    requests whose ``Host`` is a loopback name, ``host`` or one of
    ``allowed_hosts``, and whose ``Origin`` (when a browser sends one) is
    such an address, are answered (421 and 403 otherwise). With ``token``
    every request must carry ``Authorization: Bearer TOKEN`` (401 otherwise);
    anything but a loopback ``host`` needs one.

    Raises:
        ValueError: a token is needed or unusable, or an allowed host is not
            a name (one sentence).
        OSError: the address cannot be bound (the port is taken, say).
    """
    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Route

    access = HttpAccess(host=host, token=token, allowed_hosts=tuple(allowed_hosts))
    # Bound here, not by uvicorn, so a taken port is a plain OSError (uvicorn
    # would log a traceback and exit), and port 0's pick is known.
    listening = _bind(host, port)
    bound = listening.getsockname()[1]
    manager = StreamableHTTPSessionManager(
        app=server, security_settings=access.transport_security(bound)
    )
    _quiet_closed_streams()

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    endpoint = _Endpoint(manager, token)
    app = Starlette(routes=[Route(path, endpoint=endpoint)], lifespan=lifespan)
    # Proxy headers are not trusted: the client address is the socket's.
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="on", proxy_headers=False
    )
    web = uvicorn.Server(config)
    task = asyncio.ensure_future(web.serve(sockets=[listening]))
    # uvicorn offers a flag, not an event
    while not web.started and not task.done():  # noqa: ASYNC110
        await asyncio.sleep(0.02)
    if web.started and on_ready is not None:
        shown_host = f"[{host}]" if ":" in host else host
        on_ready(f"http://{shown_host}:{bound}{path}")
    await task


class _Endpoint:
    """The MCP endpoint: the token check (when there is a token), then the SDK's transport."""

    def __init__(self, manager: Any, token: str | None) -> None:
        self._manager = manager
        self._token = token.encode() if token else None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self._token is not None and not self._authorized(scope):
            body = json.dumps(
                {
                    "error": "This MCP server needs its access token: send 'Authorization: Bearer "
                    "<token>'."
                }
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"www-authenticate", b'Bearer realm="mcp"'),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self._manager.handle_request(scope, receive, send)

    def _authorized(self, scope: Any) -> bool:
        assert self._token is not None
        for key, value in scope.get("headers", ()):
            if key == b"authorization" and value[:7].lower() == b"bearer ":
                return hmac.compare_digest(value[7:].strip(), self._token)
        return False


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
    except OSError:
        listening.close()
        raise
    return listening


class _ClosedStreamFilter(logging.Filter):
    """Drops the SDK's traceback for a client that ended its session (not an error)."""

    def filter(self, record: logging.LogRecord) -> bool:
        import anyio

        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, anyio.ClosedResourceError)


def _quiet_closed_streams() -> None:
    logger = logging.getLogger("mcp.server.streamable_http")
    if not any(isinstance(f, _ClosedStreamFilter) for f in logger.filters):
        logger.addFilter(_ClosedStreamFilter())


def serve(
    tools: Sequence[Any],
    *,
    name: str = "springtail",
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8000,
    approve_all: bool = False,
    instructions: str | None = None,
    token: str | None = None,
    allowed_hosts: Sequence[str] = (),
) -> None:
    """Serve ``tools`` over stdio (default) or Streamable HTTP; blocks until stopped.

    Over HTTP the endpoint's URL is printed on stderr once it listens
    (stdout stays clean either way: over stdio it carries the protocol);
    ``token`` and ``allowed_hosts`` are [`serve_http`][]'s.

    Raises:
        ValueError: the tools repeat a name or none are given; over HTTP, a
            token is needed or unusable (one sentence).
    """
    if http:  # refuse an unsafe address before anything starts
        HttpAccess(host=host, token=token, allowed_hosts=tuple(allowed_hosts))
    server = create_server(tools, name=name, approve_all=approve_all, instructions=instructions)
    count = len(_tool_names(tools))
    if not http:
        asyncio.run(serve_stdio(server))
        return

    def announce(url: str) -> None:
        print(f"{name}: serving {count} tool(s) over MCP at {url}", file=sys.stderr)
        sys.stderr.flush()

    asyncio.run(
        serve_http(
            server,
            host=host,
            port=port,
            on_ready=announce,
            token=token,
            allowed_hosts=allowed_hosts,
        )
    )


def _tool_names(tools: Sequence[Any]) -> list[str]:
    from springtail.tools import tool_callbacks

    return [cb.tool_definition.name for cb in tool_callbacks(*tools)]


def _version() -> str:
    from springtail import __version__

    return __version__
