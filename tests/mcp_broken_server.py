"""An MCP server that misbehaves on purpose: JSON-RPC by hand over stdio, no SDK.

``python tests/mcp_broken_server.py`` answers ``initialize``, ``ping``,
``tools/list`` and ``tools/call`` the way a careless or broken server
would (the SDK's own server would refuse to send most of this):

- the tool list holds names a model cannot call (``""``, a space, a newline,
  300 characters) and ``lookup`` twice;
- ``lookup`` answers a JSON-RPC error ``-32000 "record not found"`` for the id
  ``missing``, and ``record ID`` otherwise;
- ``big`` answers 5,000,000 characters;
- ``weird_block`` answers a content block of an unknown type;
- ``stray`` writes a line on stdout that is not JSON-RPC, then answers;
- ``spawn_helper`` starts ``sleep 60`` (which inherits stdout) and answers its pid;
- ``helper_then_crash`` starts such a helper, writes its pid to ``pid_file``
  and exits without answering.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

SCHEMA = {"type": "object", "properties": {}}
NAMES = [
    "lookup",
    "big",
    "weird_block",
    "stray",
    "spawn_helper",
    "helper_then_crash",
    "",
    "has space",
    "new\nline",
    "x" * 300,
    "lookup",
]
BIG_CHARS = 5_000_000


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def text(value: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}], "isError": False}


def helper() -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", "60"], stdin=subprocess.DEVNULL)  # stdout: inherited


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "big":
        return text("x" * BIG_CHARS)
    if name == "weird_block":
        return {"content": [{"type": "weird", "data": 1}]}
    if name == "stray":
        sys.stdout.write("a stray line on stdout\n")
        return text("still here")
    if name == "spawn_helper":
        return text(str(helper().pid))
    if name == "helper_then_crash":
        with open(arguments["pid_file"], "w") as out:
            out.write(str(helper().pid))
        print("broken server: crashing on purpose", file=sys.stderr, flush=True)
        os._exit(3)
    return text(f"record {arguments.get('id')}")


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        method, ident = request.get("method"), request.get("id")
        if ident is None:
            continue  # a notification
        params = request.get("params") or {}
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "broken", "version": "0.0"},
            }
        elif method == "tools/list":
            result = {
                "tools": [
                    {"name": n, "description": "A tool.", "inputSchema": SCHEMA} for n in NAMES
                ]
            }
        elif method == "tools/call":
            arguments = params.get("arguments") or {}
            if params.get("name") == "lookup" and arguments.get("id") == "missing":
                send(
                    {
                        "jsonrpc": "2.0",
                        "id": ident,
                        "error": {"code": -32000, "message": "record not found"},
                    }
                )
                continue
            result = call(params.get("name", ""), arguments) or {}
        else:
            result = {}
        send({"jsonrpc": "2.0", "id": ident, "result": result})


if __name__ == "__main__":
    main()
