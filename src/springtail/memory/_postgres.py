r"""PostgresChatMemoryRepository: conversations shared by app instances on several machines.

psycopg 3 (the ``postgres`` extra) is imported when a repository is built,
never by ``import springtail``. Every change runs in one transaction that
first takes a transaction-level advisory lock on the conversation, so
concurrent writers (threads, processes, machines) are serialized per
conversation, including a conversation's very first write, which has no
rows a ``SELECT ... FOR UPDATE`` could lock.

The table is part of the interface::

    CREATE TABLE springtail_chat_memory (
        conversation_id TEXT NOT NULL,
        seq             BIGINT NOT NULL,      -- order within the conversation
        role            TEXT NOT NULL,        -- system | user | assistant | tool
        message         TEXT NOT NULL,        -- JSON, as in the SQLite table
        created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (conversation_id, seq)
    )

``message`` is ``TEXT`` rather than ``jsonb`` because ``jsonb`` cannot hold
``\u0000`` and reorders keys; cast it (``message::jsonb``) to query it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from springtail.memory._base import ChatMemoryError
from springtail.memory._codec import MessageCodec
from springtail.memory._dsn import describe_dsn, scrub_dsn
from springtail.memory._ids import check_conversation_id
from springtail.memory._locks import ForkSafeLock
from springtail.memory._rows import plan_rows
from springtail.messages import Message

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresChatMemoryRepository"]

TABLE = "springtail_chat_memory"

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    conversation_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    role TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, seq)
)
"""
_LOCK = f"SELECT pg_advisory_xact_lock(hashtext('{TABLE}'), hashtext(%s))"
_SELECT = f"SELECT seq, message, created_at FROM {TABLE} WHERE conversation_id = %s ORDER BY seq"
_DELETE_ROW = f"DELETE FROM {TABLE} WHERE conversation_id = %s AND seq = %s"
_INSERT_ROW = (
    f"INSERT INTO {TABLE} (conversation_id, seq, role, message, created_at) "
    "VALUES (%s, %s, %s, %s, COALESCE(%s::timestamptz, now()))"
)

Row = tuple[int, str, datetime]


