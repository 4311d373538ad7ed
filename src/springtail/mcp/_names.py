"""Which of a server's tool names a model can call, and one sentence about the rest.

A server may list any string as a tool name, but the model providers accept
only ``[A-Za-z0-9_-]{1,64}`` (OpenAI's and Anthropic's rule; the MCP
specification's is close to it), and springtail needs a name to be there at
all. One bad name must not cost the server's other tools, so such tools are
left out and named in one sentence per server, as are second tools under a
name the server already used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from mcp.types import Tool

__all__ = ["TOOL_NAME", "skipped_sentence", "usable_tools"]

TOOL_NAME: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A tool name every provider takes (checked with the client's prefix in front)."""

_SHOWN: Final = 40


def usable_tools(tools: Sequence[Tool], prefix: str) -> tuple[list[Tool], list[str]]:
    """The tools to offer, and the names of those left out, in the server's order."""
    kept: list[Tool] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for listed in tools:
        name = listed.name
        if not (TOOL_NAME.fullmatch(name) and TOOL_NAME.fullmatch(prefix + name)) or name in seen:
            skipped.append(name)
            continue
        seen.add(name)
        kept.append(listed)
    return kept, skipped


def skipped_sentence(what: str, skipped: Sequence[str], prefix: str) -> str:
    """One sentence saying which tools of ``what`` (the server) were left out, and why."""
    shown = ", ".join(_show(name) for name in skipped[:5])
    more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
    rule = f"{prefix}NAME" if prefix else "a name"
    return (
        f"{what} offers {len(skipped)} tool(s) that cannot be called, so they are left out: "
        f"{shown}{more} ({rule} must be 1 to 64 letters, digits, '_' or '-', and used once)."
    )


def _show(name: str) -> str:
    return repr(name if len(name) <= _SHOWN else name[: _SHOWN - 1] + "…")
