"""One SQL path for the chat memory repositories, over a small dialect per database.

``SqlChatMemoryRepository`` holds everything the SQLite and PostgreSQL
repositories share: the queries, the row mapping (``._rows`` decides which
rows a save touches), decoding with a clear error for a damaged row, the
per-process connection (a forked child opens its own), and the rule that
every change runs in one transaction holding the conversation's lock. A
``SqlDialect`` says only what differs: how to connect and create the
table (the DDL), the placeholder, how a transaction begins and locks a
conversation, and how driver errors are explained.

Adding a query: write a method here once, with ``?`` placeholders, running
its statements through ``SqlChatMemoryRepository._execute`` /
``_execute_many`` inside ``_transaction`` (changes) or ``_reading``
(reads); it then works on every dialect. A new table adds its
``CREATE TABLE IF NOT EXISTS`` to each dialect's ``_SCHEMA``; changing a
released table is a new step in ``springtail.memory._schema.MIGRATIONS``.

Paused turns (a turn waiting for a person's decision) live in their own
table, ``springtail_paused_turns``, one row per conversation, written and
removed in the same per-conversation transaction as the messages; taking
one is the compare-and-set that runs a decision exactly once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from springtail.memory._base import ChatMemoryError
from springtail.memory._codec import MessageCodec
from springtail.memory._ids import check_conversation_id
from springtail.memory._locks import ForkSafeLock
from springtail.memory._rows import plan_rows
from springtail.messages import Message

if TYPE_CHECKING:
    from springtail.memory._paused import PausedTurn

__all__ = [
    "PAUSED_TABLE",
    "TABLE",
    "SqlChatMemoryRepository",
    "SqlDialect",
    "create_paused_table",
    "create_table",
]

TABLE = "springtail_chat_memory"
PAUSED_TABLE = "springtail_paused_turns"

Conn = TypeVar("Conn")
Row = tuple[Any, ...]

_SELECT = f"SELECT seq, message, created_at FROM {TABLE} WHERE conversation_id = ? ORDER BY seq"
_IDS = (
    f"SELECT conversation_id FROM {TABLE} GROUP BY conversation_id "
    "ORDER BY MIN(created_at), conversation_id"
)
_DELETE = f"DELETE FROM {TABLE} WHERE conversation_id = ?"
_DELETE_ROW = f"DELETE FROM {TABLE} WHERE conversation_id = ? AND seq = ?"
_INSERT_ROW = (
    f"INSERT INTO {TABLE} (conversation_id, seq, role, message, created_at) VALUES (?, ?, ?, ?, "
)
_SELECT_PAUSED = f"SELECT turn FROM {PAUSED_TABLE} WHERE conversation_id = ?"
_DELETE_PAUSED = f"DELETE FROM {PAUSED_TABLE} WHERE conversation_id = ?"
_INSERT_PAUSED = f"INSERT INTO {PAUSED_TABLE} (conversation_id, turn, created_at) VALUES (?, ?, "


def create_table(*, seq: str, created_at: str) -> str:
    """The table's DDL; the databases differ only in the types of ``seq`` and ``created_at``."""
    return f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    conversation_id TEXT NOT NULL,
    seq {seq} NOT NULL,
    role TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at {created_at},
    PRIMARY KEY (conversation_id, seq)
)
"""


def create_paused_table(*, created_at: str) -> str:
    """The paused turns' DDL: one row per conversation, the turn as ``PausedTurn.to_json()``."""
    return f"""
CREATE TABLE IF NOT EXISTS {PAUSED_TABLE} (
    conversation_id TEXT PRIMARY KEY,
    turn TEXT NOT NULL,
    created_at {created_at}
)
"""


