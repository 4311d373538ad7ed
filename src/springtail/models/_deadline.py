"""A deadline for a whole HTTP attempt, from sending the request to the answer's last byte.

httpx's timeouts bound each network operation, not an exchange: a server
that sends a keep-alive line every second never trips a read timeout of two
seconds, and a ``timeout=2`` call could take forty. The providers therefore
send through ``deadline_transport``, which wraps httpx's own transport
and fails the attempt with httpx's ``ReadTimeout`` once ``seconds`` have
passed since the request went out, whether the answer is late to start or
slow to finish. The SDKs treat that timeout as they treat any other (the
OpenAI and Anthropic SDKs retry it, each retry with a fresh deadline).

The OpenAI and Anthropic SDKs use ``httpx2``, a fork of httpx with the same
transport interface; Ollama uses httpx. The classes are built once for
whichever module is passed in.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
from collections.abc import AsyncIterator
from types import ModuleType
from typing import Any

__all__ = ["deadline_transport", "httpx_module_of"]


def httpx_module_of(client_class: type) -> ModuleType:
    """The httpx module (``httpx`` or ``httpx2``) an SDK's default client is built on."""
    for base in client_class.__mro__:
        package = base.__module__.partition(".")[0]
        if base.__name__ == "AsyncClient" and package.startswith("httpx"):
            return importlib.import_module(package)
    return importlib.import_module("httpx")


def deadline_transport(httpx: ModuleType, seconds: float, **transport_options: Any) -> Any:
    """An ``httpx.AsyncHTTPTransport`` (of module ``httpx``) whose attempts end after ``seconds``.

    Args:
        httpx: The ``httpx`` module, or ``httpx2`` for the SDKs built on it.
        seconds: The deadline of one attempt, request to last byte.
        transport_options: Given to ``AsyncHTTPTransport`` (``limits=``, ...).
    """
    if seconds <= 0:
        raise ValueError(f"timeout must be more than 0 seconds, got {seconds:g}")
    inner = httpx.AsyncHTTPTransport(**transport_options)
    return _classes(httpx)(inner, seconds)


@functools.cache
def _classes(httpx: ModuleType) -> Any:
    class DeadlineStream(httpx.AsyncByteStream):  # type: ignore[misc,name-defined]
        """The body of a response, cut off at the attempt's deadline."""

        def __init__(self, inner: Any, deadline: float, seconds: float, request: Any) -> None:
            self._inner = inner
            self._deadline = deadline
            self._seconds = seconds
            self._request = request

        async def __aiter__(self) -> AsyncIterator[bytes]:
            chunks = self._inner.__aiter__()
            while True:
                try:
                    async with asyncio.timeout_at(self._deadline):
                        chunk = await chunks.__anext__()
                except StopAsyncIteration:
                    return
                except TimeoutError as exc:
                    raise _late(httpx, self._seconds, self._request, "finish") from exc
                yield chunk

        async def aclose(self) -> None:
            await self._inner.aclose()

    class DeadlineTransport(httpx.AsyncBaseTransport):  # type: ignore[misc,name-defined]
        """Sends through ``inner``; every attempt must be over within ``seconds``."""

        def __init__(self, inner: Any, seconds: float) -> None:
            self._inner = inner
            self.seconds = seconds

        async def handle_async_request(self, request: Any) -> Any:
            deadline = asyncio.get_running_loop().time() + self.seconds
            try:
                async with asyncio.timeout_at(deadline):
                    response = await self._inner.handle_async_request(request)
            except TimeoutError as exc:
                raise _late(httpx, self.seconds, request, "start") from exc
            response.stream = DeadlineStream(response.stream, deadline, self.seconds, request)
            return response

        async def aclose(self) -> None:
            await self._inner.aclose()

    return DeadlineTransport


def _late(httpx: ModuleType, seconds: float, request: Any, what: str) -> Exception:
    error: Exception = httpx.ReadTimeout(
        f"the answer did not {what} within the {seconds:g} s deadline of the attempt",
        request=request,
    )
    return error
