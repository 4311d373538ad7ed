"""The support bot's business data: one SQLite file shared with the chat memory.

Other programs (the sqlite3 shell, a report script, a second support-bot) may
open the same file, so the table names are part of the interface and every
write is safe with several processes: WAL journaling lets readers carry on
while one process writes, a busy timeout makes writers queue instead of
failing, and a reservation is one guarded ``INSERT`` whose trigger takes the
stock, so two processes can never sell the same last unit.

Every SQLite failure leaves as a ``StoreError`` whose message is one
sentence naming the file and what to do; callers never see ``sqlite3``.

The queries are shared with PostgreSQL (``support_bot._store_sql``); this
module holds what SQLite does its own way.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from springtail import ChatMemoryRepository, SqliteChatMemoryRepository
from support_bot._files import private_file, private_folder
from support_bot._store_base import (
    BusinessStore,
    Customer,
    InsufficientStockError,
    Product,
    Reservation,
    ServedConversation,
    StoreError,
    Todo,
    UnknownProductError,
    UnknownTodoError,
    normalize_customer_id,
    normalize_sku,
)
from support_bot._store_sql import (
    CUSTOMERS_TABLE,
    PRODUCTS_TABLE,
    Row,
    SqlStore,
    served_conversations,
)

__all__ = [
    "DB_FILENAME",
    "SCHEMA_VERSION",
    "BusinessStore",
    "Customer",
    "InsufficientStockError",
    "Product",
    "Reservation",
    "ServedConversation",
    "Store",
    "StoreError",
    "Todo",
    "UnknownProductError",
    "UnknownTodoError",
    "default_data_dir",
    "normalize_customer_id",
    "normalize_sku",
]

DB_FILENAME: Final = "support-bot.db"
SCHEMA_VERSION: Final = 2
"""1: products, reservations, to-dos, customers; 2: adds ``served_conversations``."""
BUSY_TIMEOUT_S: Final = 10.0
"""How long a writer waits for another process's write before giving up."""

_SCHEMA: Final = (
    PRODUCTS_TABLE,
    """CREATE TABLE IF NOT EXISTS reservations (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        sku        TEXT NOT NULL REFERENCES products (sku),
        quantity   INTEGER NOT NULL CHECK (quantity > 0),
        created_at TEXT NOT NULL
    )""",
    """CREATE TRIGGER IF NOT EXISTS reservations_take_stock AFTER INSERT ON reservations
    BEGIN
        UPDATE products SET stock = stock - NEW.quantity WHERE sku = NEW.sku;
    END""",
    """CREATE TABLE IF NOT EXISTS todos (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        title      TEXT NOT NULL,
        done       INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
        created_at TEXT NOT NULL
    )""",
    CUSTOMERS_TABLE,
    *served_conversations(),
)

# One statement: the row is inserted only while the stock covers it, and the
# trigger takes the stock in the same statement (CHECK stock >= 0 is the
# backstop), so there is no window between "check" and "take".
_RESERVE: Final = """
INSERT INTO reservations (sku, quantity, created_at)
SELECT sku, ?, ? FROM products WHERE sku = ? AND stock >= ?
RETURNING id
"""


def default_data_dir() -> Path:
    """Where ``support-bot.db`` lives: ``$SUPPORT_BOT_DATA_DIR``, else the platform data folder."""
    override = os.environ.get("SUPPORT_BOT_DATA_DIR", "").strip()
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("support-bot", appauthor=False))


