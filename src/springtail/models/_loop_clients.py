"""One SDK client per event loop, for the server providers.

An HTTP connection pool belongs to the event loop that opened it, and the sync
API runs requests on more than one loop (a per-thread loop, or a fresh one
inside a notebook), so a provider keeps one client per loop. Loops are held
weakly: a finished loop takes its client with it.
"""

from __future__ import annotations

import asyncio
import importlib
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Generic, TypeVar

from springtail.models._base import ModelUnavailableError

__all__ = ["LoopClients", "import_sdk"]

T = TypeVar("T")


def import_sdk(module: str, extra: str) -> ModuleType:
    """Import a provider's SDK, or say which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ModelUnavailableError(
            f"The {module} package is not installed: pip install 'springtail[{extra}]'."
        ) from exc


class LoopClients(Generic[T]):
    """Clients made by ``factory``, one per running event loop."""

    __slots__ = ("_clients", "_factory")

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )

    def get(self) -> T:
        """The running loop's client, made on first use."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._factory()
            self._clients[loop] = client
        return client

    def pop(self) -> T | None:
        """Forget the running loop's client and return it (for closing)."""
        return self._clients.pop(asyncio.get_running_loop(), None)
