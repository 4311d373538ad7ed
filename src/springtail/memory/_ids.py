r"""Which conversation ids a repository accepts, checked the same way by every repository.

An id is text that every store can hold: valid UTF-8 without NUL characters.
A command-line argument with bytes that are not UTF-8 reaches Python as a
string with lone surrogates (``'c-\udcff'``); SQLite and PostgreSQL drivers
then fail with a ``UnicodeEncodeError`` traceback, and PostgreSQL refuses NUL.
Checking once, before any store is touched, gives one clear sentence instead
and keeps the in-memory repository from accepting ids the others refuse.
"""

from __future__ import annotations

from springtail.memory._base import ChatMemoryError

__all__ = ["InvalidConversationIdError", "check_conversation_id"]


class InvalidConversationIdError(ChatMemoryError, ValueError):
    """A conversation id no store can hold; nothing was read or written.

    Both a ``ChatMemoryError`` (what code around memory already catches)
    and a ``ValueError`` (what it is: a bad argument).
    """


def check_conversation_id(conversation_id: object) -> str:
    """``conversation_id`` itself when every repository can store it.

    Raises:
        InvalidConversationIdError: It is not a string, is not valid UTF-8
            (lone surrogates), or holds a NUL character.
    """
    if not isinstance(conversation_id, str):
        raise InvalidConversationIdError(
            f"A conversation id must be a string, got {type(conversation_id).__name__}: "
            f"{conversation_id!r}; nothing was read or written."
        )
    try:
        conversation_id.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidConversationIdError(
            f"The conversation id {_shown(conversation_id)} is not valid UTF-8 text "
            f"({_why(conversation_id)}): use an id of plain text; nothing was read or written."
        ) from None
    if "\x00" in conversation_id:
        raise InvalidConversationIdError(
            f"The conversation id {conversation_id!r} holds a NUL character, which PostgreSQL "
            "cannot store: use an id of plain text; nothing was read or written."
        )
    return conversation_id


def _shown(conversation_id: str) -> str:
    return "'" + conversation_id.encode("utf-8", "backslashreplace").decode("utf-8") + "'"


def _why(conversation_id: str) -> str:
    escaped = [ord(c) - 0xDC00 for c in conversation_id if 0xDC80 <= ord(c) <= 0xDCFF]
    if escaped:
        listed = ", ".join(f"0x{b:02x}" for b in escaped)
        return f"it holds the byte(s) {listed}, as a command-line argument that is not UTF-8 does"
    lone = next(c for c in conversation_id if 0xD800 <= ord(c) <= 0xDFFF)
    return f"it holds the lone surrogate U+{ord(lone):04X}"
