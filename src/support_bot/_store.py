"""The support bot's business data: one SQLite file shared with the chat memory.

Other programs (the sqlite3 shell, a report script, a second support-bot) may
open the same file, so the table names are part of the interface and every
write is safe with several processes: WAL journaling lets readers carry on
while one process writes, a busy timeout makes writers queue instead of
failing, and a reservation is one guarded ``INSERT`` whose trigger takes the
stock, so two processes can never sell the same last unit.

Every SQLite failure leaves as a :class:`StoreError` whose message is one
sentence naming the file and what to do; callers never see ``sqlite3``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from springtail import ChatMemoryRepository, SqliteChatMemoryRepository
from support_bot._files import private_file, private_folder
from support_bot._seed import SEED_CUSTOMERS, SEED_PRODUCTS
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

__all__ = [
    "DB_FILENAME",
    "SCHEMA_VERSION",
    "BusinessStore",
    "Customer",
    "InsufficientStockError",
    "Product",
    "Reservation",
    "ServedConversation",
    "SqliteStore",
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
    """CREATE TABLE IF NOT EXISTS products (
        sku   TEXT PRIMARY KEY,
        name  TEXT NOT NULL,
        stock INTEGER NOT NULL CHECK (stock >= 0)
    )""",
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
    """CREATE TABLE IF NOT EXISTS customers (
        id      TEXT PRIMARY KEY,
        name    TEXT NOT NULL,
        company TEXT NOT NULL,
        email   TEXT NOT NULL,
        phone   TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS served_conversations (
        id         TEXT PRIMARY KEY,
        owner      TEXT NOT NULL,
        title      TEXT NOT NULL DEFAULT '',
        turns      INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS served_conversations_owner ON served_conversations (owner)",
)

# One statement: the row is inserted only while the stock covers it, and the
# trigger takes the stock in the same statement (CHECK stock >= 0 is the
# backstop), so there is no window between "check" and "take".
_RESERVE: Final = """
INSERT INTO reservations (sku, quantity, created_at)
SELECT sku, :quantity, :now FROM products WHERE sku = :sku AND stock >= :quantity
RETURNING id
"""


def default_data_dir() -> Path:
    """Where ``support-bot.db`` lives: ``$SUPPORT_BOT_DATA_DIR``, else the platform data folder."""
    override = os.environ.get("SUPPORT_BOT_DATA_DIR", "").strip()
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("support-bot", appauthor=False))


