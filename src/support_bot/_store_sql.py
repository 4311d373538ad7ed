"""One SQL path for support-bot's stores, over a small dialect per database.

``SqlStore`` holds every query and row mapping the SQLite ``Store`` and
the ``PostgresStore`` share, so both answer alike by construction. A
``StoreDialect`` says only what differs: how a session gets its
connection and transaction (one short-lived SQLite connection, or a pooled
PostgreSQL one) and how driver errors become ``StoreError``, the
placeholder, how a row is locked for a read-then-write, the SQL for "now",
the column that orders rows by insertion, and how a reservation takes its
stock (SQLite: a guarded insert whose trigger takes it; PostgreSQL: the
locked row is updated).

Adding a query: write a method here once with ``?`` placeholders, run it
with ``SqlStore._rows`` / ``SqlStore._row`` inside
``SqlStore._session``; it then works on both databases.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, TypeVar

from support_bot._seed import SEED_CUSTOMERS, SEED_PRODUCTS
from support_bot._store_base import (
    Customer,
    InsufficientStockError,
    Product,
    Reservation,
    ServedConversation,
    Todo,
    UnknownProductError,
    UnknownTodoError,
    normalize_customer_id,
    normalize_sku,
)

__all__ = ["CUSTOMERS_TABLE", "PRODUCTS_TABLE", "SqlStore", "StoreDialect", "served_conversations"]

Conn = TypeVar("Conn")
Row = tuple[Any, ...]

PRODUCTS_TABLE = """CREATE TABLE IF NOT EXISTS products (
        sku   TEXT PRIMARY KEY,
        name  TEXT NOT NULL,
        stock INTEGER NOT NULL CHECK (stock >= 0)
    )"""
CUSTOMERS_TABLE = """CREATE TABLE IF NOT EXISTS customers (
        id      TEXT PRIMARY KEY,
        name    TEXT NOT NULL,
        company TEXT NOT NULL,
        email   TEXT NOT NULL,
        phone   TEXT NOT NULL
    )"""


def served_conversations(*, extra_columns: Sequence[str] = ()) -> tuple[str, str]:
    """The ``served_conversations`` table, with ``extra_columns`` last, and its owner index."""
    columns = [
        "id         TEXT PRIMARY KEY",
        "owner      TEXT NOT NULL",
        "title      TEXT NOT NULL DEFAULT ''",
        "turns      INTEGER NOT NULL DEFAULT 0",
        "created_at TEXT NOT NULL",
        *extra_columns,
    ]
    body = ",\n        ".join(columns)
    return (
        f"CREATE TABLE IF NOT EXISTS served_conversations (\n        {body}\n    )",
        "CREATE INDEX IF NOT EXISTS served_conversations_owner ON served_conversations (owner)",
    )


_PRODUCT = "SELECT sku, name, stock FROM products WHERE sku = ?"
_CONVERSATION = "SELECT id, owner, title, turns, created_at FROM served_conversations"


class StoreDialect(Protocol[Conn]):
    """What one database does its own way; every query is in ``SqlStore``."""

    for_update: str
    """Appended to a ``SELECT`` whose rows the session then changes (``""`` where the
    session's transaction already holds the write lock)."""

    now: str
    """SQL for the current time as the ``created_at`` columns hold it."""

    insertion_order: str
    """The column that orders ``served_conversations`` rows by insertion."""

    def sql(self, text: str) -> str:
        """``text`` with its ``?`` placeholders written the way the driver wants them."""
        ...

    def session(self, *, lock: bool) -> AbstractContextManager[Conn]:
        """A connection inside one transaction; driver errors leave as ``StoreError``.

        ``lock``: the session reads what it then changes, so it must hold the
        write lock from its start (SQLite's ``BEGIN IMMEDIATE``).
        """
        ...

    def execute(self, conn: Conn, sql: str, params: Sequence[Any]) -> list[Row]:
        """Run one statement (already in the driver's style); its rows, or ``[]``."""
        ...

    def execute_many(self, conn: Conn, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        ...

    def take_stock(self, conn: Conn, sku: str, quantity: int) -> int:
        """Record a reservation of ``quantity`` of the locked product ``sku``; its id."""
        ...


class SqlStore(Generic[Conn]):
    """The business data in an SQL database; subclasses give their dialect and schema."""

    def __init__(self, dialect: StoreDialect[Conn]) -> None:
        self._dialect = dialect

    # -- what a query method is made of ------------------------------------------

    def _session(self, *, lock: bool = False) -> AbstractContextManager[Conn]:
        return self._dialect.session(lock=lock)

    def _rows(self, conn: Conn, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run ``sql`` (with ``?`` placeholders); its rows, or ``[]``."""
        return self._dialect.execute(conn, self._dialect.sql(sql), params)

    def _row(self, conn: Conn, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """Run ``sql``; its first row, or ``None``."""
        rows = self._rows(conn, sql, params)
        return rows[0] if rows else None

    def _create(self, conn: Conn, schema: Sequence[str], *, seed: bool) -> None:
        """Create what ``schema`` lacks (every statement is ``IF NOT EXISTS``); seed if asked."""
        for statement in schema:
            self._rows(conn, statement)
        if seed:
            dialect = self._dialect
            dialect.execute_many(
                conn,
                dialect.sql(
                    "INSERT INTO products (sku, name, stock) VALUES (?, ?, ?) "
                    "ON CONFLICT (sku) DO NOTHING"
                ),
                SEED_PRODUCTS,
            )
            dialect.execute_many(
                conn,
                dialect.sql(
                    "INSERT INTO customers (id, name, company, email, phone) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING"
                ),
                SEED_CUSTOMERS,
            )

    def _skus(self, conn: Conn) -> tuple[str, ...]:
        return tuple(str(r[0]) for r in self._rows(conn, "SELECT sku FROM products ORDER BY sku"))

    # -- products ----------------------------------------------------------------

    def products(self) -> list[Product]:
        """Every product, by SKU."""
        with self._session() as conn:
            rows = self._rows(conn, "SELECT sku, name, stock FROM products ORDER BY sku")
        return [Product(*row) for row in rows]

    def product(self, sku: str) -> Product:
        """The product with this SKU (normalized), or ``UnknownProductError``."""
        key = normalize_sku(sku)
        with self._session() as conn:
            row = self._row(conn, _PRODUCT, (key,))
            if row is None:
                raise UnknownProductError(key, self._skus(conn))
        return Product(*row)

    def reserve(self, sku: str, quantity: int) -> Reservation:
        """Take ``quantity`` units of ``sku`` from stock, all or nothing.

        The product is read under the write lock (SQLite's ``BEGIN
        IMMEDIATE``, PostgreSQL's ``FOR UPDATE``), so a concurrent
        reservation in any process waits for this one to commit and then sees
        the stock it left: the last unit is never sold twice.

        Raises:
            ValueError: ``quantity`` is not positive.
            UnknownProductError: no such SKU.
            InsufficientStockError: the stock is short; nothing was taken.
        """
        if quantity <= 0:
            raise ValueError(f"The quantity must be at least 1 (got {quantity}).")
        key = normalize_sku(sku)
        with self._session(lock=True) as conn:
            row = self._row(conn, _PRODUCT + self._dialect.for_update, (key,))
            if row is None:
                raise UnknownProductError(key, self._skus(conn))
            product = Product(*row)
            if product.stock < quantity:
                raise InsufficientStockError(product, quantity)
            reservation_id = self._dialect.take_stock(conn, key, quantity)
        return Reservation(
            reservation_id, product.sku, product.name, quantity, product.stock - quantity
        )

    def reservations(self) -> list[tuple[int, str, int]]:
        """``(id, sku, quantity)`` of every reservation, oldest first."""
        with self._session() as conn:
            rows = self._rows(conn, "SELECT id, sku, quantity FROM reservations ORDER BY id")
        return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    # -- to-dos ------------------------------------------------------------------

    def add_todo(self, title: str) -> Todo:
        """Append a to-do; ``title`` must not be blank."""
        text = " ".join(title.split())
        if not text:
            raise ValueError("The to-do title is empty; give a short description of the task.")
        with self._session() as conn:
            row = self._row(
                conn,
                f"INSERT INTO todos (title, created_at) VALUES (?, {self._dialect.now}) "
                "RETURNING id",
                (text,),
            )
        assert row is not None
        return Todo(int(row[0]), text, False)

    def todos(self) -> list[Todo]:
        """Every to-do, oldest first."""
        with self._session() as conn:
            rows = self._rows(conn, "SELECT id, title, done FROM todos ORDER BY id")
        return [Todo(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    def complete_todo(self, todo_id: int) -> tuple[Todo, bool]:
        """Mark a to-do done; returns it and whether it was open before."""
        with self._session(lock=True) as conn:
            row = self._row(
                conn,
                "SELECT id, title, done FROM todos WHERE id = ?" + self._dialect.for_update,
                (todo_id,),
            )
            if row is None:
                raise UnknownTodoError(todo_id)
            if not row[2]:
                self._rows(conn, "UPDATE todos SET done = TRUE WHERE id = ?", (todo_id,))
        return Todo(int(row[0]), str(row[1]), True), not bool(row[2])

    # -- customers -----------------------------------------------------------------

    def customer(self, customer_id: str) -> Customer | None:
        """The customer with this id (normalized), or ``None``."""
        key = normalize_customer_id(customer_id)
        with self._session() as conn:
            row = self._row(
                conn, "SELECT id, name, company, email, phone FROM customers WHERE id = ?", (key,)
            )
        return Customer(*row) if row else None

    def customer_ids(self) -> list[str]:
        """Every customer id, sorted."""
        with self._session() as conn:
            return [str(r[0]) for r in self._rows(conn, "SELECT id FROM customers ORDER BY id")]

    # -- web conversations (support-bot serve) ----------------------------------------

    def add_conversation(self, conversation_id: str, owner: str, title: str) -> ServedConversation:
        """Record a new web conversation owned by ``owner``."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._session() as conn:
            self._rows(
                conn,
                "INSERT INTO served_conversations (id, owner, title, turns, created_at) "
                "VALUES (?, ?, ?, 0, ?)",
                (conversation_id, owner, title, now),
            )
        return ServedConversation(conversation_id, owner, title, 0, now)

    def conversation(self, conversation_id: str) -> ServedConversation | None:
        """The web conversation with this id, or ``None``."""
        with self._session() as conn:
            row = self._row(conn, f"{_CONVERSATION} WHERE id = ?", (conversation_id,))
        return ServedConversation(*row) if row else None

    def conversations(self, owner: str) -> list[ServedConversation]:
        """The web conversations of ``owner``, newest first."""
        order = self._dialect.insertion_order
        with self._session() as conn:
            rows = self._rows(
                conn,
                f"{_CONVERSATION} WHERE owner = ? ORDER BY created_at DESC, {order} DESC",
                (owner,),
            )
        return [ServedConversation(*row) for row in rows]

    def count_turn(self, conversation_id: str, title: str) -> None:
        """One more finished turn; the first one also names the conversation."""
        with self._session() as conn:
            self._rows(
                conn,
                "UPDATE served_conversations SET turns = turns + 1, "
                "title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?",
                (title, conversation_id),
            )
