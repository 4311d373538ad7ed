"""How ``support-bot serve`` answers what it refuses or fails at: one JSON sentence, never a trace.

Every error is ``{"error": "one sentence"}`` with its status: the API's own
refusals (``HTTPProblem``), Starlette's routing ones (404, 405), a body over
the limit (413), a database that cannot be used (503 with the store's
sentence and ``retry-after``) and anything unexpected (500; the details go
to the server log).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from springtail import ChatMemoryError
from support_bot._store_base import StoreError
from support_bot.serve._security import BodyTooLargeError

__all__ = ["EXCEPTION_HANDLERS", "JSON", "HTTPProblem"]

log = logging.getLogger("support_bot.serve")


class HTTPProblem(Exception):
    """A request the API refuses, with the status and one sentence for the client."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


class JSON(JSONResponse):
    r"""JSON that any stored text can be sent in.

    A message saved before text was checked may hold a lone surrogate,
    which UTF-8 cannot encode; it is sent escaped (``\ud800``) instead of
    making the whole conversation unreadable.
    """

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, separators=(",", ":")).encode("ascii")


async def _problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPProblem)
    return JSON({"error": exc.message}, status_code=exc.status, headers=exc.headers)


_ROUTING_ERRORS: Final = {
    404: "No such page or API route here.",
    405: "This route does not take that method.",
}


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (unknown path, wrong method) as JSON like every other error."""
    assert isinstance(exc, HTTPException)
    message = _ROUTING_ERRORS.get(exc.status_code, f"The request was refused ({exc.status_code}).")
    return JSON({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def _too_large(request: Request, exc: Exception) -> Response:
    return JSON({"error": str(exc)}, status_code=413)


async def _store_failed(request: Request, exc: Exception) -> Response:
    """A locked or broken database: 503 with the store's sentence (never holding a password)."""
    log.warning("%s %s: %s", request.method, request.url.path, exc)
    return JSON({"error": str(exc)}, status_code=503, headers={"retry-after": "5"})


async def _crash(request: Request, exc: Exception) -> Response:
    """Never a stack trace to the client: it goes to the server log."""
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return JSON(
        {"error": "Something went wrong on the server; the details are in its log."},
        status_code=500,
    )


EXCEPTION_HANDLERS: Final[Mapping[Any, Callable[[Request, Exception], Awaitable[Response]]]] = {
    HTTPProblem: _problem,
    HTTPException: _http_error,
    BodyTooLargeError: _too_large,
    StoreError: _store_failed,
    ChatMemoryError: _store_failed,
    Exception: _crash,
}
"""The app's ``exception_handlers``: every failure as JSON with its status."""
