"""One SDK client per event loop, for the server providers.

An HTTP connection pool belongs to the event loop that opened it, and the sync
API runs requests on more than one loop (a per-thread loop, or a fresh one
inside a notebook), so a provider keeps one client per loop. Loops are held
weakly, and a client is closed when its loop shuts down (``asyncio.run``'s
end, or the end of the thread whose sync calls used it): its keep-alive
connections never outlive the loop they belong to.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Any, Generic, TypeVar

from springtail._sync import close_with_loop
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
    """Clients made by ``factory``, one per running event loop, closed with their loop.

    A client is closed by awaiting its ``close()`` (the OpenAI, Anthropic and
    Ollama SDK clients all have one) when its loop shuts down, unless
    ``pop`` took it first.
    """

    __slots__ = ("__weakref__", "_clients", "_factory")

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
            close_with_loop(_Closer(self, client))
        return client

    def pop(self) -> T | None:
        """Forget the running loop's client and return it (for closing)."""
        return self._clients.pop(asyncio.get_running_loop(), None)


class _Closer:
    """Closes one loop's client at the loop's shutdown, if it is still that loop's."""

    __slots__ = ("_client", "_owner")

    def __init__(self, owner: LoopClients[Any], client: Any) -> None:
        self._owner = weakref.ref(owner)
        self._client = client

    async def __call__(self) -> None:
        owner, client = self._owner(), self._client
        close = client.close
        if owner is None or owner.pop() is not client:
            return  # popped (and closed) already by the provider's aclose()
        result = close()
        if inspect.isawaitable(result):
            await result
