"""Why an MCP session failed, in words: the pieces ``Connection`` explains failures with."""

from __future__ import annotations

import asyncio

__all__ = ["anyio_stream_errors", "http_reason", "is_http_error", "last_line", "root_cause"]


def root_cause(failure: BaseException | None) -> BaseException | None:
    """The first leaf of an exception group that is not a cancellation."""
    if failure is None:
        return None
    if isinstance(failure, BaseExceptionGroup):
        leaves = [root_cause(inner) for inner in failure.exceptions]
        real = [leaf for leaf in leaves if leaf is not None]
        for leaf in real:
            if not isinstance(leaf, asyncio.CancelledError):
                return leaf
        return real[0] if real else None
    return failure


def anyio_stream_errors() -> tuple[type[BaseException], ...]:
    import anyio

    return (anyio.BrokenResourceError, anyio.ClosedResourceError, anyio.EndOfStream)


def is_http_error(cause: BaseException) -> bool:
    import httpx

    return isinstance(cause, httpx.HTTPError)


def http_reason(cause: BaseException) -> str:
    import httpx

    if isinstance(cause, httpx.HTTPStatusError):
        return f"HTTP {cause.response.status_code} {cause.response.reason_phrase}".strip()
    text = str(cause).strip()
    return text or type(cause).__name__


def last_line(path: str) -> str:
    """The last non-empty line of a stdio server's stderr log (cut to 300 characters)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as log:
            lines = [line.strip() for line in log.read()[-4000:].splitlines() if line.strip()]
    except OSError:
        return ""
    if not lines:
        return ""
    last = lines[-1]
    return last if len(last) <= 300 else last[:299] + "…"
