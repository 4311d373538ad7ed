"""The stdio transport: an MCP server as a child process that springtail owns whole.

The SDK's ``stdio_client`` starts the child in a session of its own but lets
it go once it exits after its stdin closes, so a helper process the server
started (a language server, a browser, ``npx``'s real server) runs on, and
it holds the server's stdout open: a server that crashes mid-call then
looks alive and its calls wait for their whole timeout. This transport
does what ``stdio_client`` does (the same environment rules, one JSON-RPC
message a line) with three differences:

- **The process group ends with the session.** The child leads a process
  group of its own; when the session ends, or the child exits, the whole
  group is stopped (SIGTERM, then SIGKILL), helpers included.
- **A child that exits ends the session at once**, whoever still holds its
  pipes: pending calls fail with the server's last words, not a timeout.
- **A stray line on stdout is one sentence**, not the SDK's traceback: it
  is reported through ``on_stray_line`` and skipped.

POSIX only; elsewhere the SDK's own transport is used.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, Final, TextIO

from springtail.mcp._params import StdioServer

if TYPE_CHECKING:
    import anyio
    from anyio.abc import Process

__all__ = ["stdio_transport"]

_GRACE_S: Final = 2.0
"""How long a child may take to exit after its stdin closes, and after SIGTERM (the SDK's)."""
_POLL_S: Final = 0.05
_DRAIN_S: Final = 0.5
"""After the child exits: how long to read what it wrote before its stdout is given up."""


@contextlib.asynccontextmanager
async def stdio_transport(
    server: StdioServer, *, errlog: TextIO, on_stray_line: Callable[[str], None]
) -> AsyncIterator[tuple[Any, Any]]:
    """Start ``server``; yield the session's ``(read, write)`` streams; stop its group after.

    The read stream ends when the child exits (or closes its stdout).

    Raises:
        OSError: the command cannot be started.
    """
    import anyio
    from anyio.streams.text import TextReceiveStream
    from mcp.client.stdio import get_default_environment
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCMessage

    process = await anyio.open_process(
        [server.command, *server.args],
        env={**get_default_environment(), **server.env},
        stderr=errlog,
        cwd=server.cwd,
        start_new_session=True,  # its own process group: pgid == pid
    )
    group = process.pid
    read_writer, read = anyio.create_memory_object_stream[Any](0)
    write, write_reader = anyio.create_memory_object_stream[Any](0)
    read_done = anyio.Event()
    exited = anyio.Event()

    async def read_stdout() -> None:
        assert process.stdout is not None
        try:
            async with read_writer:
                pending = ""
                stream = TextReceiveStream(process.stdout, encoding="utf-8", errors="replace")
                async for chunk in stream:
                    *lines, pending = (pending + chunk).split("\n")
                    for line in lines:
                        if not line.strip():
                            continue
                        try:
                            message = JSONRPCMessage.model_validate_json(line)
                        except ValueError:  # pydantic's ValidationError: not a message
                            on_stray_line(line)
                            continue
                        await read_writer.send(SessionMessage(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass
        finally:
            read_done.set()

    async def write_stdin() -> None:
        assert process.stdin is not None
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async with write_reader:
                async for session_message in write_reader:
                    text = session_message.message.model_dump_json(by_alias=True, exclude_none=True)
                    await process.stdin.send((text + "\n").encode("utf-8"))

    async def watch_exit(reading: anyio.CancelScope) -> None:
        # asyncio's wait() returns only once the pipes close as well, which a
        # helper holding stdout may never do; the return code is the exit.
        while process.returncode is None:  # noqa: ASYNC110
            await anyio.sleep(_POLL_S)
        exited.set()
        helpers = _signal(group, signal.SIGTERM)  # and with them their hold on stdout
        with anyio.move_on_after(_DRAIN_S):
            await read_done.wait()  # what the child wrote before it exited
        reading.cancel()  # a helper outside the group still holds stdout: give it up
        if helpers:
            await _end_group(group)

    try:
        async with anyio.create_task_group() as tasks:
            reading = anyio.CancelScope()

            async def read_until_cancelled() -> None:
                with reading:
                    await read_stdout()
                read_writer.close()  # also when cancelled before the reader began

            tasks.start_soon(read_until_cancelled)
            tasks.start_soon(write_stdin)
            tasks.start_soon(watch_exit, reading)
            try:
                yield read, write
            finally:
                with anyio.CancelScope(shield=True):
                    await _stop(process, group, exited)
                    tasks.cancel_scope.cancel()
                    for stream in (read, write, read_writer, write_reader):
                        stream.close()
    finally:
        # Also when the session ends in an error (a startup timeout, a
        # refused handshake): a child never waited for is left unreaped, and
        # its transport warns when collected.
        with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
            await process.aclose()


async def _stop(process: Process, group: int, exited: anyio.Event) -> None:
    """Close the child's stdin, give it time, then stop its whole group."""
    import anyio

    if process.stdin is not None:
        with contextlib.suppress(Exception):
            await process.stdin.aclose()
    with anyio.move_on_after(_GRACE_S):
        await exited.wait()
    await _end_group(group)


async def _end_group(group: int) -> None:
    """SIGTERM to every process of the group, SIGKILL to what is left after the grace time."""
    import anyio

    if not _signal(group, signal.SIGTERM):
        return
    with anyio.move_on_after(_GRACE_S):
        while _signal(group, 0):  # noqa: ASYNC110 - no event says that a group is empty
            await anyio.sleep(_POLL_S)
        return
    _signal(group, signal.SIGKILL)


def _signal(group: int, number: int) -> bool:
    """Send ``number`` to the group; whether any process of it was there to receive it."""
    try:
        os.killpg(group, number)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member changed its user: nothing more we may do
        return False
    return True
