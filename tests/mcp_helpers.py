"""What the MCP tests share: the servers they start and how they check a child is gone."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from springtail.mcp import StdioServer

REPO = Path(__file__).resolve().parent.parent
SAMPLE_TOOLS = "tests.mcp_sample_tools:TOOLS"


def springtail_serve(*extra: str) -> StdioServer:
    """``springtail mcp serve`` of the sample tools, as a stdio child."""
    return StdioServer(
        command=sys.executable,
        args=("-m", "springtail.cli", "mcp", "serve", SAMPLE_TOOLS, *extra),
        cwd=str(REPO),
    )


def raw_sdk_server() -> StdioServer:
    """The server written with the SDK's own API."""
    return StdioServer(command=sys.executable, args=(str(REPO / "tests" / "mcp_raw_server.py"),))


def broken_server() -> StdioServer:
    """The server that misbehaves on purpose (``tests/mcp_broken_server.py``)."""
    return StdioServer(command=sys.executable, args=(str(REPO / "tests" / "mcp_broken_server.py"),))


def pid_gone(pid: int, within_s: float = 5.0) -> bool:
    """Whether process ``pid`` has ended (and been reaped) within ``within_s``."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if _zombie(pid):
            return True
        time.sleep(0.05)
    return False


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] == "Z"


@contextlib.contextmanager
def http_server(*command: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run a ``... --http --port 0`` server; yield the URL it prints; stop it after."""
    process = subprocess.Popen(
        [*command, "--http", "--port", "0"],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stderr is not None
        url = ""
        deadline = time.monotonic() + 30
        seen: list[str] = []
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            seen.append(line)
            found = re.search(r"http://\S+", line)
            if found:
                url = found.group(0)
                break
        assert url, f"the server printed no URL: {''.join(seen)}"
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "page", "version": "1"},
    },
}


def post_initialize(url: str, headers: dict[str, str]) -> httpx.Response:
    """What a web page's script would send an MCP server: a plain POST of ``initialize``."""
    accept = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    return httpx.post(url, json=INITIALIZE, headers={**accept, **headers}, timeout=10)
