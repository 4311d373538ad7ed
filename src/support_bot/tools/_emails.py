"""Find e-mail addresses in text by parsing around each ``@``, in linear time.

A single regular expression either misses valid addresses (``"john doe"@x``,
``user@[192.0.2.1]``, ``ops@localhost``, ``jürgen@bücher.example``) or, made
generous enough, backtracks: a run of 200,000 address characters took 41 s.
Here every ``@`` is a candidate: the local part is read leftwards and the
domain rightwards, each scan stopping at the first character that cannot
belong to it. Neither may contain an unquoted ``@``, so the stretch between
two ``@`` is read at most twice; a quoted local part is read at most 66
characters back (RFC 5321 allows 64 inside the quotes). The whole text costs
O(n).

The rules are generous on purpose: masking a little too much is harmless,
printing one customer's address is not.
"""

from __future__ import annotations

import unicodedata

__all__ = ["EMAIL_MASK", "email_spans", "mask_emails"]

EMAIL_MASK = "[EMAIL]"

# RFC 5322 atext plus the dot, and any letter, digit or mark (RFC 6531 allows UTF-8).
_LOCAL_PUNCTUATION = frozenset("!#$%&'*+-/=?^_`{|}~.")
_MAX_QUOTED = 64 + 2  # the quotes included
_MAX_LITERAL = 64  # "[IPv6:ffff:...]"


def _is_word(ch: str) -> bool:
    return ch.isalnum() or (ch > "\x7f" and unicodedata.category(ch)[0] in "LMN")


def _is_local(ch: str) -> bool:
    return ch in _LOCAL_PUNCTUATION or _is_word(ch)


def _is_label(ch: str) -> bool:
    return ch == "-" or ch == "_" or _is_word(ch)


def _local_start(text: str, at: int, floor: int) -> int:
    """Where the local part before ``text[at] == "@"`` starts (``at`` when there is none).

    An unquoted part is read back to ``floor`` at most (the end of what was
    read before); a quoted one may reach further back, 66 characters at most,
    since it may hold an ``@`` of its own.
    """
    if at > 0 and text[at - 1] == '"':
        lowest = max(0, at - _MAX_QUOTED)
        i = at - 2
        while i >= lowest:
            if text[i] == '"' and (i == 0 or text[i - 1] != "\\"):
                return i
            i -= 1
    i = at
    while i > floor and _is_local(text[i - 1]):
        i -= 1
    return i


def _domain_end(text: str, at: int) -> int:
    """Where the domain after ``text[at] == "@"`` ends (``at + 1`` when there is none)."""
    start = at + 1
    n = len(text)
    if start < n and text[start] == "[":
        close = text.find("]", start, start + _MAX_LITERAL)
        if close > start + 1 and not any(c.isspace() or c in "[@" for c in text[start + 1 : close]):
            return close + 1
        return start
    end = start
    i = start
    while i < n:
        if _is_label(text[i]):
            i += 1
            end = i
        elif text[i] == "." and i > start and i + 1 < n and _is_label(text[i + 1]):
            i += 1  # a dot between labels; a trailing one ends the sentence
        else:
            break
    return end


def email_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of every e-mail address in ``text``, in order, not overlapping."""
    spans: list[tuple[int, int]] = []
    floor = 0  # nothing before this is read again
    at = text.find("@")
    while at != -1:
        start = _local_start(text, at, floor)
        end = _domain_end(text, at)
        touches = bool(spans) and spans[-1][1] >= start
        if end > at + 1 and (start < at or touches):
            # Merged with what it overlaps or touches: '"a@b"@c.example' and
            # 'a@b.example@c.example' are masked whole.
            while spans and spans[-1][1] >= start:
                start = min(start, spans.pop()[0])
            spans.append((start, end))
        floor = max(at + 1, end)
        at = text.find("@", at + 1)
    return spans


def mask_emails(text: str) -> str:
    """Replace every e-mail address in ``text`` with ``[EMAIL]``."""
    parts: list[str] = []
    last = 0
    for start, end in email_spans(text):
        parts += [text[last:start], EMAIL_MASK]
        last = end
    parts.append(text[last:])
    return "".join(parts)
