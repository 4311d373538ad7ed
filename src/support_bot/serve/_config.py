"""What ``support-bot serve`` is configured with, checked once at start."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Final

__all__ = ["DEFAULT_APPROVAL_TIMEOUT_S", "ServeConfig", "ServeConfigError", "is_loopback"]

DEFAULT_APPROVAL_TIMEOUT_S: Final = 120.0


class ServeConfigError(ValueError):
    """The options cannot run safely; the message says which option to change."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable only from this machine."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """The web service's settings.

    Attributes:
        host: Interface to listen on; anything but loopback needs ``token``.
        port: TCP port.
        token: Shared secret every request must carry (``Authorization:
            Bearer`` or the cookie ``/?token=…`` sets); ``None`` on loopback only.
        approval_timeout_s: How long a turn waits for approve/deny; then it is a denial.
        max_body_bytes: Largest request body accepted (413 above).
        max_message_chars: Longest user message (413 above).
        max_turns: Turns one conversation may hold (409 after that: start a new one).
        rate_limit_per_min: Requests per minute per client address (429 above); 0 is off.
        serial_model: Whether the model serves one turn at a time (the embedded
            model), so other turns queue and see their position.
        max_concurrent_turns: Turns running at once on this process for other models.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None
    approval_timeout_s: float = DEFAULT_APPROVAL_TIMEOUT_S
    max_body_bytes: int = 16 * 1024
    max_message_chars: int = 4000
    max_turns: int = 200
    rate_limit_per_min: int = 120
    serial_model: bool = False
    max_concurrent_turns: int = 256

    def __post_init__(self) -> None:
        if self.token is not None and len(self.token) < 16:
            raise ServeConfigError(
                "The token is too short to be secret; use at least 16 characters "
                "(e.g. python -c 'import secrets; print(secrets.token_urlsafe())')."
            )
        if not self.token and not is_loopback(self.host):
            raise ServeConfigError(
                f"Listening on {self.host} lets other machines in, so it needs a token: pass "
                "--token or set SUPPORT_BOT_TOKEN (or keep the default --host 127.0.0.1)."
            )
        if not 0 < self.port < 65536:
            raise ServeConfigError(f"--port must be between 1 and 65535, got {self.port}.")
        if not self.approval_timeout_s > 0:
            raise ServeConfigError("--approval-timeout must be a positive number of seconds.")
        if self.rate_limit_per_min < 0:
            raise ServeConfigError("--rate-limit must be 0 (off) or a positive number.")
        for name in ("max_body_bytes", "max_message_chars", "max_turns", "max_concurrent_turns"):
            if getattr(self, name) < 1:
                raise ServeConfigError(f"{name} must be at least 1.")
