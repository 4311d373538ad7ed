"""SqliteChatMemoryRepository: conversations in an SQLite file, shared by processes.

Uses only the standard library's ``sqlite3``. The file is put in WAL mode so
readers never wait for a writer, every change runs in one ``BEGIN IMMEDIATE``
transaction (so several processes writing the same conversation are
serialized instead of overwriting each other), and a busy timeout makes a
writer wait for another instead of failing at once.

The table is part of the interface: other programs may read it, and an app
may keep its own tables in the same file::

    CREATE TABLE springtail_chat_memory (
        conversation_id TEXT NOT NULL,
        seq             INTEGER NOT NULL,   -- order within the conversation
        role            TEXT NOT NULL,      -- system | user | assistant | tool
        message         TEXT NOT NULL,      -- JSON, see springtail.memory._codec
        created_at      TEXT NOT NULL,      -- ISO 8601, UTC
        PRIMARY KEY (conversation_id, seq)
    )
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

from springtail.memory._base import ChatMemoryError
from springtail.memory._codec import MessageCodec
from springtail.memory._ids import check_conversation_id
from springtail.memory._locks import ForkSafeLock
from springtail.memory._rows import plan_rows
from springtail.messages import Message

__all__ = ["SqliteChatMemoryRepository"]

TABLE = "springtail_chat_memory"

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    conversation_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (conversation_id, seq)
)
"""
_SELECT = f"SELECT seq, message, created_at FROM {TABLE} WHERE conversation_id = ? ORDER BY seq"
_DELETE_ROW = f"DELETE FROM {TABLE} WHERE conversation_id = ? AND seq = ?"
_INSERT_ROW = (
    f"INSERT INTO {TABLE} (conversation_id, seq, role, message, created_at) VALUES (?, ?, ?, ?, ?)"
)


