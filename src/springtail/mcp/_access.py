"""Who an HTTP endpoint answers: the Host names it is reached by, and the token it wants.

One rule for every HTTP server this project runs (``springtail mcp serve
--http``, ``support-bot mcp --http``, ``support-bot serve``), so that they
refuse the same things:

- **DNS rebinding.** A web page on ``attacker.example`` can make its domain
  resolve to 127.0.0.1 and then talk to a server on this machine from the
  victim's browser, with ``Host: attacker.example``. A server that answers
  only the names it is really reached by (its loopback names, the address
  it listens on, and names the operator adds for a proxy) and only requests
  whose ``Origin``, when a browser sends one, is its own, is out of reach.
- **Other machines need a token.** Listening anywhere but on loopback lets
  other machines in, so it needs a shared secret: at least 16 characters
  that can travel in a header and a cookie as they are.

The MCP servers hand these names to the SDK's own transport security
(``HttpAccess.transport_security``); ``support-bot serve`` checks them
in its guard with ``HttpAccess.allows_host`` and
``HttpAccess.allows_origin``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings

__all__ = ["MIN_TOKEN_CHARS", "HttpAccess", "is_loopback", "token_problem"]

MIN_TOKEN_CHARS: Final = 16
_MIN_DISTINCT_CHARS: Final = 5
"""Fewer different characters than this is a pattern, not a secret (``aaaa…``,
``abab…``). A random 16-character hex token has fewer with a chance of 4 in 10 million."""

_LOOPBACK_NAMES: Final = ("localhost", "127.0.0.1", "::1")
_WILDCARDS: Final = frozenset({"0.0.0.0", "::", ""})
_COOKIE_SAFE: Final = frozenset(
    chr(c) for c in range(0x21, 0x7F) if chr(c) not in {'"', ",", ";", "\\"}
)
"""RFC 6265's cookie-octet: what a token may hold so that the ``/?token=`` login's
cookie and an ``Authorization`` header carry it unchanged."""
_NEW_TOKEN: Final = "python -c 'import secrets; print(secrets.token_urlsafe())'"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable only from this machine."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot serve as an access token (one sentence), or ``None``."""
    if len(token) < MIN_TOKEN_CHARS:
        return (
            f"The token is too short to be secret; use at least {MIN_TOKEN_CHARS} characters "
            f"(e.g. {_NEW_TOKEN})."
        )
    if not set(token) <= _COOKIE_SAFE:
        return (
            "The token may hold only printable ASCII characters without spaces, quotes, "
            f"commas, semicolons or backslashes (e.g. {_NEW_TOKEN})."
        )
    if len(set(token)) < _MIN_DISTINCT_CHARS:
        return (
            "The token repeats a few characters, so it is easy to guess; use a random one "
            f"(e.g. {_NEW_TOKEN})."
        )
    return None


def _host_name(value: str) -> str:
    """The name part of a ``Host`` header or ``--allowed-host`` value, lowercased."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1] or [::1]:8000
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value  # a bare IPv6 address or a plain name


def _machine_names() -> list[str]:
    """This machine's names and the addresses they resolve to (for a wildcard address)."""
    names = [socket.gethostname(), socket.getfqdn()]
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None):
            names.append(str(info[4][0]))
    return names


@dataclass(frozen=True, slots=True, kw_only=True)
class HttpAccess:
    """The Host names an HTTP endpoint answers and the token it requires.

    Attributes:
        host: The interface it listens on. Anything but loopback needs ``token``.
        token: The shared secret every request must carry, or ``None`` (loopback only).
        allowed_hosts: More names or addresses clients reach it by, e.g. the public name
            behind a reverse proxy. The loopback names and ``host`` are always allowed;
            on a wildcard address (``0.0.0.0``, ``::``) this machine's names too.
        token_option: How a user gives the token, for error messages.

    Raises:
        ValueError: the token is unusable, another interface has no token, or an
            allowed host is not a plain name (one sentence naming the option).
    """

    host: str = "127.0.0.1"
    token: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    token_option: str = "--token"
    _names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.token is not None:
            problem = token_problem(self.token)
            if problem is not None:
                raise ValueError(problem)
        if not self.token and not is_loopback(self.host):
            raise ValueError(
                f"Listening on {self.host} lets other machines in, so it needs a token: pass "
                f"{self.token_option} (or keep the default --host 127.0.0.1)."
            )
        extra: list[str] = []
        for given in self.allowed_hosts:
            name = _host_name(given)
            if not name or any(c in name for c in "/@ \t?#") or "://" in given:
                raise ValueError(
                    f"--allowed-host {given!r} is not a host name; give a name or address "
                    "such as shop.example.com (no scheme, no path)."
                )
            extra.append(name)
        object.__setattr__(self, "allowed_hosts", tuple(extra))
        names = {*_LOOPBACK_NAMES, *extra}
        bound = _host_name(self.host)
        if bound in _WILDCARDS:  # the printed URL names the wildcard itself: an address too
            names.update(n.lower() for n in _machine_names())
        if bound:
            names.add(bound)
        object.__setattr__(self, "_names", frozenset(names))

    @property
    def host_names(self) -> tuple[str, ...]:
        """Every name the endpoint answers to, sorted."""
        return tuple(sorted(self._names))

    def allows_host(self, header: str | None) -> bool:
        """Whether a request's ``Host`` header names this endpoint (the port is not checked)."""
        return bool(header) and _host_name(header or "") in self._names

    def allows_origin(self, origin: str | None, host: str | None) -> bool:
        """Whether a request's ``Origin`` is this endpoint's own page.

        A request without ``Origin`` is not from a browser's cross-site script.
        A browser's ``Origin`` must be the address the request went to (the
        ``Host`` header, which [`allows_host`][] has accepted first), or an
        allowed host (a proxy's public name). ``null`` (a sandboxed or
        local-file page) is refused.
        """
        if origin is None:
            return True
        parts = urlsplit(origin.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return False
        if host is not None and parts.netloc.lower() == host.strip().lower():
            return True
        return _host_name(parts.netloc) in self.allowed_hosts

    def transport_security(self, port: int) -> TransportSecuritySettings:
        """The MCP SDK's DNS-rebinding protection for these names, on ``port``."""
        from mcp.server.transport_security import TransportSecuritySettings

        hosts: list[str] = []
        origins: list[str] = []
        for name in self.host_names:
            shown = f"[{name}]" if ":" in name else name
            hosts += [shown, f"{shown}:*"]
            origins += [f"http://{shown}:{port}", f"https://{shown}:{port}"]
            if name in self.allowed_hosts:  # a proxy's public name, on its default port
                origins += [f"http://{shown}", f"https://{shown}"]
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
        )