class SqlDialect(Protocol[Conn]):
    """What one database does its own way; everything else is in the repository."""

    label: str
    """How a damaged row's error names the store: a file, or a server without its password."""

    connect_action: str
    """The action a failed connect is reported as ("open the database", "connect")."""

    created_at: str
    """What stands for an inserted row's ``created_at`` in SQL: ``?``, or an expression of it."""

    def sql(self, text: str) -> str:
        """``text`` with its ``?`` placeholders written the way the driver wants them."""
        ...

    def connect(self) -> Conn:
        """A new connection, with its schema created (safely against other processes)."""
        ...

    def usable(self, conn: Conn) -> bool:
        """Whether this process's open connection can still be used."""
        ...

    def close(self, conn: Conn) -> None:
        """Close a connection this process opened."""
        ...

    def transaction(self, conn: Conn, key: str) -> AbstractContextManager[None]:
        """One transaction that holds the lock on ``key`` until it ends; rolled back on error."""
        ...

    def execute(self, conn: Conn, sql: str, params: Sequence[Any]) -> list[Row]:
        """Run one statement; its rows, or ``[]`` for one that returns none."""
        ...

    def execute_many(self, conn: Conn, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        ...

    def now(self) -> Any:
        """The ``created_at`` parameter of a new row (``None`` lets the database decide)."""
        ...

    def errors(self, action: str) -> AbstractContextManager[None]:
        """Turn the driver's errors into ``ChatMemoryError`` naming the store and the fix."""
        ...


class SqlChatMemoryRepository(Generic[Conn]):
    """Stores conversations in the ``springtail_chat_memory`` table of an SQL database.

    One connection per repository and per process, used by one thread at a
    time; ``save_all`` rewrites only the rows that changed. Subclasses pass
    their dialect to ``__init__`` and add what their database alone has.
    """

    TABLE: ClassVar[str] = TABLE

    def __init__(self, dialect: SqlDialect[Conn]) -> None:
        self._dialect = dialect
        self._codec = MessageCodec()
        self._lock = ForkSafeLock()
        self._conn: Conn | None = None
        # Connections inherited through fork(): the child must neither use nor
        # close them (closing could end the parent's session or disturb its
        # locks), so they are kept alive, unused.
        self._inherited: list[Conn] = []
        self._pid = -1
        with self._lock:
            self._connection()

    def find_conversation_ids(self) -> list[str]:
        """Every stored conversation, the one started first first."""
        with self._reading("read the conversation ids") as conn:
            return [row[0] for row in self._execute(conn, _IDS)]

    def find_by_conversation_id(self, conversation_id: str) -> list[Message]:
        """The conversation's messages, oldest first (empty when unknown)."""
        check_conversation_id(conversation_id)
        with self._reading(f"read conversation {conversation_id!r}") as conn:
            return self._decode(conversation_id, self._execute(conn, _SELECT, (conversation_id,)))

    def save_all(self, conversation_id: str, messages: Sequence[Message]) -> None:
        """Replace the conversation with ``messages`` in one transaction."""
        check_conversation_id(conversation_id)
        wanted = list(messages)
        with self._transaction(conversation_id, "save") as conn:
            rows = self._execute(conn, _SELECT, (conversation_id,))
            self._write(conn, conversation_id, rows, wanted)

    def update(
        self,
        conversation_id: str,
        change: Callable[[list[Message]], list[Message]],
    ) -> list[Message]:
        """Read, change and write the conversation in one transaction."""
        check_conversation_id(conversation_id)
        with self._transaction(conversation_id, "update") as conn:
            rows = self._execute(conn, _SELECT, (conversation_id,))
            wanted = list(change(self._decode(conversation_id, rows)))
            self._write(conn, conversation_id, rows, wanted)
        return wanted

    def delete_by_conversation_id(self, conversation_id: str) -> None:
        """Delete the conversation's rows (a no-op when unknown)."""
        check_conversation_id(conversation_id)
        with self._transaction(conversation_id, "delete") as conn:
            self._execute(conn, _DELETE, (conversation_id,))
            self._execute(conn, _DELETE_PAUSED, (conversation_id,))

    def find_paused_turn(self, conversation_id: str) -> PausedTurn | None:
        """The conversation's paused turn, or ``None``."""
        check_conversation_id(conversation_id)
        with self._reading(f"read the paused turn of conversation {conversation_id!r}") as conn:
            rows = self._execute(conn, _SELECT_PAUSED, (conversation_id,))
        return self._paused(conversation_id, rows[0][0]) if rows else None

    def save_paused_turn(self, conversation_id: str, turn: PausedTurn) -> None:
        """Store the conversation's paused turn; one at a time."""
        from springtail.memory._paused import already_paused

        check_conversation_id(conversation_id)
        text = turn.to_json()
        with self._transaction(conversation_id, "pause") as conn:
            if self._execute(conn, _SELECT_PAUSED, (conversation_id,)):
                raise already_paused(conversation_id)
            self._execute(
                conn,
                f"{_INSERT_PAUSED}{self._dialect.created_at})",
                (conversation_id, text, self._dialect.now()),
            )

    def take_paused_turn(
        self, conversation_id: str, check: Callable[[PausedTurn], PausedTurn]
    ) -> PausedTurn:
        """Remove the paused turn and return ``check(turn)``, in one locked transaction."""
        from springtail.memory._paused import nothing_paused

        check_conversation_id(conversation_id)
        with self._transaction(conversation_id, "resume") as conn:
            rows = self._execute(conn, _SELECT_PAUSED, (conversation_id,))
            if not rows:
                raise nothing_paused(conversation_id)
            decided = check(self._paused(conversation_id, rows[0][0]))
            self._execute(conn, _DELETE_PAUSED, (conversation_id,))
        return decided

    def close(self) -> None:
        """Close the connection; a later call opens a new one."""
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._dialect.close(self._conn)
            self._conn = None

    def __enter__(self) -> SqlChatMemoryRepository[Conn]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- what a query method is made of ----------------------------------------

    @contextmanager
    def _reading(self, action: str) -> Iterator[Conn]:
        """This process's connection, outside a transaction; errors name ``action``."""
        with self._lock, self._dialect.errors(action):
            yield self._connection()

    @contextmanager
    def _transaction(self, conversation_id: str, action: str) -> Iterator[Conn]:
        """One transaction holding the conversation's lock; errors name ``action`` and it."""
        dialect = self._dialect
        with self._lock, dialect.errors(f"{action} conversation {conversation_id!r}"):
            conn = self._connection()
            with dialect.transaction(conn, conversation_id):
                yield conn

    def _execute(self, conn: Conn, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run ``sql`` (with ``?`` placeholders); its rows, or ``[]`` for one that returns none."""
        return self._dialect.execute(conn, self._dialect.sql(sql), params)

    def _execute_many(self, conn: Conn, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run ``sql`` (with ``?`` placeholders) once per parameter row."""
        self._dialect.execute_many(conn, self._dialect.sql(sql), rows)

    # -- internals ---------------------------------------------------------

    def _write(
        self,
        conn: Conn,
        conversation_id: str,
        rows: list[Row],
        wanted: list[Message],
    ) -> None:
        payloads = [self._codec.encode(message) for message in wanted]
        plan = plan_rows([(seq, payload) for seq, payload, _ in rows], payloads)
        if plan.changes_nothing:
            return
        if plan.delete:
            self._execute_many(conn, _DELETE_ROW, [(conversation_id, seq) for seq in plan.delete])
        if plan.insert:
            now = self._dialect.now()
            self._execute_many(
                conn,
                f"{_INSERT_ROW}{self._dialect.created_at})",
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
                        f"{self._dialect.label}: row (conversation_id={conversation_id!r}, "
                        f"seq={seq}) of table {TABLE} holds a message springtail cannot read: "
                        f"{exc}. Fix or delete that row; nothing was changed."
                    ) from None
            raise

    def _paused(self, conversation_id: str, text: str) -> PausedTurn:
        from springtail.memory._paused import PausedTurn

        try:
            return PausedTurn.from_json(text)
        except ValueError as exc:
            raise ChatMemoryError(
                f"{self._dialect.label}: the paused turn of conversation {conversation_id!r} "
                f"in table {PAUSED_TABLE} cannot be read: {exc} Fix or delete that row; nothing "
                "was changed."
            ) from None

    def _connection(self) -> Conn:
        """This process's usable connection, opened (and the table created) when needed."""
        conn = self._conn
        if conn is not None and self._pid == os.getpid():
            if self._dialect.usable(conn):
                return conn
        elif conn is not None:
            self._inherited.append(conn)
        self._conn = None
        with self._dialect.errors(self._dialect.connect_action):
            conn = self._dialect.connect()
        self._conn = conn
        self._pid = os.getpid()
        return conn
