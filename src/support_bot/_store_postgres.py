"""The support bot's business data in PostgreSQL, shared by several ``serve`` processes.

``support-bot serve --database postgresql://…`` keeps products, reservations,
to-dos, customers, the web conversations and (through springtail's
``PostgresChatMemoryRepository``) the chat memory in one PostgreSQL database,
so any number of processes on any number of machines serve the same shop.
PostgreSQL does the coordinating: a reservation locks its product row
(``SELECT … FOR UPDATE``) before it checks and takes the stock, so two
processes can never sell the same last unit; the schema is created and seeded
once under an advisory lock, whichever process starts first.

psycopg 3 (the ``postgres`` extra) is imported when a store is built. Every
driver failure leaves as a :class:`StoreError` naming the server (never the
password) and what to do.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from springtail import ChatMemoryRepository, PostgresChatMemoryRepository
from springtail.memory import describe_dsn
from support_bot._seed import SEED_CUSTOMERS, SEED_PRODUCTS
from support_bot._store_base import (
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

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresStore", "is_postgres_url"]

POOL_SIZE: Final = 8
"""Connections one process keeps; tools run on worker threads, each op borrows one briefly."""

_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS products (
        sku   TEXT PRIMARY KEY,
        name  TEXT NOT NULL,
        stock INTEGER NOT NULL CHECK (stock >= 0)
    )""",
    """CREATE TABLE IF NOT EXISTS reservations (
        id         BIGSERIAL PRIMARY KEY,
        sku        TEXT NOT NULL REFERENCES products (sku),
        quantity   INTEGER NOT NULL CHECK (quantity > 0),
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE IF NOT EXISTS todos (
        id         BIGSERIAL PRIMARY KEY,
        title      TEXT NOT NULL,
        done       BOOLEAN NOT NULL DEFAULT FALSE,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
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
        created_at TEXT NOT NULL,
        seq        BIGSERIAL
    )""",
    "CREATE INDEX IF NOT EXISTS served_conversations_owner ON served_conversations (owner)",
)
_SCHEMA_LOCK: Final = "SELECT pg_advisory_xact_lock(hashtext('support_bot_schema'))"
_CONVERSATION_COLUMNS: Final = "id, owner, title, turns, created_at"


def is_postgres_url(url: str) -> bool:
    """Whether ``--database`` names a PostgreSQL server rather than a SQLite file."""
    return url.strip().lower().startswith(("postgresql://", "postgres://"))


