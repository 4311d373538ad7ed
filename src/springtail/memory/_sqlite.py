"""SqliteChatMemoryRepository: conversations in an SQLite file, shared by processes.

Uses only the standard library's ``sqlite3``. The file is put in WAL mode so
readers never wait for a writer, every change runs in one ``BEGIN IMMEDIATE``
transaction (so several processes writing the same conversation are
serialized instead of overwriting each other), and a busy timeout makes a
writer wait for another instead of failing at once.

The table is part of the interface: other programs may read it, and an app
may keep its own tables in the same file:

```sql
CREATE TABLE springtail_chat_memory (
    conversation_id TEXT NOT NULL,
    seq             INTEGER NOT NULL,   -- order within the conversation
    role            TEXT NOT NULL,      -- system | user | assistant | tool
    message         TEXT NOT NULL,      -- JSON, see springtail.memory._codec
    created_at      TEXT NOT NULL,      -- ISO 8601, UTC
    PRIMARY KEY (conversation_id, seq)
)
```

The layout's version is recorded in ``springtail_schema`` (see
``springtail.memory._schema``); an older layout is upgraded in place when the
repository opens, and one written by a newer springtail is refused.

The queries are shared with PostgreSQL (``springtail.memory._sql``); this
module holds what SQLite does its own way.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from springtail.memory._base import ChatMemoryError
from springtail.memory._schema import (
    SCHEMA_TABLE,
    SCHEMA_VERSION,
    create_schema_table,
    found_version,
    record_version,
    refuse_newer,
    upgrade_statements,
)
from springtail.memory._sql import (
    PAUSED_TABLE,
    TABLE,
    Row,
    SqlChatMemoryRepository,
    create_paused_table,
    create_table,
)

__all__ = ["SqliteChatMemoryRepository"]

_SCHEMA = (
    create_table(seq="INTEGER", created_at="TEXT NOT NULL"),
    create_paused_table(created_at="TEXT NOT NULL"),
)
_VERSION_TABLE = create_schema_table(applied_at="TEXT NOT NULL")
_TABLES = (
    f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN "
    f"('{SCHEMA_TABLE}', '{TABLE}', '{PAUSED_TABLE}')"
)


class SqliteChatMemoryRepository(SqlChatMemoryRepository[sqlite3.Connection]):
    """Stores conversations in the ``springtail_chat_memory`` table of an SQLite file.

    Safe to share between threads (one connection, used by one thread at a
    time) and between processes (each opens its own connection; a forked
    child reopens it on first use). ``save_all`` rewrites only the rows that
    changed, so adding a message to a long conversation stays cheap.

    Args:
        path: The database file; created, with its folder, when missing.
            Other tables in the file are left alone.
        busy_timeout: Seconds a write waits for another process's write to
            finish before giving up with [`ChatMemoryError`][].

    Raises:
        ChatMemoryError: The file is not an SQLite database, is damaged,
            cannot be created, or stays locked. The file is never changed or
            deleted to "repair" it.
    """

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout: float = 10.0) -> None:
        if busy_timeout < 0:
            raise ValueError(f"busy_timeout must be 0 or more seconds, got {busy_timeout}")
        self._path = Path(path)
        super().__init__(_SqliteDialect(self._path, busy_timeout))

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    def __repr__(self) -> str:
        return f"SqliteChatMemoryRepository({str(self._path)!r})"


class _SqliteDialect:
    """SQLite's part: WAL, ``BEGIN IMMEDIATE`` (the file's one write lock), ``?``."""

    connect_action = "open the database"
    created_at = "?"

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path = path
        self.label = str(path)
        self.busy_timeout = busy_timeout

    def sql(self, text: str) -> str:
        return text

    def connect(self) -> sqlite3.Connection:
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
        )
        try:
            self._prepare(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Switch the file to WAL and bring the tables up to date, waiting out other processes.

        When several processes open a new file at once, each switching it to
        WAL, SQLite answers all but one "database is locked" at once instead
        of waiting (the busy timeout is not consulted where waiting could
        deadlock). Retrying after a short pause, within the busy timeout, is
        what waiting would have done.
        """
        deadline = time.monotonic() + self.busy_timeout
        pause = 0.005
        while True:
            try:
                conn.execute("PRAGMA journal_mode=WAL").fetchall()
                self._migrate(conn)
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(str(exc).lower()) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """Bring the tables to ``SCHEMA_VERSION``, recorded in ``springtail_schema``.

        The version lives in a table of its own, not in ``PRAGMA
        user_version``: the file may be an app's (support-bot versions its
        own tables with ``user_version`` in the same file). A file at the
        current version only has its tables checked, as before; an older or
        new one is upgraded in one ``BEGIN IMMEDIATE`` transaction (the
        file's write lock), which reads the version again, so two processes
        opening it at once migrate it once. A newer file is refused untouched.
        """
        found = self._version(conn)
        refuse_newer(found, f"chat memory {self.path}")
        if found == SCHEMA_VERSION:
            for statement in _SCHEMA:  # a table dropped by hand is created again
                conn.execute(statement)
            return
        with self.transaction(conn, ""):
            found = self._version(conn)
            refuse_newer(found, f"chat memory {self.path}")
            if found < SCHEMA_VERSION:
                for statement in upgrade_statements(found, _SCHEMA, _VERSION_TABLE):
                    conn.execute(statement)
                conn.execute(record_version(self.created_at), (SCHEMA_VERSION, self.now()))

    def _version(self, conn: sqlite3.Connection) -> int:
        tables = {row[0] for row in conn.execute(_TABLES)}
        recorded = None
        if SCHEMA_TABLE in tables:
            recorded = conn.execute(f"SELECT max(version) FROM {SCHEMA_TABLE}").fetchone()[0]
        return found_version(recorded, has_tables=bool(tables - {SCHEMA_TABLE}))

    def usable(self, conn: sqlite3.Connection) -> bool:
        return True

    def close(self, conn: sqlite3.Connection) -> None:
        conn.close()

    @contextmanager
    def transaction(self, conn: sqlite3.Connection, key: str) -> Iterator[None]:
        # IMMEDIATE takes the file's write lock up front: every writer of
        # every conversation queues here, which serializes ``key``'s too.
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            # SQLite may already have rolled back (a full disk, an I/O
            # error); never leave a transaction open on the connection.
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise

    def execute(self, conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
        return conn.execute(sql, params).fetchall()

    def execute_many(
        self, conn: sqlite3.Connection, sql: str, rows: Sequence[Sequence[Any]]
    ) -> None:
        conn.executemany(sql, rows)

    def now(self) -> str:
        return datetime.now(UTC).isoformat(timespec="microseconds")

    @contextmanager
    def errors(self, action: str) -> Iterator[None]:
        """Turn sqlite3's terse errors into ones that name the file and the fix."""
        try:
            yield
        except sqlite3.Error as exc:
            raise ChatMemoryError(_explain(self.path, action, exc, self.busy_timeout)) from exc
        except OSError as exc:
            raise ChatMemoryError(
                f"Could not {action} in chat memory {self.path}: {exc}. "
                "Check that the folder exists and is writable."
            ) from exc


def _is_busy(lowered: str) -> bool:
    return "locked" in lowered or "busy" in lowered


def _explain(path: Path, action: str, exc: sqlite3.Error, busy_timeout: float) -> str:
    text = str(exc)
    lowered = text.lower()
    head = f"Could not {action} in chat memory {path} ({text})."
    if _is_busy(lowered):
        return (
            f"{head} Another connection kept it locked for more than {busy_timeout:g}s; "
            "the change was not saved and nothing stored was lost. Finish or close the "
            "program holding the lock (an open transaction in a sqlite3 shell?) and retry, "
            "or pass a longer busy_timeout."
        )
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return (
            f"{head} The file is damaged or is not an SQLite database. springtail left it "
            "untouched: move it aside (or restore a backup) and a fresh chat memory is "
            "created on the next start."
        )
    if "readonly" in lowered or "read-only" in lowered:
        return f"{head} The file or its folder is read-only; make it writable."
    if "unable to open" in lowered:
        return f"{head} Check that the folder exists, is writable and the path is a file."
    return head
