"""The service's guards, before any route runs: host, origin, rate limit, token, body.

One pure ASGI middleware (no buffering, so streamed responses pass straight
through) answers a request it refuses with a short JSON error and never
reaches the app. In order:

1. ``Host`` must be a name the service is reached by (421), and a browser's
   ``Origin`` its own page (403): a page on another site cannot drive the
   bot through DNS rebinding.
2. Every request counts against the client's rate limit (429).
3. With a token, a request must carry it (401); wrong tokens count against
   a stricter limit of their own, after which the client gets 429 without
   its guess being tried.
4. A request that changes something (``POST`` and the like) must be
   ``application/json`` (415): a form or ``text/plain`` request, which any
   page may send without asking, never gets through.
5. The body must fit (413).

Health checks (``/healthz``, ``/readyz``) pass without a token or a known
host name: a load balancer probes them by address and they reveal nothing.

Browser sessions: the first request without a session cookie gets one, a
random 256-bit value with the server's signature (``HttpOnly``,
``SameSite=Strict``); a cookie the server did not sign counts as none, so a
session cannot be fixed from outside. Conversations are owned by a digest of
the session, so one browser cannot read another's conversations even with
a conversation's id, and the database never holds the secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
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
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
_SIGNATURE_CHARS: Final = 22  # 128 bits of HMAC-SHA256, base64url


def new_session(key: bytes) -> str:
    """A fresh, unguessable browser session secret, signed with ``key``."""
    value = secrets.token_urlsafe(32)
    return f"{value}.{_signature(key, value)}"


def owner_of(session: str, key: bytes) -> str | None:
    """What the database stores for a session: its SHA-256; ``None`` unless ``key`` signed it."""
    value, dot, signature = session.rpartition(".")
    if not dot or len(value) < 32 or not hmac.compare_digest(signature, _signature(key, value)):
        return None
    return hashlib.sha256(session.encode()).hexdigest()


def _signature(key: bytes, value: str) -> str:
    digest = hmac.new(key, value.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_SIGNATURE_CHARS]


def read_cookies(scope: Scope) -> dict[str, str]:
    """The request's cookies, read as browsers write them (as Starlette's ``request.cookies``).

    ``http.cookies.SimpleCookie`` gives up on a value with ``(``, ``@`` or
    ``/`` in it unless it is quoted, and browsers do not quote.
    """
    from starlette.requests import cookie_parser

    found: dict[str, str] = {}
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            found.update(cookie_parser(value.decode("latin-1")))
    return found


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
        """0 when the request may go ahead (and is counted), else the seconds until it may."""
        wait, tokens, now = self._look(client)
        if wait == 0:
            self._buckets[client] = (tokens - 1.0, now)
            if len(self._buckets) > 10_000:
                self._forget_full(now)
        return wait

    def wait(self, client: str) -> float:
        """The seconds until ``client`` may go ahead, without counting a request."""
        return self._look(client)[0]

    def _look(self, client: str) -> tuple[float, float, float]:
        now = self._clock()
        tokens, stamp = self._buckets.get(client, (self._burst, now))
        tokens = min(self._burst, tokens + (now - stamp) * self._rate)
        self._buckets[client] = (tokens, now)
        return (0.0 if tokens >= 1.0 else (1.0 - tokens) / self._rate), tokens, now

    def _forget_full(self, now: float) -> None:
        for client, (tokens, stamp) in list(self._buckets.items()):
            if tokens + (now - stamp) * self._rate >= self._burst:
                del self._buckets[client]


class Guard:
    """Host, origin, rate limit, token, content type and body limit in front of the app."""

    def __init__(self, app: ASGIApp, config: ServeConfig) -> None:
        self._app = app
        self._config = config
        self._limiter = (
            RateLimiter(config.rate_limit_per_min) if config.rate_limit_per_min else None
        )
        self._failures = RateLimiter(config.auth_failures_per_min)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse what must not reach the app; pass the rest through."""
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        path = scope.get("path", "")
        if path in OPEN_PATHS:
            await self._app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is not None:
            await _refuse(send, *refusal)
            return
        token = self._config.token
        if token is not None:
            locked = self._failures.wait(_client(scope))
            if locked > 0 and _gave_token(scope):  # not even tried: guessing is paused
                await _refuse(send, *_too_many(locked, "Too many wrong tokens from this client"))
                return
            if (
                path == "/"
                and scope.get("method") == "GET"
                and await self._token_login(scope, send)
            ):
                return
            if not self._authorized(scope, token):
                await self._refuse_token(scope, send)
                return
        if scope.get("method") not in SAFE_METHODS and not _is_json(scope):
            await _refuse(
                send,
                415,
                "Send the request as JSON, with the header 'Content-Type: application/json'.",
            )
            return
        length = _header(scope, b"content-length")
        limit = self._config.max_body_bytes
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, 413, f"The request body is larger than {limit} bytes.")
            return
        await self._app(scope, _limited(receive, limit), send)

    def _refusal(self, scope: Scope) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        """Why a request from a foreign host or page, or over the rate limit, is refused."""
        access = self._config.access
        host = _header(scope, b"host")
        if not access.allows_host(host):
            shown = (host or "")[:100]
            return (
                421,
                f"This support-bot does not answer to the host name {shown!r}; use the "
                "address it listens on, or start it with --allowed-host for that name.",
                [],
            )
        if not access.allows_origin(_header(scope, b"origin"), host):
            return 403, "Requests from other web sites are not accepted here.", []
        if self._limiter is not None:
            wait = self._limiter.allow(_client(scope))
            if wait > 0:
                return _too_many(wait, "Too many requests from this client")
        return None

    def _authorized(self, scope: Scope, token: str) -> bool:
        given = ""
        header = _header(scope, b"authorization") or ""
        if header.lower().startswith("bearer "):
            given = header[7:].strip()
        else:
            given = read_cookies(scope).get(TOKEN_COOKIE, "")
        return bool(given) and hmac.compare_digest(given.encode(), token.encode())

    async def _refuse_token(self, scope: Scope, send: Send) -> None:
        """401 for a missing or wrong token; a wrong one counts against the client's guesses."""
        if _gave_token(scope):
            self._failures.allow(_client(scope))  # one guess fewer left this minute
        await _refuse(
            send,
            401,
            "This support-bot needs its access token: send 'Authorization: Bearer "
            "<token>' or open /?token=<token> once in the browser.",
            [(b"www-authenticate", b'Bearer realm="support-bot"')],
        )

    async def _token_login(self, scope: Scope, send: Send) -> bool:
        """``GET /?token=T``: remember the token in a cookie and drop it from the address."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = (query.get("token") or [""])[0]
        token = self._config.token or ""
        if not given or not hmac.compare_digest(given.encode(), token.encode()):
            return False  # the 401 follows, and counts the guess
        cookie = f"{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
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


def _client(scope: Scope) -> str:
    """The client's address (a proxy's ``X-Forwarded-For`` only when uvicorn trusts it)."""
    return str((scope.get("client") or ("unknown", 0))[0])


def _gave_token(scope: Scope) -> bool:
    """Whether the request tried a token (a header, the cookie or ``?token=``): a guess."""
    if _header(scope, b"authorization") is not None or TOKEN_COOKIE in read_cookies(scope):
        return True
    return b"token=" in scope.get("query_string", b"")


def _is_json(scope: Scope) -> bool:
    media = (_header(scope, b"content-type") or "").split(";", 1)[0].strip().lower()
    return media == "application/json"


def _too_many(wait: float, what: str) -> tuple[int, str, list[tuple[bytes, bytes]]]:
    seconds = max(1, round(wait))
    return (
        429,
        f"{what}; wait {seconds} s and try again.",
        [(b"retry-after", str(seconds).encode())],
    )


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
    send: Send, status: int, message: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *(extra or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
