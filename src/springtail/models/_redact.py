"""URLs as they may be shown: in a ``repr``, a log line or an error sentence.

A base URL can carry credentials (``https://user:secret@host/v1``, or
``?api_key=…`` for a proxy). The URL is sent as given; everything a person or
a log file sees goes through ``mask_url`` first.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["MASK", "mask_url"]

MASK = "***"

_SECRET_PARTS = ("key", "token", "secret", "password", "passwd", "pwd", "auth", "signature", "sig")
"""A query parameter whose name contains one of these is treated as a credential."""


_USERINFO = re.compile(r"//([^/@:?#]*)(:[^/@?#]*)?@")


def _secret_name(name: str) -> bool:
    lowered = name.lower()
    return any(part in lowered for part in _SECRET_PARTS)


def mask_url(url: str) -> str:
    """``url`` with its password and credential-like query values replaced by ``***``.

    A user name next to a password stays (it tells which account is meant);
    a user name alone is masked, since a token is often given that way
    (``https://TOKEN@host``). Text that does not parse as a URL is masked by
    pattern, so a malformed URL leaks nothing either.
    """
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, _, host = netloc.rpartition("@")
            user, colon, _password = userinfo.partition(":")
            netloc = f"{user}:{MASK}@{host}" if colon else f"{MASK}@{host}"
        query = parts.query
        if query:
            pairs = parse_qsl(query, keep_blank_values=True)
            if any(_secret_name(name) for name, _ in pairs):
                query = urlencode(
                    [(name, MASK if _secret_name(name) else value) for name, value in pairs],
                    safe="*",
                )
        shown = urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
        # A URL inside a URI ("openai-compatible:http://user:pw@host") has its
        # credentials in the path, where urlsplit does not look.
        return _USERINFO.sub(_mask_userinfo, shown)
    except ValueError:
        return _USERINFO.sub(_mask_userinfo, url)


def _mask_userinfo(match: re.Match[str]) -> str:
    if match.group(2):
        return f"//{match.group(1)}:{MASK}@"
    return f"//{MASK}@"
