"""What a failed exchange with a server was, in words a person can act on.

Every provider turns its SDK's exceptions into a ``ModelError`` with one true
sentence. Some faults look alike from the outside but mean different
things: a refused connection means "start the server", a connection dropped
in the middle of an answer does not. The tests for that, and the short
descriptions of replies that are not what an API promises, live here so the
providers word them the same way.
"""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any

from springtail.models._base import ModelError

__all__ = [
    "MalformedReplyError",
    "connection_dropped",
    "connection_refused",
    "json_kind",
    "reply_fault",
    "snippet",
    "timed_out",
]

_REFUSED_NAMES = frozenset({"ConnectError", "ConnectTimeout"})
"""The httpx (and httpx2) exceptions raised when no connection could be opened."""

_TIMEOUT_NAMES = frozenset(
    {"TimeoutException", "ReadTimeout", "WriteTimeout", "PoolTimeout", "ConnectTimeout"}
)
"""The httpx (and httpx2) exceptions raised when a timeout or deadline passed."""

_DROPPED_NAMES = frozenset({"RemoteProtocolError", "ReadError", "WriteError", "CloseError"})
"""The httpx (and httpx2) exceptions raised when an open connection broke."""


class MalformedReplyError(ValueError):
    """A reply that is not what the API promises; the message says what it is instead.

    The message completes "answered with something other than …": for example
    ``a text reply starting '<html>…'``.
    """


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def connection_refused(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) means no connection could be opened at all.

    A refused or unresolvable address says "start the server, or fix the
    URL"; a connection that opened and then broke says something else.
    """
    for link in _chain(exc):
        if type(link).__name__ in _REFUSED_NAMES:
            return True
        if isinstance(link, ConnectionRefusedError | socket.gaierror):
            return True
    return False


def timed_out(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is an httpx timeout, the attempt's deadline included."""
    return any(type(link).__name__ in _TIMEOUT_NAMES for link in _chain(exc))


def connection_dropped(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) means an open connection broke off."""
    if connection_refused(exc):
        return False
    for link in _chain(exc):
        if type(link).__name__ in _DROPPED_NAMES:
            return True
        if isinstance(link, ConnectionResetError | BrokenPipeError | http.client.IncompleteRead):
            return True
    return False


def reply_fault(
    exc: BaseException, *, where: str, what: str, streaming: bool, hint: str
) -> ModelError | None:
    """The sentence for faults every HTTP provider shares, or ``None`` for the others.

    Args:
        exc: What was raised.
        where: The server, as the sentence's subject ("The server at URL").
        what: What a good reply is ("a chat completion").
        streaming: Whether the answer had begun to stream when it happened.
        hint: What to check when the reply was not what the API promises.
    """
    if isinstance(exc, MalformedReplyError):
        if streaming:
            return ModelError(f"{where} sent something other than {what} while streaming ({exc}).")
        return ModelError(f"{where} answered with something other than {what} ({exc}): {hint}")
    if isinstance(exc, json.JSONDecodeError):
        detail = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        if streaming:
            return ModelError(f"{where} sent a stream line that is not valid JSON ({detail}).")
        return ModelError(f"{where} answered with a body that is not valid JSON ({detail}): {hint}")
    if connection_dropped(exc):
        when = "while streaming its answer" if streaming else "before its answer was complete"
        return ModelError(
            f"{where} dropped the connection {when}: try again, and check the server's log "
            "if it keeps happening."
        )
    return None


def snippet(text: str, limit: int = 60) -> str:
    """The start of ``text`` on one line, cut at ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def json_kind(value: Any) -> str:
    """A JSON value's kind with its article: ``a string``, ``an array``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    return "an object"
