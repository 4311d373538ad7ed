"""The chat memory tables' schema version, and how an older layout is brought up to date.

The SQL repositories record the layout they wrote in a small table,
``springtail_schema`` (one row per version applied), in SQLite and PostgreSQL
alike. SQLite's ``PRAGMA user_version`` is not used: the file may be shared
with an app's own tables (support-bot keeps its business data, versioned with
``user_version``, in the same file), and one file has only one
``user_version``.

Versions:

1. ``springtail_chat_memory`` and ``springtail_paused_turns`` as the first
   releases created them; those releases recorded no version.
2. The same tables, with ``springtail_schema`` recording the version.

To change the tables: add the change to ``MIGRATIONS`` as the next version
(never edit a released one) and raise ``SCHEMA_VERSION``. The dialects'
``CREATE TABLE IF NOT EXISTS`` statements stay version 1's layout, so a new
store and an upgraded one run the same statements, in the same transaction
that holds the schema lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from springtail.memory._base import ChatMemoryError

__all__ = [
    "MIGRATIONS",
    "SCHEMA_TABLE",
    "SCHEMA_VERSION",
    "create_schema_table",
    "found_version",
    "record_version",
    "refuse_newer",
    "upgrade_statements",
]

SCHEMA_TABLE: Final = "springtail_schema"

SCHEMA_VERSION: Final = 2
"""The layout this springtail writes; see the module's docstring for what each version holds."""

MIGRATIONS: Final[tuple[tuple[int, tuple[str, ...]], ...]] = (
    (2, ()),  # only the version table, which every upgrade creates first
)
"""Each version above 1 and the statements (no parameters) that bring the one below it there."""


def create_schema_table(*, applied_at: str) -> str:
    """The version table's DDL; the databases differ only in the type of ``applied_at``."""
    return f"""
CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (
    version INTEGER PRIMARY KEY,
    applied_at {applied_at}
)
"""


def record_version(created_at: str) -> str:
    """The ``INSERT`` recording ``SCHEMA_VERSION``; ``created_at`` is the dialect's expression."""
    return f"INSERT INTO {SCHEMA_TABLE} (version, applied_at) VALUES (?, {created_at})"


def found_version(recorded: int | None, *, has_tables: bool) -> int:
    """The store's version: the recorded one, else 1 for unversioned tables, else 0 (empty)."""
    if recorded is not None:
        return int(recorded)
    return 1 if has_tables else 0


def refuse_newer(found: int, store: str) -> None:
    """Refuse a store written by a newer springtail, before anything in it is changed.

    Raises:
        ChatMemoryError: ``found`` is above ``SCHEMA_VERSION``; the message
            names ``store`` and says what to do.
    """
    if found > SCHEMA_VERSION:
        raise ChatMemoryError(
            f"The {store} was written by a newer springtail (schema version {found}; this "
            f"springtail knows up to {SCHEMA_VERSION}). Upgrade springtail "
            "(pip install -U springtail), or point this app at another chat memory. "
            "Nothing was changed."
        )


def upgrade_statements(found: int, schema: Sequence[str], version_table: str) -> list[str]:
    """What brings a store at version ``found`` (0: empty) to ``SCHEMA_VERSION``, in order.

    The version table first, then the dialect's ``schema`` (version 1's
    layout, all ``IF NOT EXISTS``: existing tables and their rows are kept),
    then every migration above ``found``. Recording the version is left to
    the caller, in the same transaction.
    """
    migrations = [
        statement
        for version, statements in MIGRATIONS
        if found < version <= SCHEMA_VERSION
        for statement in statements
    ]
    return [version_table, *schema, *migrations]