class PostgresChatMemoryRepository:
    """Stores conversations in the ``springtail_chat_memory`` table of a PostgreSQL database.

    The table is created when missing. One connection per repository (and per
    process: a forked child opens its own), used by one thread at a time; a
    connection that broke is replaced on the next call.

    Args:
        dsn: A libpq connection string or URI, e.g.
            ``"postgresql://app@db.internal/support"``.
        connect_timeout: Seconds to wait for the server when connecting.

    Raises:
        ChatMemoryError: The server cannot be reached, refuses the login, or
            holds a row springtail cannot read. Messages name the server
            (never the password) and say what to check.
        ImportError: psycopg is not installed (``pip install 'springtail[postgres]'``).
    """

    TABLE = TABLE

    def __init__(self, dsn: str, *, connect_timeout: float = 10.0) -> None:
        try:
            import psycopg  # noqa: F401  (fail early, with the fix, when the extra is missing)
        except ImportError as exc:
            raise ImportError(
                "PostgresChatMemoryRepository needs psycopg 3: pip install 'springtail[postgres]'"
            ) from exc
        self._dsn = dsn
        self._where = describe_dsn(dsn)
        self._connect_timeout = connect_timeout
        self._codec = MessageCodec()
        self._lock = ForkSafeLock()
        self._conn: psycopg.Connection[Any] | None = None
        self._inherited: list[psycopg.Connection[Any]] = []
        self._pid = -1
        with self._lock:
            self._connection()

    def find_conversation_ids(self) -> list[str]:
        """Every stored conversation, the one started first first."""
        sql = (
            f"SELECT conversation_id FROM {TABLE} GROUP BY conversation_id "
            "ORDER BY MIN(created_at), conversation_id"
        )
        with self._lock, self._errors("read the conversation ids"):
            return [row[0] for row in self._connection().execute(sql).fetchall()]

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
        with self._transaction(conversation_id, "save") as conn:
            rows = conn.execute(_SELECT, (conversation_id,)).fetchall()
            self._write(conn, conversation_id, rows, wanted)

    def update(
        self,
        conversation_id: str,
        change: Callable[[list[Message]], list[Message]],
    ) -> list[Message]:
        """Read, change and write the conversation in one transaction."""
        check_conversation_id(conversation_id)
        with self._transaction(conversation_id, "update") as conn:
            rows = conn.execute(_SELECT, (conversation_id,)).fetchall()
            wanted = list(change(self._decode(conversation_id, rows)))
            self._write(conn, conversation_id, rows, wanted)
        return wanted

    def delete_by_conversation_id(self, conversation_id: str) -> None:
        """Delete the conversation's rows (a no-op when unknown)."""
        check_conversation_id(conversation_id)
        with self._transaction(conversation_id, "delete") as conn:
            conn.execute(f"DELETE FROM {TABLE} WHERE conversation_id = %s", (conversation_id,))

    def close(self) -> None:
        """Close the connection; a later call opens a new one."""
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def __enter__(self) -> PostgresChatMemoryRepository:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"PostgresChatMemoryRepository({self._where!r})"

    # -- internals ---------------------------------------------------------

    def _write(
        self,
        conn: psycopg.Connection[Any],
        conversation_id: str,
        rows: list[Row],
        wanted: list[Message],
    ) -> None:
        payloads = [self._codec.encode(message) for message in wanted]
        plan = plan_rows([(seq, payload) for seq, payload, _ in rows], payloads)
        if plan.changes_nothing:
            return
        with conn.cursor() as cursor:
            if plan.delete:
                cursor.executemany(_DELETE_ROW, [(conversation_id, seq) for seq in plan.delete])
            if plan.insert:
                cursor.executemany(
                    _INSERT_ROW,
                    [
                        (
                            conversation_id,
                            seq,
                            wanted[index].role,
                            payloads[index],
                            rows[plan.reuse[index]][2] if index in plan.reuse else None,
                        )
                        for seq, index in plan.insert
                    ],
                )

    def _decode(self, conversation_id: str, rows: list[Row]) -> list[Message]:
        decode = self._codec.decode
        try:
            return [decode(payload) for _, payload, _ in rows]
        except ValueError:
            for seq, payload, _ in rows:
                try:
                    decode(payload)
                except ValueError as exc:
                    raise ChatMemoryError(
                        f"PostgreSQL chat memory {self._where}: row (conversation_id="
                        f"{conversation_id!r}, seq={seq}) of table {TABLE} holds a message "
                        f"springtail cannot read: {exc}. Fix or delete that row; nothing was "
                        "changed."
                    ) from None
            raise

    def _connection(self) -> psycopg.Connection[Any]:
        """This process's live connection, opened (and the table created) when needed."""
        conn = self._conn
        if conn is not None and self._pid == os.getpid():
            if not conn.closed and not conn.broken:
                return conn
        elif conn is not None:
            # Inherited through fork(): closing it in the child would end the
            # parent's session on the shared socket, so keep it alive unused.
            self._inherited.append(conn)
        self._conn = None
        import psycopg

        with self._errors("connect"):
            conn = psycopg.connect(
                self._dsn, autocommit=True, connect_timeout=max(1, round(self._connect_timeout))
            )
            try:
                with conn.transaction():
                    conn.execute(_LOCK, ("",))  # one schema creator at a time
                    conn.execute(_SCHEMA)
            except BaseException:
                conn.close()
                raise
        self._conn = conn
        self._pid = os.getpid()
        return conn

    @contextmanager
    def _transaction(self, conversation_id: str, action: str) -> Iterator[psycopg.Connection[Any]]:
        with self._lock, self._errors(f"{action} conversation {conversation_id!r}"):
            conn = self._connection()
            with conn.transaction():
                conn.execute(_LOCK, (conversation_id,))
                yield conn

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """Turn driver errors into ones that name the server and the fix."""
        import psycopg

        try:
            yield
        except psycopg.OperationalError as exc:
            raise ChatMemoryError(
                f"Could not {action} in PostgreSQL chat memory {self._where}: "
                f"{self._scrubbed(exc)}. Check that the server is running and reachable and that "
                "the connection string (host, port, user, password, database) is right; "
                "nothing stored was changed."
            ) from exc
        except psycopg.Error as exc:
            raise ChatMemoryError(
                f"Could not {action} in PostgreSQL chat memory {self._where}: "
                f"{self._scrubbed(exc)}. The change was rolled back; nothing stored was lost."
            ) from exc

    def _scrubbed(self, exc: BaseException) -> str:
        """The driver's first line with nothing of the connection string's secrets in it.

        libpq quotes the part of a connection string it could not parse
        (``… in URI: "postgres://app:s3cret@[::1/x"``), so a malformed DSN
        would put its password into the error. Every password the DSN holds
        is masked; when the DSN cannot be parsed at all, which part is the
        password cannot be known, so every quoted fragment is left out.
        """
        return scrub_dsn(_first_line(exc), self._dsn)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
