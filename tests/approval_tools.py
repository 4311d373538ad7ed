"""Tools and helpers the approval tests share: a reservation that needs approval, a lookup.

``RAN`` records every call that really ran, so a test can tell "ran once"
from "ran twice" or "never ran".
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from springtail import tool

__all__ = ["RAN", "at_once", "lookup", "reserve"]

RAN: list[str] = []


@tool(requires_approval=True)
def reserve(sku: str, quantity: int) -> str:
    """Reserve units of a product."""
    RAN.append(f"reserve {sku} {quantity}")
    return f"Reserved {quantity} of {sku}"


@tool
def lookup(sku: str) -> str:
    """Stock of a product."""
    RAN.append(f"lookup {sku}")
    return f"{sku}: 12 in stock"


def at_once(work: Sequence[Callable[[], None]], timeout: float = 120) -> None:
    """Run every function on its own thread, all released at the same moment."""
    barrier = threading.Barrier(len(work))

    def start(function: Callable[[], None]) -> None:
        barrier.wait()
        function()

    threads = [threading.Thread(target=start, args=(function,)) for function in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
