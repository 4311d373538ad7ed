"""Where an MCP server is: a command to start (stdio) or a URL to reach (HTTP).

Plain frozen values, free of the SDK, so that a configuration can be read and
checked before anything is started. ``servers_from_config`` reads the
``{"mcpServers": {...}}`` layout that Claude Desktop, Cursor and most MCP
hosts share.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

__all__ = ["HttpServer", "McpServerSpec", "StdioServer", "load_servers", "servers_from_config"]


@dataclass(frozen=True, slots=True, kw_only=True)
class StdioServer:
    """A server springtail starts as a child process and talks to over stdin/stdout.

    Attributes:
        command: The program to run (looked up on ``PATH``).
        args: Its arguments.
        env: Variables added to a minimal inherited environment (the SDK
            passes on only ``HOME``, ``PATH`` and similar, not secrets).
        cwd: The child's working folder; ``None`` keeps the current one.
    """

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None

    def __post_init__(self) -> None:
        if not self.command or not self.command.strip():
            raise ValueError("StdioServer.command must not be empty")
        object.__setattr__(self, "args", tuple(self.args))
        object.__setattr__(self, "env", dict(self.env))

    def describe(self) -> str:
        """The command line, as a person would type it."""
        return shlex.join([self.command, *self.args])


@dataclass(frozen=True, slots=True, kw_only=True)
class HttpServer:
    """A server already running, reached over Streamable HTTP.

    Attributes:
        url: The MCP endpoint, e.g. ``http://127.0.0.1:8000/mcp``.
        headers: Sent with every request (an ``Authorization`` header, say).
    """

    url: str
    headers: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise ValueError(
                f"HttpServer.url must start with http:// or https://, got {self.url!r}"
            )
        object.__setattr__(self, "headers", dict(self.headers))

    def describe(self) -> str:
        """The URL."""
        return self.url


McpServerSpec: TypeAlias = StdioServer | HttpServer
"""Either way of reaching a server."""


def servers_from_config(
    config: Mapping[str, Any], *, source: str = "the configuration"
) -> dict[str, McpServerSpec]:
    """Read ``{"mcpServers": {name: {command, args, env} | {url, headers}}}``.

    Args:
        config: The parsed JSON document.
        source: How to name the document in error messages (a file name).

    Returns:
        Each server's name and where it is, in the document's order.

    Raises:
        ValueError: the layout is wrong; the message names the server and the
            field, in one sentence.
    """
    servers = config.get("mcpServers") if isinstance(config, Mapping) else None
    if not isinstance(servers, Mapping):
        raise ValueError(f'{source} has no "mcpServers" object.')
    specs: dict[str, McpServerSpec] = {}
    for name, entry in servers.items():
        specs[str(name)] = _server_from_entry(str(name), entry, source)
    return specs


def load_servers(path: str | Path) -> dict[str, McpServerSpec]:
    """Read an ``mcpServers`` JSON file; see [`servers_from_config`][].

    Raises:
        ValueError: the file is missing, is not UTF-8 JSON or has the wrong layout.
    """
    file = Path(path)
    try:
        text = file.read_bytes().decode("utf-8-sig")  # a byte-order mark is fine
    except OSError as exc:
        raise ValueError(
            f"Cannot read the MCP configuration {file}: {exc.strerror or exc}."
        ) from exc
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"The MCP configuration {file} is not UTF-8 text (byte {exc.object[exc.start]:#04x} "
            f"at offset {exc.start}); save it as UTF-8."
        ) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"The MCP configuration {file} is not valid JSON (line {exc.lineno}: {exc.msg})."
        ) from exc
    return servers_from_config(document, source=f"The MCP configuration {file}")


def _server_from_entry(name: str, entry: Any, source: str) -> McpServerSpec:
    where = f'{source}: server "{name}"'
    if not isinstance(entry, Mapping):
        raise ValueError(f"{where} must be an object with a command or a url.")
    if "command" in entry and "url" in entry:
        raise ValueError(f"{where} has both a command and a url; give one.")
    if "url" in entry:
        url = entry["url"]
        headers = entry.get("headers", {})
        if not isinstance(url, str) or not isinstance(headers, Mapping):
            raise ValueError(f'{where}: "url" must be a string and "headers" an object.')
        try:
            return HttpServer(url=url, headers={str(k): str(v) for k, v in headers.items()})
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}.") from exc
    command = entry.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ValueError(f'{where} needs a "command" (a string) or a "url".')
    args = entry.get("args", [])
    env = entry.get("env", {})
    if not isinstance(args, list) or not all(isinstance(a, str | int | float) for a in args):
        raise ValueError(f'{where}: "args" must be a list of strings.')
    if not isinstance(env, Mapping):
        raise ValueError(f'{where}: "env" must be an object of strings.')
    cwd = entry.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise ValueError(f'{where}: "cwd" must be a string.')
    return StdioServer(
        command=command,
        args=tuple(str(a) for a in args),
        env={str(k): str(v) for k, v in env.items()},
        cwd=cwd,
    )
