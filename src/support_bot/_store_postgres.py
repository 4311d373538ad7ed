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
driver failure leaves as a ``StoreError`` naming the server (never the
password) and what to do.

The queries are shared with SQLite (``support_bot._store_sql``); this module
holds what PostgreSQL does its own way.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from springtail import ChatMemoryRepository, PostgresChatMemoryRepository
from springtail.memory import describe_dsn, scrub_dsn
from support_bot._store_base import StoreError
from support_bot._store_sql import (
    CUSTOMERS_TABLE,
    PRODUCTS_TABLE,
    Row,
    SqlStore,
    served_conversations,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "PostgresStore", "is_postgres_url"]

POOL_SIZE: Final = 8
"""Connections one process keeps; tools run on worker threads, each op borrows one briefly."""

_SCHEMA: Final = (
    PRODUCTS_TABLE,
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
    CUSTOMERS_TABLE,
    *served_conversations(extra_columns=["seq        BIGSERIAL"]),
)
_SCHEMA_LOCK: Final = "SELECT pg_advisory_xact_lock(hashtext('support_bot_schema'))"

SCHEMA_VERSION: Final = 2
"""1: the tables of support-bot 0.1.0, which recorded no version; 2: the same tables, with
``support_bot_schema`` recording the version."""

_VERSION_TABLE: Final = """CREATE TABLE IF NOT EXISTS support_bot_schema (
        version    INTEGER PRIMARY KEY,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )"""

MIGRATIONS: Final[tuple[tuple[int, tuple[str, ...]], ...]] = (
    (2, ()),  # the version table itself, created before any migration runs
)
"""Each schema version above 1 and the statements that bring the version below it there.

To change the tables: add the change here as the next version (never edit a
released one), and raise ``SCHEMA_VERSION``. ``_SCHEMA`` stays version 1's
layout, so a new database and an upgraded one run the same statements."""


def is_postgres_url(url: str) -> bool:
    """Whether ``--database`` names a PostgreSQL server rather than a SQLite file."""
    return url.strip().lower().startswith(("postgresql://", "postgres://"))


class PostgresStore(SqlStore["psycopg.Connection[Any]"]):
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
            import psycopg_pool  # noqa: F401
        except ImportError as exc:
            raise ImportError(
                "A PostgreSQL --database needs psycopg 3 and psycopg-pool: "
                "pip install 'springtail[postgres]'",
                name=exc.name,
            ) from exc
        self._dsn = dsn
        self._where = describe_dsn(dsn)
        self.path = Path(self._where)
        self._connect_timeout = connect_timeout
        self._pool = _PostgresDialect(dsn, self._where, connect_timeout, pool_size)
        self._memory: PostgresChatMemoryRepository | None = None
        self._memory_lock = threading.Lock()
        super().__init__(self._pool)
        self._migrate()
        self._pool.open_pool()

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
        self._pool.close()
        if self._memory is not None:
            self._memory.close()

    def _migrate(self) -> None:
        """Bring the tables to ``SCHEMA_VERSION``, recorded in ``support_bot_schema``.

        A database without that table was either never used (everything is
        created and seeded) or written by support-bot 0.1.0, whose tables are
        version 1 (kept as they are, with their rows). Then every migration
        above the recorded version runs, in order, in the same transaction.
        """
        with self._session() as conn:
            conn.execute(_SCHEMA_LOCK)  # one migrator at a time; the others wait, then see it
            found = self._schema_version(conn)
            if found > SCHEMA_VERSION:
                raise StoreError(
                    f"The PostgreSQL database {self._where} was written by a newer support-bot "
                    f"(schema {found}, this one knows {SCHEMA_VERSION}); upgrade support-bot or "
                    "use another --database. Nothing was changed.",
                    self.path,
                )
            if found == SCHEMA_VERSION:
                return
            if found == 0:
                self._create(conn, _SCHEMA, seed=True)
            for version, statements in MIGRATIONS:
                if found < version <= SCHEMA_VERSION:
                    for statement in statements:
                        conn.execute(statement)
            conn.execute("INSERT INTO support_bot_schema (version) VALUES (%s)", (SCHEMA_VERSION,))

    def _schema_version(self, conn: psycopg.Connection[Any]) -> int:
        """The recorded version; 1 for 0.1.0's unversioned tables; 0 for an empty database."""
        conn.execute(_VERSION_TABLE)
        row = conn.execute("SELECT max(version) FROM support_bot_schema").fetchone()
        if row is not None and row[0] is not None:
            return int(row[0])
        legacy = conn.execute("SELECT to_regclass('products') IS NOT NULL").fetchone()
        return 1 if legacy is not None and legacy[0] else 0