class Store(SqlStore[sqlite3.Connection]):
    """The business data in the SQLite file ``path``, created and seeded on first use.

    The ``BusinessStore`` for one machine; the chat memory lives in the
    same file (``chat_memory_repository``).

    Each operation opens its own short-lived connection: tools run on worker
    threads and other processes share the file, so nothing is held between
    calls and no connection is shared across threads.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._sqlite = _SqliteDialect(self.path)
        super().__init__(self._sqlite)
        self._migrate()

    @classmethod
    def in_data_dir(cls, data_dir: Path | str | None = None) -> Store:
        """The store ``support-bot.db`` inside ``data_dir`` (default: ``default_data_dir``)."""
        folder = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
        try:
            private_folder(folder)  # 0700 when created; the file 0600: it holds customer data
            private_file(folder / DB_FILENAME)
        except OSError as exc:
            raise StoreError(
                f"Cannot create the data folder {folder} ({exc.strerror or exc}); "
                "choose a writable folder with --data-dir or SUPPORT_BOT_DATA_DIR.",
                folder / DB_FILENAME,
            ) from None
        return cls(folder / DB_FILENAME)

    @property
    def location(self) -> str:
        """The SQLite file."""
        return str(self.path)

    def chat_memory_repository(self) -> ChatMemoryRepository:
        """Springtail's SQLite chat memory, in this file."""
        return SqliteChatMemoryRepository(self.path)

    def _migrate(self) -> None:
        with self._sqlite.connect() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == SCHEMA_VERSION:
                return
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"The database {self.path} was written by a newer support-bot (schema "
                    f"{version}, this one knows {SCHEMA_VERSION}); upgrade support-bot or use "
                    "another --data-dir. Nothing was changed.",
                    self.path,
                )
            _switch_to_wal(conn)
            # IMMEDIATE: two processes starting at once must not both seed.
            with _immediate(conn):
                found = conn.execute("PRAGMA user_version").fetchone()[0]
                if found < SCHEMA_VERSION:  # all IF NOT EXISTS: upgrades add what is new
                    self._create(conn, _SCHEMA, seed=found == 0)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


class _SqliteDialect:
    """SQLite's part: a connection per session, ``BEGIN IMMEDIATE`` to lock, a stock trigger."""

    for_update = ""  # BEGIN IMMEDIATE already holds the file's write lock
    now = "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')"  # as datetime.isoformat(timespec="seconds")
    insertion_order = "rowid"

    def __init__(self, path: Path) -> None:
        self.path = path

    def sql(self, text: str) -> str:
        return text

    @contextlib.contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        """A short-lived connection (autocommit: each statement is its own transaction)."""
        try:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._translate(exc) from None
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            yield conn
        except sqlite3.Error as exc:
            raise self._translate(exc) from None
        finally:
            conn.close()

    @contextlib.contextmanager
    def session(self, *, lock: bool) -> Iterator[sqlite3.Connection]:
        with self.connect() as conn:
            if not lock:
                yield conn
                return
            # IMMEDIATE takes the write lock up front so a concurrent writer
            # makes us wait (busy timeout) instead of failing on a stale snapshot.
            with _immediate(conn):
                yield conn

    def execute(self, conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
        return conn.execute(sql, params).fetchall()

    def execute_many(
        self, conn: sqlite3.Connection, sql: str, rows: Sequence[Sequence[Any]]
    ) -> None:
        conn.executemany(sql, rows)

    def take_stock(self, conn: sqlite3.Connection, sku: str, quantity: int) -> int:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        row = conn.execute(_RESERVE, (quantity, now, sku, quantity)).fetchone()
        assert row is not None  # the session's lock kept the stock that was read
        return int(row[0])

    def _translate(self, exc: sqlite3.Error) -> StoreError:
        text = str(exc)
        lowered = text.lower()
        if "locked" in lowered or "busy" in lowered:
            message = (
                f"The database {self.path} is locked by another program that is writing to it; "
                "close that program (or wait for it) and try again. Nothing was changed."
            )
        elif "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
            message = (
                f"The database {self.path} is damaged ({text}); support-bot left it untouched: "
                "move it aside or restore a backup, and support-bot will create a fresh one."
            )
        elif "unable to open" in lowered or "readonly" in lowered or "read-only" in lowered:
            message = (
                f"Cannot write the database {self.path} ({text}); check that the file and its "
                "folder are writable, or choose another folder with --data-dir."
            )
        else:
            message = f"The database {self.path} failed ({text}); nothing was changed."
        return StoreError(message, self.path)


@contextlib.contextmanager
def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` transaction: committed at the end, rolled back on error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _switch_to_wal(conn: sqlite3.Connection) -> None:
    """Put the file in WAL mode, waiting while another process does the same.

    When several support-bots start at once on a new data folder, SQLite
    answers all but one "database is locked" at once here instead of applying
    the busy timeout, so the switch is retried for up to that long.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc).lower() or time.monotonic() + delay > deadline:
                raise
        time.sleep(delay)
        delay = min(2 * delay, 0.2)
