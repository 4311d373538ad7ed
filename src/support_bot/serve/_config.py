"""What ``support-bot serve`` is configured with, checked once at start."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Final

from springtail.mcp import HttpAccess
from support_bot.serve._durable import DurableSettings

__all__ = ["DEFAULT_APPROVAL_TIMEOUT_S", "TOKEN_ENV", "ServeConfig", "ServeConfigError"]

DEFAULT_APPROVAL_TIMEOUT_S: Final = 3600.0
"""An hour: the reservation waits stored, holding nothing, so a person may take their time."""
TOKEN_ENV: Final = "SUPPORT_BOT_TOKEN"


class ServeConfigError(ValueError):
    """The options cannot run safely; the message says which option to change."""


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """The web service's settings.

    Attributes:
        host: Interface to listen on; anything but loopback needs ``token``.
        port: TCP port.
        token: Shared secret every request must carry (``Authorization:
            Bearer`` or the cookie ``/?token=…`` sets); ``None`` on loopback only.
            At least 16 characters, printable ASCII without spaces, quotes,
            commas, semicolons or backslashes.
        allowed_hosts: More host names the service is reached by (a reverse
            proxy's public name); the loopback names and ``host`` always are.
            Requests for any other ``Host`` get 421, from any other page's
            ``Origin`` 403 (DNS rebinding).
        forwarded_allow_ips: Addresses of proxies whose ``X-Forwarded-For``
            names the client (uvicorn's ``forwarded_allow_ips``); ``None``
            trusts no one, so the rate limits see the socket's address.
        session_key: Signs the session cookies, so that only sessions this
            service issued are accepted. Random by default (sessions end with
            the process); ``support-bot serve`` keeps one in the data folder,
            or derives it from the token.
        approval_timeout_s: How long a reservation waits, stored, for approve/deny; then it
            counts as denied.
        max_body_bytes: Largest request body accepted (413 above).
        max_message_chars: Longest user message (413 above).
        max_turns: Turns one conversation may hold (409 after that: start a new one).
        rate_limit_per_min: Requests per minute per client address (429 above); 0 is off.
        auth_failures_per_min: Wrong tokens per minute per client address before
            it gets 429 instead of another try (with a token only).
        max_turns_per_session: Turns one browser session may have in progress
            (running or queued) at once; 429 above.
        max_queued_turns_per_client: Turns one client address may have waiting
            beyond what the model serves at once; 429 above.
        serial_model: Whether the model serves one turn at a time (the embedded
            model), so other turns queue and see their position.
        max_concurrent_turns: Turns running at once on this process for other models.
        durable: Run each turn as a DBOS workflow on this system database, as
            this executor (``support_bot.serve._durable.DurableSettings``);
            ``None`` runs turns in this process's memory only.

    Raises:
        ServeConfigError: a setting is unsafe or out of range (one sentence).
    """

    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    forwarded_allow_ips: str | None = None
    session_key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    approval_timeout_s: float = DEFAULT_APPROVAL_TIMEOUT_S
    max_body_bytes: int = 16 * 1024
    max_message_chars: int = 4000
    max_turns: int = 200
    rate_limit_per_min: int = 120
    auth_failures_per_min: int = 10
    max_turns_per_session: int = 2
    max_queued_turns_per_client: int = 5
    serial_model: bool = False
    max_concurrent_turns: int = 256
    durable: DurableSettings | None = None
    access: HttpAccess = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            access = HttpAccess(
                host=self.host,
                token=self.token,
                allowed_hosts=tuple(self.allowed_hosts),
                token_option=f"--token or set {TOKEN_ENV}",
            )
        except ValueError as exc:
            raise ServeConfigError(str(exc)) from None
        object.__setattr__(self, "access", access)
        if not 0 < self.port < 65536:
            raise ServeConfigError(f"--port must be between 1 and 65535, got {self.port}.")
        if not self.approval_timeout_s > 0:
            raise ServeConfigError("--approval-timeout must be a positive number of seconds.")
        if self.rate_limit_per_min < 0:
            raise ServeConfigError("--rate-limit must be 0 (off) or a positive number.")
        if len(self.session_key) < 16:
            raise ServeConfigError("session_key must hold at least 16 bytes.")
        for name in (
            "max_body_bytes",
            "max_message_chars",
            "max_turns",
            "max_concurrent_turns",
            "auth_failures_per_min",
            "max_turns_per_session",
        ):
            if getattr(self, name) < 1:
                raise ServeConfigError(f"{name} must be at least 1.")
        if self.max_queued_turns_per_client < 0:
            raise ServeConfigError("max_queued_turns_per_client must be 0 or more.")

    @property
    def model_capacity(self) -> int:
        """Turns the model serves at once: one for a serial model."""
        return 1 if self.serial_model else self.max_concurrent_turns