class Store:
    """The business data in the SQLite file ``path``, created and seeded on first use.

    The :class:`BusinessStore` for one machine; the chat memory lives in the
    same file (:meth:`chat_memory_repository`).

    Each operation opens its own short-lived connection: tools run on worker
    threads and other processes share the file, so nothing is held between
    calls and no connection is shared across threads.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._migrate()

    @classmethod
    def in_data_dir(cls, data_dir: Path | str | None = None) -> Store:
        """The store ``support-bot.db`` inside ``data_dir`` (default: :func:`default_data_dir`)."""
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

    # -- connection handling -------------------------------------------------

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
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

    def _migrate(self) -> None:
        with self._connect() as conn:
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
            conn.execute("BEGIN IMMEDIATE")
            try:
                found = conn.execute("PRAGMA user_version").fetchone()[0]
                if found < SCHEMA_VERSION:
                    for statement in _SCHEMA:  # all IF NOT EXISTS: upgrades add what is new
                        conn.execute(statement)
                if found == 0:
                    conn.executemany(
                        "INSERT OR IGNORE INTO products (sku, name, stock) VALUES (?, ?, ?)",
                        SEED_PRODUCTS,
                    )
                    conn.executemany(
                        "INSERT OR IGNORE INTO customers (id, name, company, email, phone) "
                        "VALUES (?, ?, ?, ?, ?)",
                        SEED_CUSTOMERS,
                    )
                if found < SCHEMA_VERSION:
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    # -- products --------------------------------------------------------------

    def products(self) -> list[Product]:
        """Every product, by SKU."""
        with self._connect() as conn:
            rows = conn.execute("SELECT sku, name, stock FROM products ORDER BY sku").fetchall()
        return [Product(*row) for row in rows]

    def product(self, sku: str) -> Product:
        """The product with this SKU (normalized), or :class:`UnknownProductError`."""
        key = normalize_sku(sku)
        with self._connect() as conn:
            row = conn.execute(
                "SELECT sku, name, stock FROM products WHERE sku = ?", (key,)
            ).fetchone()
            if row is None:
                known = tuple(r[0] for r in conn.execute("SELECT sku FROM products ORDER BY sku"))
                raise UnknownProductError(key, known)
        return Product(*row)

    def reserve(self, sku: str, quantity: int) -> Reservation:
        """Take ``quantity`` units of ``sku`` from stock, all or nothing.

        Raises:
            ValueError: ``quantity`` is not positive.
            UnknownProductError: no such SKU.
            InsufficientStockError: the stock is short; nothing was taken.
        """
        if quantity <= 0:
            raise ValueError(f"The quantity must be at least 1 (got {quantity}).")
        key = normalize_sku(sku)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._connect() as conn:
            # IMMEDIATE takes the write lock up front so a concurrent writer
            # makes us wait (busy timeout) instead of failing on a stale snapshot.
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute(
                    _RESERVE, {"sku": key, "quantity": quantity, "now": now}
                ).fetchone()
                current = conn.execute(
                    "SELECT sku, name, stock FROM products WHERE sku = ?", (key,)
                ).fetchone()
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            if current is None:
                known = tuple(r[0] for r in conn.execute("SELECT sku FROM products ORDER BY sku"))
                raise UnknownProductError(key, known)
        product = Product(*current)
        if row is None:
            raise InsufficientStockError(product, quantity)
        return Reservation(row[0], product.sku, product.name, quantity, product.stock)

    def reservations(self) -> list[tuple[int, str, int]]:
        """``(id, sku, quantity)`` of every reservation, oldest first."""
        with self._connect() as conn:
            rows = conn.execute("SELECT id, sku, quantity FROM reservations ORDER BY id").fetchall()
        return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    # -- to-dos ------------------------------------------------------------------

    def add_todo(self, title: str) -> Todo:
        """Append a to-do; ``title`` must not be blank."""
        text = " ".join(title.split())
        if not text:
            raise ValueError("The to-do title is empty; give a short description of the task.")
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._connect() as conn:
            row = conn.execute(
                "INSERT INTO todos (title, done, created_at) VALUES (?, 0, ?) RETURNING id",
                (text, now),
            ).fetchone()
        return Todo(int(row[0]), text, False)

    def todos(self) -> list[Todo]:
        """Every to-do, oldest first."""
        with self._connect() as conn:
            rows = conn.execute("SELECT id, title, done FROM todos ORDER BY id").fetchall()
        return [Todo(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    def complete_todo(self, todo_id: int) -> tuple[Todo, bool]:
        """Mark a to-do done; returns it and whether it was open before."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT id, title, done FROM todos WHERE id = ?", (todo_id,)
            ).fetchone()
            if row is None:
                raise UnknownTodoError(todo_id)
            if not row[2]:
                conn.execute("UPDATE todos SET done = 1 WHERE id = ?", (todo_id,))
        return Todo(int(row[0]), str(row[1]), True), not bool(row[2])

    # -- customers -----------------------------------------------------------------

    def customer(self, customer_id: str) -> Customer | None:
        """The customer with this id (normalized), or ``None``."""
        key = normalize_customer_id(customer_id)
        with self._connect() as conn:
            row = conn.execute(
                "SELECT id, name, company, email, phone FROM customers WHERE id = ?", (key,)
            ).fetchone()
        return Customer(*row) if row else None

    def customer_ids(self) -> list[str]:
        """Every customer id, sorted."""
        with self._connect() as conn:
            return [str(r[0]) for r in conn.execute("SELECT id FROM customers ORDER BY id")]

    # -- web conversations (support-bot serve) ----------------------------------------

    def add_conversation(self, conversation_id: str, owner: str, title: str) -> ServedConversation:
        """Record a new web conversation owned by ``owner``."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO served_conversations (id, owner, title, turns, created_at) "
                "VALUES (?, ?, ?, 0, ?)",
                (conversation_id, owner, title, now),
            )
        return ServedConversation(conversation_id, owner, title, 0, now)

    def conversation(self, conversation_id: str) -> ServedConversation | None:
        """The web conversation with this id, or ``None``."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT id, owner, title, turns, created_at FROM served_conversations WHERE id = ?",
                (conversation_id,),
            ).fetchone()
        return ServedConversation(*row) if row else None

    def conversations(self, owner: str) -> list[ServedConversation]:
        """The web conversations of ``owner``, newest first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT id, owner, title, turns, created_at FROM served_conversations "
                "WHERE owner = ? ORDER BY created_at DESC, rowid DESC",
                (owner,),
            ).fetchall()
        return [ServedConversation(*row) for row in rows]

    def count_turn(self, conversation_id: str, title: str) -> None:
        """One more finished turn; the first one also names the conversation."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE served_conversations SET turns = turns + 1, "
                "title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?",
                (title, conversation_id),
            )


SqliteStore = Store
"""The SQLite :class:`BusinessStore` (``Store`` is its historical name)."""


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
