"""The service's guards: token, body size and per-client rate limit, before any route runs.

One pure ASGI middleware (no buffering, so streamed responses pass straight
through) answers a request it refuses with a short JSON error and never
reaches the app. Health checks (``/healthz``, ``/readyz``) need no token: a
load balancer probes them and they reveal nothing.

Browser sessions: the first request without a session cookie gets one (a
random 256-bit value, ``HttpOnly``, ``SameSite=Strict``); conversations are
owned by a digest of it, so one browser cannot read another's conversations
even with a conversation's id, and the database never holds the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any, Final
from urllib.parse import parse_qs

from support_bot.serve._config import ServeConfig

__all__ = [
    "SESSION_COOKIE",
    "TOKEN_COOKIE",
    "BodyTooLargeError",
    "Guard",
    "RateLimiter",
    "new_session",
    "owner_of",
    "read_cookies",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SESSION_COOKIE: Final = "sb_session"
TOKEN_COOKIE: Final = "sb_token"
OPEN_PATHS: Final = frozenset({"/healthz", "/readyz"})


def new_session() -> str:
    """A fresh, unguessable browser session secret."""
    return secrets.token_urlsafe(32)


def owner_of(session: str) -> str:
    """What the database stores for a session: its SHA-256, never the secret."""
    return hashlib.sha256(session.encode()).hexdigest()


def read_cookies(scope: Scope) -> dict[str, str]:
    """The request's cookies."""
    jar: SimpleCookie = SimpleCookie()
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed cookie header counts as no cookies
                continue
    return {name: morsel.value for name, morsel in jar.items()}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class RateLimiter:
    """A token bucket per client: ``per_minute`` requests a minute, bursts up to that many."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = per_minute / 60.0
        self._burst = float(per_minute)
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> float:
        """0 when the request may go ahead, else the seconds until it may."""
        now = self._clock()
        tokens, stamp = self._buckets.get(client, (self._burst, now))
        tokens = min(self._burst, tokens + (now - stamp) * self._rate)
        if tokens >= 1.0:
            self._buckets[client] = (tokens - 1.0, now)
            if len(self._buckets) > 10_000:
                self._forget_full(now)
            return 0.0
        self._buckets[client] = (tokens, now)
        return (1.0 - tokens) / self._rate

    def _forget_full(self, now: float) -> None:
        for client, (tokens, stamp) in list(self._buckets.items()):
            if tokens + (now - stamp) * self._rate >= self._burst:
                del self._buckets[client]


class Guard:
    """Token check, body limit and rate limit in front of the app."""

    def __init__(self, app: ASGIApp, config: ServeConfig) -> None:
        self._app = app
        self._config = config
        self._limiter = (
            RateLimiter(config.rate_limit_per_min) if config.rate_limit_per_min else None
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse what must not reach the app; pass the rest through."""
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        path = scope.get("path", "")
        if path in OPEN_PATHS:
            await self._app(scope, receive, send)
            return
        token = self._config.token
        if token is not None:
            if (
                path == "/"
                and scope.get("method") == "GET"
                and await self._token_login(scope, send)
            ):
                return
            if not self._authorized(scope, token):
                await _refuse(
                    send,
                    401,
                    "This support-bot needs its access token: send 'Authorization: Bearer "
                    "<token>' or open /?token=<token> once in the browser.",
                    extra=[(b"www-authenticate", b'Bearer realm="support-bot"')],
                )
                return
        if self._limiter is not None:
            client = (scope.get("client") or ("unknown", 0))[0]
            wait = self._limiter.allow(str(client))
            if wait > 0:
                await _refuse(
                    send,
                    429,
                    f"Too many requests from this client; wait {wait:.0f} s and try again.",
                    extra=[(b"retry-after", str(max(1, round(wait))).encode())],
                )
                return
        length = _header(scope, b"content-length")
        limit = self._config.max_body_bytes
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, 413, f"The request body is larger than {limit} bytes.")
            return
        await self._app(scope, _limited(receive, limit), send)

    def _authorized(self, scope: Scope, token: str) -> bool:
        given = ""
        header = _header(scope, b"authorization") or ""
        if header.lower().startswith("bearer "):
            given = header[7:].strip()
        else:
            given = read_cookies(scope).get(TOKEN_COOKIE, "")
        return bool(given) and hmac.compare_digest(given.encode(), token.encode())

    async def _token_login(self, scope: Scope, send: Send) -> bool:
        """``GET /?token=T``: remember the token in a cookie and drop it from the address."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = (query.get("token") or [""])[0]
        token = self._config.token or ""
        if not given or not hmac.compare_digest(given.encode(), token.encode()):
            return False
        cookie = f"{TOKEN_COOKIE}={given}; Path=/; HttpOnly; SameSite=Strict"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", b"/"),
                    (b"set-cookie", cookie.encode()),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})
        return True


class BodyTooLargeError(Exception):
    """A chunked body went past the limit while the app read it (the app answers 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"The request body is larger than {limit} bytes.")
        self.limit = limit


def _limited(receive: Receive, limit: int) -> Receive:
    """``receive`` that stops a chunked body passing ``limit`` bytes."""
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message.get("type") == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLargeError(limit)
        return message

    return wrapped


async def _refuse(
    send: Send, status: int, message: str, *, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
