"""A PostgreSQL connection string as it may be shown: where it points, never its password.

``docs/memory.md`` promises that no error names the password. libpq quotes
the part of a connection string it could not parse (``… in URI:
"postgres://app:s3cret@[::1/x"``), so the driver's own messages must be
scrubbed before they reach a ``ChatMemoryError``.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["describe_dsn", "first_line", "scrub_dsn"]


def scrub_dsn(text: str, dsn: str) -> str:
    """``text`` (a driver's error, say) with every secret ``dsn`` may hold replaced by ``***``.

    libpq quotes the part of a connection string it could not parse, so its
    errors can carry the password. Every password ``dsn`` holds (URI,
    ``password=`` keyword or query parameter, parsed or not) becomes
    ``***``; when ``dsn`` cannot be parsed at all, every quoted fragment
    except libpq's keywords becomes ``"…"``.

    Args:
        text: What is about to be shown.
        dsn: The connection string the error came from.

    Returns:
        ``text`` without anything of the password.
    """
    secrets = _secrets(dsn)
    parsed = _parsed(dsn)
    if parsed is None:
        text = _QUOTED.sub(_keep_if_harmless, text)
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _parsed(dsn: str) -> dict[str, Any] | None:
    try:
        from psycopg.conninfo import conninfo_to_dict

        return dict(conninfo_to_dict(dsn))
    except Exception:
        return None


def _secrets(dsn: str) -> set[str]:
    """The password(s) in ``dsn``, whether or not it parses, and the DSN itself."""
    found = {dsn} if dsn else set()
    parsed = _parsed(dsn)
    if parsed and parsed.get("password"):
        found.add(str(parsed["password"]))
    for pattern in (_URI_PASSWORD, _KEYWORD_PASSWORD, _QUERY_PASSWORD):
        for match in pattern.finditer(dsn):
            value = match.group(1).strip("'\"")
            if value:
                found.add(value)
                found.add(match.group(1))
    return found


_QUOTED = re.compile(r'"([^"]*)"')
_HARMLESS = frozenset(
    {
        "=",
        "]",
        "host",
        "hostaddr",
        "port",
        "dbname",
        "user",
        "password",
        "sslmode",
        "connect_timeout",
        "application_name",
        "options",
    }
)
"""Quoted fragments of libpq's parse errors that cannot be a secret: punctuation, keywords."""


def _keep_if_harmless(match: re.Match[str]) -> str:
    return match.group(0) if match.group(1) in _HARMLESS else '"…"'


_URI_PASSWORD = re.compile(r"://[^:/@\s]*:([^@/\s]*)@")
_KEYWORD_PASSWORD = re.compile(r"password\s*=\s*('(?:[^'\\]|\\.)*'?|\S+)", re.IGNORECASE)
_QUERY_PASSWORD = re.compile(r"[?&]password=([^&#\s]*)", re.IGNORECASE)


def describe_dsn(dsn: str) -> str:
    """Where a PostgreSQL connection string points, without its password.

    Public so that an app naming the same database in its own messages (as
    support-bot's PostgreSQL store does) names it the way chat memory does.

    Args:
        dsn: A libpq connection string or URI.

    Returns:
        ``user@host:port/dbname`` (``localhost`` and ``5432`` when not given,
        no ``user@`` when no user is), or ``(unparsable connection string)``
        when psycopg cannot parse it or is not installed.
    """
    try:
        from psycopg.conninfo import conninfo_to_dict

        params = conninfo_to_dict(dsn)
    except Exception:
        return "(unparsable connection string)"
    host = str(params.get("host") or params.get("hostaddr") or "localhost")
    port = str(params.get("port") or "5432")
    user = str(params.get("user") or "")
    dbname = str(params.get("dbname") or "")
    return f"{user + '@' if user else ''}{host}:{port}/{dbname}"


def first_line(exc: BaseException) -> str:
    """The first line of a driver error (its class name when it says nothing)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
