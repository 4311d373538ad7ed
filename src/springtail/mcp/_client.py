"""``McpClient``: an MCP server's tools as springtail ``ToolCallback``s."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Collection
from datetime import timedelta
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, TypeAlias

from springtail.mcp._callback import McpToolCallback
from springtail.mcp._connection import Connection, Elicitor
from springtail.mcp._errors import McpServerError
from springtail.mcp._meta import meta_from_context
from springtail.mcp._names import skipped_sentence, usable_tools
from springtail.mcp._params import McpServerSpec
from springtail.mcp._results import invalid_result, result_text
from springtail.tools import ToolContext, ToolDefinition, ToolExecutionError, ToolMetadata
from springtail.tools._converter import cut_result

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp.types import CallToolResult, Tool

__all__ = ["DEFAULT_MAX_RESULT_CHARS", "McpClient", "ToolFilter"]

_log = logging.getLogger("springtail.mcp")

DEFAULT_MAX_RESULT_CHARS = 100_000
"""An MCP result's budget unless the client is given another: a server in another
process can answer megabytes, which a model would receive whole in its next request."""

ToolFilter: TypeAlias = Callable[[ToolDefinition], bool] | Collection[str]
"""Which of a server's tools to offer: a predicate on the server's definition, or names."""

ApprovalRule: TypeAlias = bool | Collection[str] | Callable[[str], bool]
"""Which tools need the manager's approver: all, these names, or a predicate on the name."""

_EMPTY_SCHEMA = {"type": "object", "properties": {}}


class McpToolError(Exception):
    """A tool result the server marked ``isError``; the message is its text."""


