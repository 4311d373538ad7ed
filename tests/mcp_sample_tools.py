"""Tools served by ``springtail mcp serve tests.mcp_sample_tools:TOOLS`` in the MCP tests."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Annotated, Literal

from springtail import Param, ToolContext, tool


@tool
def add(a: Annotated[int, Param("First number")], b: Annotated[int, Param("Second number")]) -> int:
    """Add two whole numbers."""
    return a + b


@tool
def convert(
    amount: float, unit: Annotated[Literal["km", "mi"], Param("Unit of the amount")]
) -> dict[str, float]:
    """Convert a distance between kilometres and miles."""
    factor = 0.621371 if unit == "km" else 1.609344
    return {"value": round(amount * factor, 3)}


@tool
async def nap(seconds: float) -> str:
    """Wait, then say how long."""
    await asyncio.sleep(seconds)
    return f"slept {seconds:g} s"


@tool
def block(seconds: float) -> str:
    """Block a thread for a while (a sync tool)."""
    time.sleep(seconds)
    return f"blocked {seconds:g} s"


@tool
def whoami(ctx: ToolContext) -> str:
    """Tell what the tool context holds."""
    return json.dumps(ctx.context, sort_keys=True)


@tool
def server_pid() -> int:
    """The server process's id."""
    return os.getpid()


@tool
def crash(after: float = 0.0) -> str:
    """Kill the server process in the middle of the call."""
    time.sleep(after)
    print("sample server: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


@tool
def fail(reason: str) -> str:
    """Always fail with the given reason."""
    raise ValueError(reason)


@tool
def chatty() -> str:
    """Print to stdout (which carries the protocol over stdio), then answer."""
    print("a stray line on stdout")
    return "still fine"


@tool(requires_approval=True)
def reserve(sku: str, quantity: int = 1) -> str:
    """Reserve units of a product (asks first)."""
    return f"reserved {quantity} of {sku}"


TOOLS = [add, convert, nap, block, whoami, server_pid, crash, fail, chatty, reserve]