class PostgresStore:
    """The business data in the PostgreSQL database at ``dsn``, created and seeded on first use.

    Args:
        dsn: A libpq URI or connection string, e.g. ``postgresql://shop@db/support``.
        connect_timeout: Seconds to wait for the server.
        pool_size: Connections kept open by this process.

    Raises:
        StoreError: the server cannot be reached or refuses the login.
        ImportError: psycopg is not installed (``pip install 'springtail[postgres]'``).
    """

    def __init__(
        self, dsn: str, *, connect_timeout: float = 10.0, pool_size: int = POOL_SIZE
    ) -> None:
        try:
            import psycopg  # noqa: F401  (fail early, with the fix)
        except ImportError as exc:
            raise ImportError(
                "A PostgreSQL --database needs psycopg 3: pip install 'springtail[postgres]'"
            ) from exc
        self._dsn = dsn
        self._where = describe_dsn(dsn)
        self.path = Path(self._where)
        self._connect_timeout = connect_timeout
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(pool_size)
        self._memory: PostgresChatMemoryRepository | None = None
        self._memory_lock = threading.Lock()
        self._migrate()

    @property
    def location(self) -> str:
        """The server and database, without the password."""
        return f"postgresql://{self._where}"

    def chat_memory_repository(self) -> ChatMemoryRepository:
        """Springtail's PostgreSQL chat memory in this database (one per store)."""
        with self._memory_lock:
            if self._memory is None:
                self._memory = PostgresChatMemoryRepository(
                    self._dsn, connect_timeout=self._connect_timeout
                )
            return self._memory

    def close(self) -> None:
        """Close the pooled connections and the chat memory's."""
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                break
        if self._memory is not None:
            self._memory.close()

    # -- connections -------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection inside one transaction; driver errors become StoreError."""
        import psycopg

        with self._slots:
            conn: psycopg.Connection[Any] | None = None
            try:
                try:
                    conn = self._idle.get_nowait()
                except queue.Empty:
                    conn = psycopg.connect(
                        self._dsn, connect_timeout=max(1, round(self._connect_timeout))
                    )
                if conn.closed or conn.broken:
                    conn = psycopg.connect(
                        self._dsn, connect_timeout=max(1, round(self._connect_timeout))
                    )
                with conn.transaction():
                    yield conn
            except psycopg.OperationalError as exc:
                if conn is not None:
                    conn.close()
                    conn = None
                raise StoreError(
                    f"The PostgreSQL database {self._where} cannot be used ({_first_line(exc)}); "
                    "check that the server is running and the --database URL (host, port, user, "
                    "password, database) is right. Nothing was changed.",
                    self.path,
                ) from None
            except psycopg.Error as exc:
                raise StoreError(
                    f"The PostgreSQL database {self._where} failed ({_first_line(exc)}); "
                    "the change was rolled back.",
                    self.path,
                ) from None
            finally:
                if conn is not None and not conn.closed:
                    self._idle.put(conn)

    def _migrate(self) -> None:
        with self._transaction() as conn:
            conn.execute(_SCHEMA_LOCK)  # one creator at a time; the others wait, then see it
            for statement in _SCHEMA:
                conn.execute(statement)
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO products (sku, name, stock) VALUES (%s, %s, %s) "
                    "ON CONFLICT (sku) DO NOTHING",
                    SEED_PRODUCTS,
                )
                cur.executemany(
                    "INSERT INTO customers (id, name, company, email, phone) "
                    "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                    SEED_CUSTOMERS,
                )

    # -- products ----------------------------------------------------------------

    def products(self) -> list[Product]:
        """Every product, by SKU."""
        with self._transaction() as conn:
            rows = conn.execute("SELECT sku, name, stock FROM products ORDER BY sku").fetchall()
        return [Product(*row) for row in rows]

    def product(self, sku: str) -> Product:
        """The product with this SKU (normalized), or :class:`UnknownProductError`."""
        key = normalize_sku(sku)
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT sku, name, stock FROM products WHERE sku = %s", (key,)
            ).fetchone()
            if row is None:
                raise UnknownProductError(key, _skus(conn))
        return Product(*row)

    def reserve(self, sku: str, quantity: int) -> Reservation:
        """Take ``quantity`` units of ``sku`` from stock, all or nothing.

        The product row is locked (``FOR UPDATE``) before the stock is read,
        so a concurrent reservation in any process waits for this one to
        commit and then sees the stock it left.

        Raises:
            ValueError: ``quantity`` is not positive.
            UnknownProductError: no such SKU.
            InsufficientStockError: the stock is short; nothing was taken.
        """
        if quantity <= 0:
            raise ValueError(f"The quantity must be at least 1 (got {quantity}).")
        key = normalize_sku(sku)
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT sku, name, stock FROM products WHERE sku = %s FOR UPDATE", (key,)
            ).fetchone()
            if row is None:
                raise UnknownProductError(key, _skus(conn))
            product = Product(*row)
            if product.stock < quantity:
                raise InsufficientStockError(product, quantity)
            conn.execute("UPDATE products SET stock = stock - %s WHERE sku = %s", (quantity, key))
            inserted = conn.execute(
                "INSERT INTO reservations (sku, quantity) VALUES (%s, %s) RETURNING id",
                (key, quantity),
            ).fetchone()
        assert inserted is not None
        return Reservation(
            int(inserted[0]), product.sku, product.name, quantity, product.stock - quantity
        )

    def reservations(self) -> list[tuple[int, str, int]]:
        """``(id, sku, quantity)`` of every reservation, oldest first."""
        with self._transaction() as conn:
            rows = conn.execute("SELECT id, sku, quantity FROM reservations ORDER BY id").fetchall()
        return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]

    # -- to-dos --------------------------------------------------------------------

    def add_todo(self, title: str) -> Todo:
        """Append a to-do; ``title`` must not be blank."""
        text = " ".join(title.split())
        if not text:
            raise ValueError("The to-do title is empty; give a short description of the task.")
        with self._transaction() as conn:
            row = conn.execute(
                "INSERT INTO todos (title) VALUES (%s) RETURNING id", (text,)
            ).fetchone()
        assert row is not None
        return Todo(int(row[0]), text, False)

    def todos(self) -> list[Todo]:
        """Every to-do, oldest first."""
        with self._transaction() as conn:
            rows = conn.execute("SELECT id, title, done FROM todos ORDER BY id").fetchall()
        return [Todo(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    def complete_todo(self, todo_id: int) -> tuple[Todo, bool]:
        """Mark a to-do done; returns it and whether it was open before."""
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT id, title, done FROM todos WHERE id = %s FOR UPDATE", (todo_id,)
            ).fetchone()
            if row is None:
                raise UnknownTodoError(todo_id)
            if not row[2]:
                conn.execute("UPDATE todos SET done = TRUE WHERE id = %s", (todo_id,))
        return Todo(int(row[0]), str(row[1]), True), not bool(row[2])

    # -- customers -------------------------------------------------------------------

    def customer(self, customer_id: str) -> Customer | None:
        """The customer with this id (normalized), or ``None``."""
        key = normalize_customer_id(customer_id)
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT id, name, company, email, phone FROM customers WHERE id = %s", (key,)
            ).fetchone()
        return Customer(*row) if row else None

    def customer_ids(self) -> list[str]:
        """Every customer id, sorted."""
        with self._transaction() as conn:
            return [str(r[0]) for r in conn.execute("SELECT id FROM customers ORDER BY id")]

    # -- web conversations -------------------------------------------------------------

    def add_conversation(self, conversation_id: str, owner: str, title: str) -> ServedConversation:
        """Record a new web conversation owned by ``owner``."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO served_conversations (id, owner, title, turns, created_at) "
                "VALUES (%s, %s, %s, 0, %s)",
                (conversation_id, owner, title, now),
            )
        return ServedConversation(conversation_id, owner, title, 0, now)

    def conversation(self, conversation_id: str) -> ServedConversation | None:
        """The web conversation with this id, or ``None``."""
        with self._transaction() as conn:
            row = conn.execute(
                f"SELECT {_CONVERSATION_COLUMNS} FROM served_conversations WHERE id = %s",
                (conversation_id,),
            ).fetchone()
        return ServedConversation(*row) if row else None

    def conversations(self, owner: str) -> list[ServedConversation]:
        """The web conversations of ``owner``, newest first."""
        with self._transaction() as conn:
            rows = conn.execute(
                f"SELECT {_CONVERSATION_COLUMNS} FROM served_conversations WHERE owner = %s "
                "ORDER BY created_at DESC, seq DESC",
                (owner,),
            ).fetchall()
        return [ServedConversation(*row) for row in rows]

    def count_turn(self, conversation_id: str, title: str) -> None:
        """One more finished turn; the first one also names the conversation."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE served_conversations SET turns = turns + 1, "
                "title = CASE WHEN title = '' THEN %s ELSE title END WHERE id = %s",
                (title, conversation_id),
            )


def _skus(conn: psycopg.Connection[Any]) -> tuple[str, ...]:
    return tuple(str(r[0]) for r in conn.execute("SELECT sku FROM products ORDER BY sku"))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