class McpClient:
    """A connection to one MCP server whose tools springtail can call.

    Use it as a context manager, ``async with`` or plain ``with``; both start
    the server (or reach it), list its tools, and on exit end the session and
    stop a stdio child. Pass [`tool_callbacks`][] wherever springtail takes
    tools (``ChatClient(tools=...)``, ``.tools(...)``, ``ChatOptions``), or
    the client itself as a ``ToolCallbackResolver``.

    Args:
        server: A [`StdioServer`][] or [`HttpServer`][].
        name: The server's name in messages and on each callback's
            ``server``; defaults to the command line or the URL.
        prefix: Put before every tool name, so that two servers' tools cannot
            collide (``"files_"`` turns ``read`` into ``files_read``).
        tool_filter: Offer only these tools: a set of the server's tool names
            or a predicate on the server's ``ToolDefinition``.
        timeout: Seconds one call may take; ``None`` waits as long as the
            tool loop does.
        requires_approval: Tools the manager's approver must allow before
            each call: ``True`` for all, a set of the server's tool names, or
            a predicate on such a name.
        startup_timeout: Seconds to wait for the server's first answer.
        stderr: Where a stdio server's stderr goes; by default it is kept
            aside and its last line explains a failure.
        elicitation: Answers the server's questions to the user (MCP
            elicitation), e.g. an approval a server asks for before a tool
            runs: ``(message, requested_schema) -> answer fields``, or
            ``None`` to decline. Without one, the client does not offer
            elicitation, and such servers refuse those calls.
        max_result_chars: A result longer than this is cut, with a line
            saying how much was cut (the manager's ``max_result_chars``
            wording); ``None`` keeps results whole.

    A tool whose name a model cannot call (empty, over 64 characters, other
    characters than letters, digits, ``_`` and ``-``, or listed twice) is
    left out, and one warning per server names them ([`skipped_tools`][]).

    The tool list is fetched on connect and kept; when the server announces
    that its list changed, it is fetched again in the background, and the
    next [`tool_callbacks`][] returns the new list.
    """

    def __init__(
        self,
        server: McpServerSpec,
        *,
        name: str | None = None,
        prefix: str = "",
        tool_filter: ToolFilter | None = None,
        timeout: float | None = None,
        requires_approval: ApprovalRule = False,
        startup_timeout: float = 30.0,
        stderr: IO[str] | None = None,
        elicitation: Elicitor | None = None,
        max_result_chars: int | None = DEFAULT_MAX_RESULT_CHARS,
    ) -> None:
        if max_result_chars is not None and not max_result_chars > 0:
            raise ValueError(f"max_result_chars must be positive, got {max_result_chars!r}")
        if timeout is not None and not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        if not startup_timeout > 0:
            raise ValueError(f"startup_timeout must be positive, got {startup_timeout!r}")
        self.server = server
        self.name = name or server.describe()
        self.prefix = prefix
        self._filter = tool_filter
        self._timeout = timeout
        self._approval = requires_approval
        self._startup_timeout = startup_timeout
        self._stderr = stderr
        self._elicitation = elicitation
        self._max_result_chars = max_result_chars
        self._skipped: tuple[str, ...] = ()
        self._connection: Connection | None = None
        self._tools: list[McpToolCallback] = []
        self._tools_lock = threading.Lock()
        self._version = 0
        self._server_info: tuple[str, str] | None = None
        self._instructions: str | None = None

    # -- lifecycle ------------------------------------------------------------

    def connect(self) -> McpClient:
        """Start or reach the server and list its tools; returns ``self``.

        Connecting again after the server stopped starts a new session (and
        a new child); tool callbacks taken before keep working with it.

        Raises:
            McpServerError: the server would not start, could not be reached,
                or failed while listing its tools (one sentence).
        """
        if self._connection is not None:
            if self._connection.alive:
                return self
            self.close()  # the server stopped: start it anew
        connection = Connection(
            self.server,
            name=self.name,
            startup_timeout=self._startup_timeout,
            stderr=self._stderr,
            on_tools_changed=self._tools_changed,
            elicitation=self._elicitation,
        )
        initialized = connection.start()
        self._connection = connection
        info = initialized.serverInfo
        self._server_info = (info.name, info.version)
        self._instructions = initialized.instructions
        try:
            self._set_tools(connection.run(_list_all_tools))
        except McpServerError:
            connection.close()
            raise
        except Exception as exc:
            connection.close()
            raise McpServerError(
                self.name, f"MCP server {self.name!r} could not list its tools: {exc}."
            ) from exc
        return self

    def close(self) -> None:
        """End the session; a stdio child is stopped. Safe to call twice."""
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()

    async def aconnect(self) -> McpClient:
        """[`connect`][] for async code (the session runs on its own thread)."""
        return await asyncio.to_thread(self.connect)

    async def aclose(self) -> None:
        """[`close`][] for async code."""
        await asyncio.to_thread(self.close)

    def __enter__(self) -> McpClient:
        return self.connect()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> McpClient:
        return await self.aconnect()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    @property
    def connected(self) -> bool:
        """Whether the session is open and the server has not stopped."""
        return self._connection is not None and self._connection.alive

    @property
    def server_info(self) -> tuple[str, str] | None:
        """The server's own ``(name, version)``, once connected."""
        return self._server_info

    @property
    def instructions(self) -> str | None:
        """The instructions the server sent on connect, if any."""
        return self._instructions

    # -- tools ----------------------------------------------------------------

    def tool_callbacks(self) -> list[McpToolCallback]:
        """The server's tools (filtered, prefixed), from the kept list.

        Raises:
            McpServerError: the client is not connected.
        """
        if self._connection is None:
            raise McpServerError(self.name, f"The MCP client for {self.name!r} is not connected.")
        with self._tools_lock:
            return list(self._tools)

    def list_tools(self) -> list[McpToolCallback]:
        """Ask the server for its tools now, keep and return them."""
        self._set_tools(self._require().run(_list_all_tools))
        return self.tool_callbacks()

    async def alist_tools(self) -> list[McpToolCallback]:
        """[`list_tools`][] for async code."""
        self._set_tools(await self._require().arun(_list_all_tools))
        return self.tool_callbacks()

    @property
    def skipped_tools(self) -> tuple[str, ...]:
        """The server's tool names left out of the kept list, because a model cannot call them."""
        return self._skipped

    @property
    def tools_version(self) -> int:
        """Goes up by one each time the kept tool list is replaced."""
        return self._version

    def resolve(self, tool_name: str) -> McpToolCallback | None:
        """The tool called ``tool_name`` (prefixed), so the client can act as a resolver."""
        with self._tools_lock:
            for callback in self._tools:
                if callback.tool_definition.name == tool_name:
                    return callback
        return None

    def _require(self) -> Connection:
        connection = self._connection
        if connection is None:
            raise McpServerError(self.name, f"The MCP client for {self.name!r} is not connected.")
        return connection

    def _tools_changed(self) -> None:
        """On the session's loop: the server's tool list changed; fetch it again."""
        connection = self._connection
        if connection is None:
            return

        async def refresh() -> None:
            try:
                self._set_tools(await connection.arun(_list_all_tools))
            except Exception:  # a later call will explain a dead server
                return

        connection.spawn(refresh())

    def _set_tools(self, tools: list[Tool]) -> None:
        usable, skipped = usable_tools(tools, self.prefix)
        if skipped and tuple(skipped) != self._skipped:
            what = f"MCP server {self.name!r}"
            _log.warning("%s", skipped_sentence(what, skipped, self.prefix))
        self._skipped = tuple(skipped)
        callbacks = [cb for cb in (self._callback_for(t) for t in usable) if cb is not None]
        with self._tools_lock:
            self._tools = callbacks
            self._version += 1

    def _callback_for(self, tool: Tool) -> McpToolCallback | None:
        schema: dict[str, Any] = dict(tool.inputSchema or _EMPTY_SCHEMA)
        description = (tool.description or tool.title or "").strip() or tool.name.replace("_", " ")
        server_definition = ToolDefinition(
            name=tool.name, description=description, input_schema=schema or _EMPTY_SCHEMA
        )
        if not self._offered(server_definition):
            return None
        definition = ToolDefinition(
            name=self.prefix + tool.name,
            description=description,
            input_schema=server_definition.input_schema,
        )
        metadata = ToolMetadata(
            timeout=self._timeout, requires_approval=self._asks(tool.name), is_async=True
        )
        return McpToolCallback(
            runner=self,
            definition=definition,
            metadata=metadata,
            server=self.name,
            server_tool_name=tool.name,
        )

    def _offered(self, definition: ToolDefinition) -> bool:
        rule = self._filter
        if rule is None:
            return True
        if callable(rule):
            return bool(rule(definition))
        return definition.name in rule

    def _asks(self, tool_name: str) -> bool:
        rule = self._approval
        if isinstance(rule, bool):
            return rule
        if callable(rule):
            return bool(rule(tool_name))
        return tool_name in rule

    # -- calls (ToolRunner) ---------------------------------------------------

    async def acall_tool(
        self,
        definition: ToolDefinition,
        server_tool: str,
        arguments: dict[str, Any],
        context: ToolContext | None,
    ) -> str:
        """Call ``server_tool`` from async code; see [`McpToolCallback`][]."""
        request = self._request(server_tool, arguments, context)
        try:
            result = await self._require().arun(request)
        except Exception as exc:
            raise self._call_failed(definition, exc) from exc
        return self._answer(definition, result)

    def call_tool_sync(
        self,
        definition: ToolDefinition,
        server_tool: str,
        arguments: dict[str, Any],
        context: ToolContext | None,
    ) -> str:
        """Call ``server_tool`` from sync code; see [`McpToolCallback`][]."""
        request = self._request(server_tool, arguments, context)
        try:
            result = self._require().run(request)
        except Exception as exc:
            raise self._call_failed(definition, exc) from exc
        return self._answer(definition, result)

    def _request(
        self, server_tool: str, arguments: dict[str, Any], context: ToolContext | None
    ) -> Callable[[ClientSession], Any]:
        meta = meta_from_context(context)
        timeout = None if self._timeout is None else timedelta(seconds=self._timeout)

        async def request(session: ClientSession) -> CallToolResult:
            return await session.call_tool(
                server_tool, arguments, read_timeout_seconds=timeout, meta=meta
            )

        return request

    def _call_failed(self, definition: ToolDefinition, exc: Exception) -> ToolExecutionError:
        if isinstance(exc, ToolExecutionError):
            return exc
        if isinstance(exc, McpServerError):
            return ToolExecutionError(definition, exc)
        from mcp.shared.exceptions import McpError

        if isinstance(exc, McpError) and exc.error.code == 408:  # the SDK's read timeout
            return ToolExecutionError(
                definition,
                TimeoutError(str(exc)),
                f"Tool '{definition.name}' did not answer within {self._timeout:g} s.",
            )
        if isinstance(exc, McpError):
            return ToolExecutionError(
                definition, exc, f"MCP server {self.name!r} refused the call: {exc}"
            )
        if _is_validation_error(exc):  # the tool loop shows it once, as the call's answer
            message = (
                f"MCP server {self.name!r} answered '{definition.name}' with a result that is "
                f"not valid MCP ({invalid_result(exc)})."
            )
            return ToolExecutionError(definition, exc, message)
        return ToolExecutionError(
            definition, exc, f"The call to MCP server {self.name!r} failed: {exc}"
        )

    def _answer(self, definition: ToolDefinition, result: CallToolResult) -> str:
        text = cut_result(result_text(result), self._max_result_chars)
        if result.isError:
            message = text or f"Tool '{definition.name}' reported an error without a message."
            raise ToolExecutionError(definition, McpToolError(message), message)
        return text

    def __repr__(self) -> str:
        state = "connected" if self.connected else "not connected"
        return f"McpClient({self.name!r}, {state})"


def _is_validation_error(exc: Exception) -> bool:
    import pydantic

    return isinstance(exc, pydantic.ValidationError)


async def _list_all_tools(session: ClientSession) -> list[Tool]:
    """Every page of ``tools/list``."""
    from mcp.types import PaginatedRequestParams

    tools: list[Tool] = []
    cursor: str | None = None
    while True:
        params = None if cursor is None else PaginatedRequestParams(cursor=cursor)
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.nextCursor
        if not cursor:
            return tools
