"""``support-bot mcp``: the bot's thirteen tools, served to any MCP client.

The tools work on the same data file as the chat (``--data-dir``), so a
reservation made by an MCP client shows up in the chat and the other way
round. ``product_reserve`` asks first, as in the chat: the server asks the
client's user through MCP elicitation, refuses the call when the client
cannot ask, and runs it without asking with ``--yes``.

This module is imported whenever the ``support-bot`` parser is built, so its
top-level imports stay light; the store, the tools and the SDK are imported
when the command runs.
"""

from __future__ import annotations

import argparse

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--http``, ``--host`` and ``--port``; ``--yes`` and ``--data-dir`` are common options."""
    parser.add_argument(
        "--http", action="store_true", help="serve Streamable HTTP instead of stdio"
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8000, help="HTTP port (default 8000; 0 picks a free one)"
    )


def run(args: argparse.Namespace) -> int:
    """Serve until the client leaves (stdio) or Ctrl-C (HTTP); returns the exit code."""
    from springtail.mcp import serve_command
    from support_bot._store import Store
    from support_bot.tools import all_tools

    store = Store.in_data_dir(args.data_dir)
    return serve_command(
        all_tools(store),
        name="support-bot",
        http=args.http,
        host=args.host,
        port=args.port,
        approve_all=args.yes,
    )
