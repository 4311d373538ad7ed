"""One MCP session, owned by one task on a thread of its own.

The SDK's transports and sessions are anyio task groups: they must be entered
and left by the same task, and every stream they hold belongs to one event
loop. Applications, though, open a client in one place and call its tools
from others: a sync ``call()``, a worker thread, another event loop, a
notebook whose loop is blocked by a sync call. So the session lives on a
private event loop in a daemon thread, inside one owner task that enters the
transport and the session, waits, and leaves them again. Every request is a
coroutine handed to that loop; callers wait on a future from any thread or
loop. The price is one thread hop per call, small next to the child process
or HTTP round trip behind it.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import inspect
import logging
import os
import sys
import tempfile
import threading
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import IO, TYPE_CHECKING, Any, TextIO, TypeAlias, TypeVar, cast

from springtail.mcp._errors import McpServerError
from springtail.mcp._failures import (
    anyio_stream_errors,
    http_reason,
    is_http_error,
    last_line,
    root_cause,
)
from springtail.mcp._params import HttpServer, McpServerSpec, StdioServer
from springtail.mcp._stdio import stdio_transport

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp.types import InitializeResult

__all__ = ["Connection", "Elicitor"]

T = TypeVar("T")

_log = logging.getLogger("springtail.mcp")

Elicitor: TypeAlias = Callable[
    [str, Mapping[str, Any]], "Mapping[str, Any] | Awaitable[Mapping[str, Any] | None] | None"
]
"""Answers a server's question to the user (MCP elicitation): given the message and the
requested JSON Schema, the answer's fields to accept, or ``None`` to decline. A sync one
runs on a worker thread, so it may wait for a person."""

_CLOSE_WAIT_S = 10.0
"""How long ``close`` waits for the owner task; the SDK gives a child 2 s after
closing its stdin, then sends SIGTERM and, 2 s later, SIGKILL."""

_open: weakref.WeakSet[Connection] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    """Close connections a program forgot, so no child outlives it."""
    for connection in list(_open):
        with contextlib.suppress(Exception):
            connection.close()


class Connection:
    """A started MCP session that runs requests for any thread or event loop.

    Args:
        server: Where the server is.
        name: The server's name in messages.
        startup_timeout: Seconds to wait for the server's answer to
            ``initialize``.
        stderr: Where a stdio child's stderr goes; ``None`` keeps it in a
            temporary file whose last line explains a failure.
        on_tools_changed: Called on the session's loop when the server says
            its tool list changed; it must not block.
        elicitation: Answers the server's questions to the user; without
            one the client does not offer elicitation.
    """

    def __init__(
        self,
        server: McpServerSpec,
        *,
        name: str,
        startup_timeout: float,
        stderr: IO[str] | None,
        on_tools_changed: Callable[[], None] | None = None,
        elicitation: Elicitor | None = None,
    ) -> None:
        self.server = server
        self.name = name
        self._startup_timeout = startup_timeout
        self._stderr = stderr
        self._on_tools_changed = on_tools_changed
        self._elicitation = elicitation
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._session: ClientSession | None = None
        self._stop: asyncio.Event | None = None
        self._ready: concurrent.futures.Future[InitializeResult] = concurrent.futures.Future()
        self._calls: set[asyncio.Task[Any]] = set()
        self._background: set[asyncio.Task[Any]] = set()
        self._ended: str | None = None
        self._transport_closed = False
        self._errlog_path: str | None = None
        self._lock = threading.Lock()

    # -- lifecycle ------------------------------------------------------------

    def start(self) -> InitializeResult:
        """Start the session and wait until the server has answered ``initialize``.

        Raises:
            McpServerError: the server would not start or could not be reached.
        """
        with self._lock:
            if self._thread is not None:
                raise RuntimeError(f"The MCP connection to {self.name!r} was already started.")
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(
                target=self._run_loop, name=f"springtail-mcp-{self.name}", daemon=True
            )
            self._thread.start()
            _open.add(self)
        try:
            return self._ready.result(timeout=self._startup_timeout + _CLOSE_WAIT_S)
        except concurrent.futures.TimeoutError:
            self.close()
            raise McpServerError(
                self.name, f"{self._what()} did not answer within {self._startup_timeout:g} s."
            ) from None
        except McpServerError:
            self._join()
            raise
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """End the session (calls in flight fail), stop a stdio child, join the thread."""
        loop, stop = self._loop, self._stop
        if loop is not None and not loop.is_closed() and stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(stop.set)
        self._join()

    def _join(self) -> None:
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(_CLOSE_WAIT_S)
        _open.discard(self)

    @property
    def alive(self) -> bool:
        """Whether requests can be sent."""
        return self._session is not None and self._ended is None

    # -- requests -------------------------------------------------------------

    def submit(
        self, request: Callable[[ClientSession], Awaitable[T]]
    ) -> concurrent.futures.Future[T]:
        """Run ``request(session)`` on the session's loop; wait on the returned future.

        Cancelling the future cancels the request.
        """
        loop = self._loop
        if loop is None or loop.is_closed() or not self.alive:
            failed: concurrent.futures.Future[T] = concurrent.futures.Future()
            failed.set_exception(self._gone())
            return failed
        try:
            return asyncio.run_coroutine_threadsafe(self._guarded(request), loop)
        except RuntimeError:  # the loop stopped between the check and the call
            failed = concurrent.futures.Future()
            failed.set_exception(self._gone())
            return failed

    async def arun(self, request: Callable[[ClientSession], Awaitable[T]]) -> T:
        """``submit`` for async callers; cancelling the caller cancels the request."""
        return await asyncio.wrap_future(self.submit(request))

    def run(self, request: Callable[[ClientSession], Awaitable[T]]) -> T:
        """``submit`` for sync callers."""
        if threading.current_thread() is self._thread:
            raise RuntimeError("A sync MCP request cannot be made from the session's own loop.")
        return self.submit(request).result()

    def spawn(self, coroutine: Awaitable[Any]) -> None:
        """Run a coroutine in the background on the session's loop (from that loop)."""
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _guarded(self, request: Callable[[ClientSession], Awaitable[T]]) -> T:
        from mcp.shared.exceptions import McpError
        from mcp.types import CONNECTION_CLOSED

        session = self._session
        task = asyncio.current_task()
        if session is None or self._ended is not None or task is None:
            raise self._gone()
        self._calls.add(task)
        try:
            return await request(session)
        except asyncio.CancelledError:
            if self._ended is not None:
                raise self._gone() from None
            raise
        except McpError as exc:
            # The SDK fails pending requests with CONNECTION_CLOSED when the
            # transport ends; a server may send the same code for a call it
            # refuses ("record not found"), which leaves the session open.
            if exc.error.code == CONNECTION_CLOSED and self._transport_closed:
                raise self._gone() from None
            raise
        except Exception as exc:
            if not isinstance(exc, (OSError, *anyio_stream_errors())):
                raise
            self._ended = self._ended or self._stopped_message()
            raise self._gone() from exc
        finally:
            self._calls.discard(task)

    def _gone(self) -> McpServerError:
        if self._ended is not None:
            return McpServerError(self.name, self._ended)
        return McpServerError(self.name, f"The MCP connection to {self.name!r} is not open.")

    # -- the owner task -------------------------------------------------------

    def _run_loop(self) -> None:
        loop = self._loop
        assert loop is not None
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._main())
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            asyncio.set_event_loop(None)
            loop.close()
            self._remove_errlog()

    async def _main(self) -> None:
        from mcp import ClientSession
        from mcp.types import Implementation

        self._stop = asyncio.Event()
        failure: BaseException | None = None
        try:
            async with contextlib.AsyncExitStack() as stack:
                transport_read, write = await stack.enter_async_context(self._transport())
                read = self._watch(transport_read)
                session = await stack.enter_async_context(
                    ClientSession(
                        read,
                        write,
                        message_handler=self._on_message,
                        elicitation_callback=self._elicit if self._elicitation else None,
                        client_info=Implementation(name="springtail", version=_version()),
                    )
                )
                async with asyncio.timeout(self._startup_timeout):
                    result = await session.initialize()
                self._session = session
                self._ready.set_result(result)
                await self._stop.wait()
                self._ended = self._ended or f"The MCP connection to {self.name!r} was closed."
                await self._cancel_calls()
        except BaseException as exc:  # turned into one sentence below
            failure = exc
        finally:
            if self._ended is None or not self._ready.done():
                self._ended = self._describe(failure)
            await self._cancel_calls()
            for task in list(self._background):
                task.cancel()
            self._session = None
            if not self._ready.done():
                self._ready.set_exception(McpServerError(self.name, self._ended))

    def _watch(self, source: Any) -> Any:
        """The transport's read stream, passed on; its end marks the server as stopped.

        Only a closed transport means the server stopped: then the session
        ends (``connected`` turns false) and every pending call fails with
        the server's last words.
        """
        import anyio

        sink, read = anyio.create_memory_object_stream[Any](0)

        async def pump() -> None:
            try:
                async for message in source:
                    if isinstance(message, Exception):  # the SDK's note of a bad message
                        _log.warning(
                            "MCP server %r sent something unreadable: %s", self.name, message
                        )
                        continue
                    await sink.send(message)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
                pass
            finally:
                source.close()
                self._transport_closed = True
                if self._ready.done():
                    self._ended = self._ended or self._stopped_message()
                sink.close()
                if self._stop is not None:
                    self._stop.set()

        self.spawn(pump())
        return read

    async def _cancel_calls(self) -> None:
        calls = [task for task in self._calls if not task.done()]
        for task in calls:
            task.cancel()
        if calls:
            await asyncio.gather(*calls, return_exceptions=True)

    def _transport(self) -> contextlib.AbstractAsyncContextManager[tuple[Any, Any]]:
        server = self.server
        if isinstance(server, StdioServer):
            return self._stdio(server)
        return self._http(server)

    @contextlib.asynccontextmanager
    async def _stdio(self, server: StdioServer) -> AsyncIterator[tuple[Any, Any]]:
        errlog = self._stderr
        owned: IO[str] | None = None
        if errlog is None:
            fd, self._errlog_path = tempfile.mkstemp(prefix="springtail-mcp-", suffix=".log")
            os.close(fd)
            # A local temp file, opened once per connection: not worth a thread hop.
            owned = errlog = open(self._errlog_path, "a", encoding="utf-8")  # noqa: SIM115, ASYNC230
        try:
            if sys.platform == "win32":  # pragma: no cover - the SDK's job objects there
                from mcp.client.stdio import StdioServerParameters, stdio_client

                parameters = StdioServerParameters(
                    command=server.command,
                    args=list(server.args),
                    env=dict(server.env) or None,
                    cwd=server.cwd,
                )
                async with stdio_client(parameters, errlog=cast(TextIO, errlog)) as streams:
                    yield streams
            else:
                async with stdio_transport(
                    server, errlog=cast(TextIO, errlog), on_stray_line=self._stray_line
                ) as streams:
                    yield streams
        finally:
            if owned is not None:
                owned.close()

    def _stray_line(self, line: str) -> None:
        shown = line.strip()
        shown = shown if len(shown) <= 80 else shown[:79] + "…"
        _log.warning(
            "%s wrote a line on stdout that is not an MCP message, so it was skipped: %r "
            "(a server must write only protocol messages there; its logs belong on stderr).",
            self._what(),
            shown,
        )

    @contextlib.asynccontextmanager
    async def _http(self, server: HttpServer) -> AsyncIterator[tuple[Any, Any]]:
        import httpx
        from mcp.client.streamable_http import streamable_http_client

        client = httpx.AsyncClient(
            headers=dict(server.headers), timeout=httpx.Timeout(30.0, read=300.0)
        )
        async with client, streamable_http_client(server.url, http_client=client) as streams:
            read, write, _session_id = streams
            yield read, write

    async def _on_message(self, message: Any) -> None:
        from mcp import types

        if (
            isinstance(message, types.ServerNotification)
            and isinstance(message.root, types.ToolListChangedNotification)
            and self._on_tools_changed is not None
        ):
            self._on_tools_changed()

    async def _elicit(self, context: Any, params: Any) -> Any:
        """The server asks the user something: the elicitor answers, or declines."""
        from mcp import types

        elicitor = self._elicitation
        if elicitor is None or getattr(params, "mode", "form") != "form":
            return types.ElicitResult(action="decline")
        try:
            if inspect.iscoroutinefunction(elicitor):
                answer = await elicitor(params.message, params.requestedSchema)
            else:
                answer = await asyncio.to_thread(elicitor, params.message, params.requestedSchema)
                if inspect.isawaitable(answer):
                    answer = await answer
        except Exception:
            return types.ElicitResult(action="cancel")
        if answer is None:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content=dict(answer))

    # -- explaining failures -------------------------------------------------

    def _describe(self, failure: BaseException | None) -> str:
        """One sentence on why the session ended (or never began)."""
        what = self._what()
        cause = root_cause(failure)
        tail = self._stderr_tail()
        said = f"; it said: {tail}" if tail else ""
        if cause is None:
            if self._ready.done():
                return f"{what} stopped{said}."
            return f"{what} closed before it answered{said}."
        if isinstance(cause, FileNotFoundError | PermissionError) and isinstance(
            self.server, StdioServer
        ):
            reason = cause.strerror or type(cause).__name__
            return f"{what} could not be started: {reason} ({self.server.command})."
        if isinstance(cause, TimeoutError) and not self._ready.done():
            return f"{what} did not answer within {self._startup_timeout:g} s{said}."
        if is_http_error(cause):
            return f"{what} could not be reached: {http_reason(cause)}."
        from mcp.shared.exceptions import McpError

        if isinstance(cause, (McpError, anyio_stream_errors())):
            if not self._ready.done():
                return f"{what} exited before it answered{said}."
            return self._stopped_message()
        if isinstance(cause, asyncio.CancelledError):
            return f"{what} stopped{said}."
        return f"{what} failed: {type(cause).__name__}: {cause}{said}."

    def _stopped_message(self) -> str:
        tail = self._stderr_tail()
        said = f"; it said: {tail}" if tail else ""
        return f"{self._what()} stopped{said}."

    def _what(self) -> str:
        described = self.server.describe()
        if self.name == described:
            return f"MCP server ({described})"
        return f"MCP server {self.name!r} ({described})"

    def _stderr_tail(self) -> str:
        return "" if self._errlog_path is None else last_line(self._errlog_path)

    def _remove_errlog(self) -> None:
        if self._errlog_path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._errlog_path)


def _version() -> str:
    from springtail import __version__

    return __version__
