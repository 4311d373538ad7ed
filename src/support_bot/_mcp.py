"""``support-bot mcp``: the bot's thirteen tools, served to any MCP client.

The tools work on the same data file as the chat (``--data-dir``), so a
reservation made by an MCP client shows up in the chat and the other way
round. ``product_reserve`` asks first, as in the chat: the server asks the
client's user through MCP elicitation, refuses the call when the client
cannot ask, and runs it without asking with ``--yes``. Over ``--http`` the
same rules as ``support-bot serve`` hold: only the loopback names, ``--host``
and ``--allowed-host`` are answered, and any other interface needs a token.

This module is imported whenever the ``support-bot`` parser is built, so its
top-level imports stay light; the store, the tools and the SDK are imported
when the command runs.
"""

from __future__ import annotations

import argparse

__all__ = ["add_arguments", "run"]

TOKEN_ENV = "SUPPORT_BOT_TOKEN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--http``, ``--host``, ``--port``, ``--token``, ``--allowed-host``.

    ``--yes`` and ``--data-dir`` are common options.
    """
    from springtail.mcp import add_http_arguments

    parser.add_argument(
        "--http", action="store_true", help="serve Streamable HTTP instead of stdio"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="HTTP address (default 127.0.0.1; any other needs --token)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="HTTP port (default 8000; 0 picks a free one)"
    )
    add_http_arguments(parser, token_env=TOKEN_ENV)


CHAT_ONLY = ("model", "threads", "mcp", "step", "conversation", "show_tools")
"""Common options that have no meaning for a tool server (it runs no model)."""


def run(args: argparse.Namespace) -> int:
    """Serve until the client leaves (stdio) or Ctrl-C (HTTP); returns the exit code."""
    import sys

    from springtail.mcp import serve_command
    from support_bot._extras import require_extra
    from support_bot._options import given_options
    from support_bot._store import Store
    from support_bot.tools import all_tools

    chat_only = given_options(args, CHAT_ONLY)
    if chat_only:
        print(
            f"support-bot mcp: {' and '.join(chat_only)} belong to the chat, not to the tool "
            "server; leave them out.",
            file=sys.stderr,
        )
        return 2
    require_extra("mcp", "The MCP tool server (support-bot mcp)")

    store = Store.in_data_dir(args.data_dir)
    return serve_command(
        all_tools(store),
        name="support-bot",
        http=args.http,
        host=args.host,
        port=args.port,
        approve_all=args.yes,
        token=args.token,
        token_env=TOKEN_ENV,
        allowed_hosts=args.allowed_host,
        prog="support-bot",
    )
