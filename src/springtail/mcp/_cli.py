"""``springtail mcp serve`` and ``support-bot mcp``: what the commands do once parsed."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence
from typing import Any

from springtail.mcp._access import HttpAccess
from springtail.mcp._server import serve

__all__ = ["MISSING_SDK", "TOKEN_ENV", "add_http_arguments", "serve_command"]

TOKEN_ENV = "SPRINGTAIL_MCP_TOKEN"
"""Where ``springtail mcp serve --http`` reads its token when ``--token`` is not given."""

MISSING_SDK = "the MCP SDK is not installed; install it with: pip install 'springtail[mcp]'"


def add_http_arguments(parser: argparse.ArgumentParser, *, token_env: str) -> None:
    """``--token`` and ``--allowed-host``, the options of an MCP server over HTTP."""
    parser.add_argument(
        "--token",
        help=f"with --http: the access token clients send as 'Authorization: Bearer TOKEN' "
        f"(default ${token_env}); required unless --host is loopback",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="with --http: another name clients reach the server by (a proxy's, say); "
        "loopback names and --host are always allowed; repeatable",
    )


def serve_command(
    sources: Sequence[Any],
    *,
    name: str,
    http: bool,
    host: str,
    port: int,
    approve_all: bool,
    token: str | None = None,
    token_env: str = TOKEN_ENV,
    allowed_hosts: Sequence[str] = (),
    prog: str = "springtail",
) -> int:
    """Serve ``sources`` until the client leaves (stdio) or Ctrl-C (HTTP); the exit code.

    Bad settings (no tools, a repeated name, a public ``host`` without a
    token, a weak token) are one sentence on stderr and exit code 2.
    """
    if importlib.util.find_spec("mcp") is None:
        print(f"{prog}: {MISSING_SDK}", file=sys.stderr)
        return 2
    token = (token or os.environ.get(token_env) or None) if http else None
    try:
        if http:
            HttpAccess(
                host=host,
                token=token,
                allowed_hosts=tuple(allowed_hosts),
                token_option=f"--token or set ${token_env}",
            )
        serve(
            sources,
            name=name,
            http=http,
            host=host,
            port=port,
            approve_all=approve_all,
            token=token,
            allowed_hosts=allowed_hosts,
        )
    except KeyboardInterrupt:
        return 130
    except ValueError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the port is taken, say
        print(f"{prog}: cannot serve on {host}:{port}: {exc.strerror or exc}.", file=sys.stderr)
        return 1
    return 0
