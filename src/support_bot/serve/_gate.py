"""Who may generate now: everyone (server models) or one turn at a time (embedded model).

The embedded model runs on this machine's CPU, one generation at a time; a
second turn would only slow the first. So with ``serial`` the gate admits one
turn and the others wait in order, told their position whenever it changes.
A turn waiting for the user's approval steps out of the gate meanwhile
(``ModelGate.release`` / ``ModelGate.acquire``), so one slow click
never holds everyone up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["ModelGate"]


class ModelGate:
    """A FIFO gate admitting ``capacity`` turns at once; waiters learn their queue position."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._capacity = capacity
        self._running = 0
        self._waiting: list[tuple[asyncio.Future[None], Callable[[int], None]]] = []

    @property
    def running(self) -> int:
        """Turns inside the gate."""
        return self._running

    @property
    def waiting(self) -> int:
        """Turns queued."""
        return len(self._waiting)

    async def acquire(self, on_position: Callable[[int], None]) -> None:
        """Enter, waiting in line; ``on_position(n)`` is called with 1-based positions."""
        if self._running < self._capacity and not self._waiting:
            self._running += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (future, on_position)
        self._waiting.append(entry)
        on_position(len(self._waiting))
        try:
            await future
        except asyncio.CancelledError:
            if entry in self._waiting:
                self._waiting.remove(entry)
                self._announce()
            elif future.done() and not future.cancelled():
                self.release()  # admitted just as we were cancelled: pass it on
            raise

    def release(self) -> None:
        """Leave; the first in line enters."""
        self._running -= 1
        while self._waiting and self._running < self._capacity:
            future, _ = self._waiting.pop(0)
            if not future.done():
                self._running += 1
                future.set_result(None)
        self._announce()

    def _announce(self) -> None:
        for position, (_, on_position) in enumerate(self._waiting, start=1):
            on_position(position)