class SqliteChatMemoryRepository:
    """Stores conversations in the ``springtail_chat_memory`` table of an SQLite file.

    Safe to share between threads (one connection, used by one thread at a
    time) and between processes (each opens its own connection; a forked
    child reopens it on first use). ``save_all`` rewrites only the rows that
    changed, so adding a message to a long conversation stays cheap.

    Args:
        path: The database file; created, with its folder, when missing.
            Other tables in the file are left alone.
        busy_timeout: Seconds a write waits for another process's write to
            finish before giving up with :class:`ChatMemoryError`.

    Raises:
        ChatMemoryError: The file is not an SQLite database, is damaged,
            cannot be created, or stays locked. The file is never changed or
            deleted to "repair" it.
    """

    TABLE = TABLE

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout: float = 10.0) -> None:
        if busy_timeout < 0:
            raise ValueError(f"busy_timeout must be 0 or more seconds, got {busy_timeout}")
        self._path = Path(path)
        self._busy_timeout = busy_timeout
        self._codec = MessageCodec()
        self._lock = ForkSafeLock()
        self._conn: sqlite3.Connection | None = None
        self._inherited: list[sqlite3.Connection] = []
        self._pid = -1
        with self._lock:
            self._connection()

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    def find_conversation_ids(self) -> list[str]:
        """Every stored conversation, the one started first first."""
        sql = (
            f"SELECT conversation_id FROM {TABLE} GROUP BY conversation_id "
            "ORDER BY MIN(created_at), conversation_id"
        )
        with self._lock, self._errors("read the conversation ids"):
            return [row[0] for row in self._connection().execute(sql)]

    def find_by_conversation_id(self, conversation_id: str) -> list[Message]:
        """The conversation's messages, oldest first (empty when unknown)."""
        check_conversation_id(conversation_id)
        with self._lock, self._errors(f"read conversation {conversation_id!r}"):
            rows = self._connection().execute(_SELECT, (conversation_id,)).fetchall()
            return self._decode(conversation_id, rows)

    def save_all(self, conversation_id: str, messages: Sequence[Message]) -> None:
        """Replace the conversation with ``messages`` in one transaction."""
        check_conversation_id(conversation_id)
        wanted = list(messages)
        with self._transaction(f"save conversation {conversation_id!r}") as conn:
            rows = conn.execute(_SELECT, (conversation_id,)).fetchall()
            self._write(conn, conversation_id, rows, wanted)

    def update(
        self,
        conversation_id: str,
        change: Callable[[list[Message]], list[Message]],
    ) -> list[Message]:
        """Read, change and write the conversation in one transaction."""
        check_conversation_id(conversation_id)
        with self._transaction(f"update conversation {conversation_id!r}") as conn:
            rows = conn.execute(_SELECT, (conversation_id,)).fetchall()
            wanted = list(change(self._decode(conversation_id, rows)))
            self._write(conn, conversation_id, rows, wanted)
        return wanted

    def delete_by_conversation_id(self, conversation_id: str) -> None:
        """Delete the conversation's rows (a no-op when unknown)."""
        check_conversation_id(conversation_id)
        with self._transaction(f"delete conversation {conversation_id!r}") as conn:
            conn.execute(f"DELETE FROM {TABLE} WHERE conversation_id = ?", (conversation_id,))

    def close(self) -> None:
        """Close the connection; a later call opens a new one."""
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def __enter__(self) -> SqliteChatMemoryRepository:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SqliteChatMemoryRepository({str(self._path)!r})"

    # -- internals ---------------------------------------------------------

    def _write(
        self,
        conn: sqlite3.Connection,
        conversation_id: str,
        rows: list[tuple[int, str, str]],
        wanted: list[Message],
    ) -> None:
        payloads = [self._codec.encode(message) for message in wanted]
        plan = plan_rows([(seq, payload) for seq, payload, _ in rows], payloads)
        if plan.changes_nothing:
            return
        if plan.delete:
            conn.executemany(_DELETE_ROW, [(conversation_id, seq) for seq in plan.delete])
        if plan.insert:
            now = datetime.now(UTC).isoformat(timespec="microseconds")
            conn.executemany(
                _INSERT_ROW,
                [
                    (
                        conversation_id,
                        seq,
                        wanted[index].role,
                        payloads[index],
                        rows[plan.reuse[index]][2] if index in plan.reuse else now,
                    )
                    for seq, index in plan.insert
                ],
            )

    def _decode(self, conversation_id: str, rows: list[tuple[int, str, str]]) -> list[Message]:
        decode = self._codec.decode
        try:
            return [decode(payload) for _, payload, _ in rows]
        except ValueError:
            for seq, payload, _ in rows:
                try:
                    decode(payload)
                except ValueError as exc:
                    raise ChatMemoryError(
                        f"{self._path}: row (conversation_id={conversation_id!r}, seq={seq}) "
                        f"of table {TABLE} holds a message springtail cannot read: {exc}. "
                        "Fix or delete that row; nothing was changed."
                    ) from None
            raise

    def _connection(self) -> sqlite3.Connection:
        """This process's connection, opened (and the table created) on first use."""
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        if self._conn is not None:
            # Inherited through fork(): the child must neither use nor close
            # it (closing could disturb the parent's locks), so keep it alive.
            self._inherited.append(self._conn)
            self._conn = None
        with self._errors("open the database"):
            if str(self._path) != ":memory:":
                self._path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self._path,
                timeout=self._busy_timeout,
                isolation_level=None,
                check_same_thread=False,
            )
            try:
                self._prepare(conn)
            except BaseException:
                conn.close()
                raise
        self._conn = conn
        self._pid = os.getpid()
        return conn

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Switch the file to WAL and create the table, waiting out other processes doing so.

        When several processes open a new file at once, each switching it to
        WAL, SQLite answers all but one "database is locked" at once instead
        of waiting (the busy timeout is not consulted where waiting could
        deadlock). Retrying after a short pause, within the busy timeout, is
        what waiting would have done.
        """
        deadline = time.monotonic() + self._busy_timeout
        pause = 0.005
        while True:
            try:
                conn.execute("PRAGMA journal_mode=WAL").fetchall()
                conn.execute(_SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                lowered = str(exc).lower()
                if not ("locked" in lowered or "busy" in lowered):
                    raise
                if time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)

    @contextmanager
    def _transaction(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors(action):
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                # SQLite may already have rolled back (a full disk, an I/O
                # error); never leave a transaction open on the connection.
                if conn.in_transaction:
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """Turn sqlite3's terse errors into ones that name the file and the fix."""
        try:
            yield
        except sqlite3.Error as exc:
            raise ChatMemoryError(_explain(self._path, action, exc, self._busy_timeout)) from exc
        except OSError as exc:
            raise ChatMemoryError(
                f"Could not {action} in chat memory {self._path}: {exc}. "
                "Check that the folder exists and is writable."
            ) from exc


def _explain(path: Path, action: str, exc: sqlite3.Error, busy_timeout: float) -> str:
    text = str(exc)
    lowered = text.lower()
    head = f"Could not {action} in chat memory {path} ({text})."
    if "locked" in lowered or "busy" in lowered:
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