class _PostgresDialect:
    """PostgreSQL's part: psycopg's pool, ``FOR UPDATE`` row locks, ``%s``, the stock by UPDATE.

    The pool is ``psycopg_pool.ConnectionPool`` (the psycopg project's own):
    it hands each session a connection checked to be alive, replaces the
    broken ones and caps this process at ``pool_size``. It opens after the
    schema is in place; until then (``_migrate``) a session connects on its
    own, so a server that cannot be reached is named with libpq's reason at
    once rather than after the pool's wait.
    """

    for_update = " FOR UPDATE"
    now = "now()"
    insertion_order = "seq"

    def __init__(self, dsn: str, where: str, connect_timeout: float, pool_size: int) -> None:
        self.dsn = dsn
        self.where = where
        self.path = Path(where)
        self.connect_timeout = connect_timeout
        self._pool_size = pool_size
        self._pool: ConnectionPool[psycopg.Connection[Any]] | None = None

    def sql(self, text: str) -> str:
        return text.replace("%", "%%").replace("?", "%s")

    def open_pool(self) -> None:
        """Start pooling connections (after the schema is in place)."""
        from psycopg_pool import ConnectionPool

        self._pool = ConnectionPool(
            self.dsn,
            min_size=1,
            max_size=self._pool_size,
            kwargs={"connect_timeout": self._timeout_s()},
            timeout=self.connect_timeout,  # how long a session waits for a connection
            check=ConnectionPool.check_connection,
            name=f"support-bot {self.where}",
            open=False,
        )
        self._pool.open()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()

    @contextlib.contextmanager
    def session(self, *, lock: bool) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection inside one transaction; driver errors become StoreError.

        ``PoolTimeout`` (no connection within ``connect_timeout``) is an
        ``OperationalError``, so it reads like a server that cannot be reached.
        """
        import psycopg

        try:
            with self._connection() as conn, conn.transaction():
                yield conn
        except psycopg.OperationalError as exc:
            raise StoreError(
                f"The PostgreSQL database {self.where} cannot be used ({self._scrubbed(exc)}); "
                "check that the server is running and the --database URL (host, port, user, "
                "password, database) is right. Nothing was changed.",
                self.path,
            ) from None
        except psycopg.Error as exc:
            raise StoreError(
                f"The PostgreSQL database {self.where} failed ({self._scrubbed(exc)}); "
                "the change was rolled back.",
                self.path,
            ) from None

    def _connection(self) -> contextlib.AbstractContextManager[psycopg.Connection[Any]]:
        if self._pool is not None:
            return self._pool.connection()
        import psycopg

        return psycopg.connect(self.dsn, connect_timeout=self._timeout_s())

    def _timeout_s(self) -> int:
        return max(1, round(self.connect_timeout))

    def _scrubbed(self, exc: BaseException) -> str:
        """The driver's first line, without anything of the DSN's password.

        libpq quotes the part of a connection string it could not parse, so a
        malformed ``--database`` would otherwise put its password on screen.
        """
        text = str(exc).strip()
        return scrub_dsn(text.splitlines()[0] if text else type(exc).__name__, self.dsn)

    def execute(self, conn: psycopg.Connection[Any], sql: str, params: Sequence[Any]) -> list[Row]:
        cursor = conn.execute(sql, params)
        return cursor.fetchall() if cursor.description is not None else []

    def execute_many(
        self, conn: psycopg.Connection[Any], sql: str, rows: Sequence[Sequence[Any]]
    ) -> None:
        with conn.cursor() as cursor:
            cursor.executemany(sql, rows)

    def take_stock(self, conn: psycopg.Connection[Any], sku: str, quantity: int) -> int:
        conn.execute("UPDATE products SET stock = stock - %s WHERE sku = %s", (quantity, sku))
        row = conn.execute(
            "INSERT INTO reservations (sku, quantity) VALUES (%s, %s) RETURNING id",
            (sku, quantity),
        ).fetchone()
        assert row is not None
        return int(row[0])
