"""``springtail mcp serve``: what the command does once its arguments are parsed."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from typing import Any

from springtail.mcp._server import serve

__all__ = ["MISSING_SDK", "serve_command"]

MISSING_SDK = "the MCP SDK is not installed; install it with: pip install 'springtail[mcp]'"


def serve_command(
    sources: Sequence[Any],
    *,
    name: str,
    http: bool,
    host: str,
    port: int,
    approve_all: bool,
) -> int:
    """Serve ``sources`` until the client leaves (stdio) or Ctrl-C (HTTP); the exit code.

    Raises:
        ValueError: the sources hold no tools or repeat a name.
    """
    if importlib.util.find_spec("mcp") is None:
        print(f"springtail: {MISSING_SDK}", file=sys.stderr)
        return 2
    try:
        serve(sources, name=name, http=http, host=host, port=port, approve_all=approve_all)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # the port is taken, say
        print(f"springtail: cannot serve on {host}:{port}: {exc.strerror or exc}.", file=sys.stderr)
        return 1
    return 0
