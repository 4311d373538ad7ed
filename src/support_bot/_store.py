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
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from support_bot._seed import SEED_CUSTOMERS, SEED_PRODUCTS

__all__ = [
    "DB_FILENAME",
    "SCHEMA_VERSION",
    "Customer",
    "InsufficientStockError",
    "Product",
    "Reservation",
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
SCHEMA_VERSION: Final = 1
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


def normalize_sku(sku: str) -> str:
    """Accept what people and small models type: ``" sku-100 "``, ``"SKU100"``, ``"100"``."""
    text = sku.strip().upper()
    match = re.fullmatch(r"(?:SKU)?[\s_-]*(\d+)", text)
    return f"SKU-{match.group(1)}" if match else text


def normalize_customer_id(customer_id: str) -> str:
    """Accept ``" c-100 "``, ``"C100"`` and ``"100"`` for ``C-100``."""
    text = customer_id.strip().upper()
    match = re.fullmatch(r"(?:C|CUSTOMER)?[\s_-]*(\d+)", text)
    return f"C-{match.group(1)}" if match else text


class StoreError(Exception):
    """The database could not be used; the message says which file and what to do."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


class UnknownProductError(LookupError):
    """No product has this SKU; ``known`` lists the SKUs that exist."""

    def __init__(self, sku: str, known: tuple[str, ...]) -> None:
        super().__init__(f"No product with SKU {sku!r}. Known SKUs: {', '.join(known)}.")
        self.sku = sku
        self.known = known


class InsufficientStockError(Exception):
    """The stock does not cover the requested quantity; nothing was reserved."""

    def __init__(self, product: Product, requested: int) -> None:
        super().__init__(
            f"Only {product.stock} unit(s) of {product.sku} ({product.name}) in stock; "
            f"cannot reserve {requested}. Nothing was reserved."
        )
        self.product = product
        self.requested = requested


class UnknownTodoError(LookupError):
    """No to-do has this id."""

    def __init__(self, todo_id: int) -> None:
        super().__init__(f"No to-do with id {todo_id}. Use todo_list to see the ids.")
        self.todo_id = todo_id


@dataclass(frozen=True, slots=True)
class Product:
    """A product and its current stock."""

    sku: str
    name: str
    stock: int


@dataclass(frozen=True, slots=True)
class Reservation:
    """A completed reservation and the stock left right after it."""

    id: int
    sku: str
    name: str
    quantity: int
    stock_left: int


@dataclass(frozen=True, slots=True)
class Todo:
    """One entry of the persistent to-do list."""

    id: int
    title: str
    done: bool


@dataclass(frozen=True, slots=True)
class Customer:
    """A customer's contact card."""

    id: str
    name: str
    company: str
    email: str
    phone: str


class Store:
    """The business data in ``path``, created and seeded on first use.

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
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"Cannot create the data folder {folder} ({exc.strerror or exc}); "
                "choose a writable folder with --data-dir or SUPPORT_BOT_DATA_DIR.",
                folder / DB_FILENAME,
            ) from None
        return cls(folder / DB_FILENAME)

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
                if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                    for statement in _SCHEMA:
                        conn.execute(statement)
                    conn.executemany(
                        "INSERT OR IGNORE INTO products (sku, name, stock) VALUES (?, ?, ?)",
                        SEED_PRODUCTS,
                    )
                    conn.executemany(
                        "INSERT OR IGNORE INTO customers (id, name, company, email, phone) "
                        "VALUES (?, ?, ?, ?, ?)",
                        SEED_CUSTOMERS,
                    )
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
