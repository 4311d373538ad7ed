r"""PostgresChatMemoryRepository: conversations shared by app instances on several machines.

psycopg 3 (the ``postgres`` extra) is imported when a repository is built,
never by ``import springtail``. Every change runs in one transaction that
first takes a transaction-level advisory lock on the conversation, so
concurrent writers (threads, processes, machines) are serialized per
conversation, including a conversation's very first write, which has no
rows a ``SELECT ... FOR UPDATE`` could lock.

The table is part of the interface:

```sql
CREATE TABLE springtail_chat_memory (
    conversation_id TEXT NOT NULL,
    seq             BIGINT NOT NULL,      -- order within the conversation
    role            TEXT NOT NULL,        -- system | user | assistant | tool
    message         TEXT NOT NULL,        -- JSON, as in the SQLite table
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, seq)
)
```

The layout's version is recorded in ``springtail_schema`` (see
``springtail.memory._schema``); an older layout is upgraded in place when the
repository opens, and one written by a newer springtail is refused.

``message`` is ``TEXT`` rather than ``jsonb`` because ``jsonb`` cannot hold
``\u0000`` and reorders keys; cast it (``message::jsonb``) to query it.

The queries are shared with SQLite (``springtail.memory._sql``); this
module holds what PostgreSQL does its own way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from springtail.memory._base import ChatMemoryError
from springtail.memory._dsn import describe_dsn, first_line, scrub_dsn
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

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresChatMemoryRepository"]

_SCHEMA = (
    create_table(seq="BIGINT", created_at="TIMESTAMPTZ NOT NULL DEFAULT now()"),
    create_paused_table(created_at="TIMESTAMPTZ NOT NULL DEFAULT now()"),
)
_VERSION_TABLE = create_schema_table(applied_at="TIMESTAMPTZ NOT NULL DEFAULT now()")
_TABLES = (
    f"SELECT to_regclass('{SCHEMA_TABLE}') IS NOT NULL, "
    f"to_regclass('{TABLE}') IS NOT NULL OR to_regclass('{PAUSED_TABLE}') IS NOT NULL"
)
_LOCK = f"SELECT pg_advisory_xact_lock(hashtext('{TABLE}'), hashtext(%s))"


class PostgresChatMemoryRepository(SqlChatMemoryRepository["psycopg.Connection[Any]"]):
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

    def __init__(self, dsn: str, *, connect_timeout: float = 10.0) -> None:
        try:
            import psycopg  # noqa: F401  (fail early, with the fix, when the extra is missing)
        except ImportError as exc:
            raise ImportError(
                "PostgresChatMemoryRepository needs psycopg 3: pip install 'springtail[postgres]'"
            ) from exc
        self._dsn = dsn
        self._where = describe_dsn(dsn)
        super().__init__(_PostgresDialect(dsn, self._where, connect_timeout))

    def __repr__(self) -> str:
        return f"PostgresChatMemoryRepository({self._where!r})"


class _PostgresDialect:
    """PostgreSQL's part: a transaction-level advisory lock per conversation, ``%s``.

    The advisory lock serializes writers of one conversation (threads,
    processes, machines), including its very first write, which has no rows
    a ``SELECT ... FOR UPDATE`` could lock.
    """

    connect_action = "connect"
    created_at = "COALESCE(?::timestamptz, now())"

    def __init__(self, dsn: str, where: str, connect_timeout: float) -> None:
        self.dsn = dsn
        self.where = where
        self.label = f"PostgreSQL chat memory {where}"
        self.connect_timeout = connect_timeout

    def sql(self, text: str) -> str:
        return text.replace("%", "%%").replace("?", "%s")

    def connect(self) -> psycopg.Connection[Any]:
        import psycopg

        conn = psycopg.connect(
            self.dsn, autocommit=True, connect_timeout=max(1, round(self.connect_timeout))
        )
        try:
            with conn.transaction():
                conn.execute(_LOCK, ("",))  # one schema creator at a time
                self._migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _migrate(self, conn: psycopg.Connection[Any]) -> None:
        """Bring the tables to ``SCHEMA_VERSION``, recorded in ``springtail_schema``.

        Runs in ``connect``'s transaction, under the schema lock: the other
        processes wait, then find the version recorded. A database without
        the version table was either never used or written by a springtail
        that recorded none (version 1: its tables are kept, with their rows).
        A newer database is refused untouched.
        """
        found = self._version(conn)
        refuse_newer(found, self.label)
        if found == SCHEMA_VERSION:
            for statement in _SCHEMA:  # a table dropped by hand is created again
                conn.execute(statement)
            return
        for statement in upgrade_statements(found, _SCHEMA, _VERSION_TABLE):
            conn.execute(statement)
        conn.execute(self.sql(record_version(self.created_at)), (SCHEMA_VERSION, None))

    def _version(self, conn: psycopg.Connection[Any]) -> int:
        row = conn.execute(_TABLES).fetchone()
        assert row is not None
        has_version_table, has_tables = row
        recorded = None
        if has_version_table:
            found = conn.execute(f"SELECT max(version) FROM {SCHEMA_TABLE}").fetchone()
            recorded = found[0] if found is not None else None
        return found_version(recorded, has_tables=bool(has_tables))

    def usable(self, conn: psycopg.Connection[Any]) -> bool:
        return not conn.closed and not conn.broken

    def close(self, conn: psycopg.Connection[Any]) -> None:
        conn.close()

    @contextmanager
    def transaction(self, conn: psycopg.Connection[Any], key: str) -> Iterator[None]:
        with conn.transaction():
            conn.execute(_LOCK, (key,))
            yield

    def execute(self, conn: psycopg.Connection[Any], sql: str, params: Sequence[Any]) -> list[Row]:
        cursor = conn.execute(sql, params)
        return cursor.fetchall() if cursor.description is not None else []

    def execute_many(
        self, conn: psycopg.Connection[Any], sql: str, rows: Sequence[Sequence[Any]]
    ) -> None:
        with conn.cursor() as cursor:
            cursor.executemany(sql, rows)

    def now(self) -> None:
        return None

    @contextmanager
    def errors(self, action: str) -> Iterator[None]:
        """Turn driver errors into ones that name the server and the fix."""
        import psycopg

        try:
            yield
        except psycopg.OperationalError as exc:
            raise ChatMemoryError(
                f"Could not {action} in PostgreSQL chat memory {self.where}: "
                f"{self._scrubbed(exc)}. Check that the server is running and reachable and that "
                "the connection string (host, port, user, password, database) is right; "
                "nothing stored was changed."
            ) from exc
        except psycopg.Error as exc:
            raise ChatMemoryError(
                f"Could not {action} in PostgreSQL chat memory {self.where}: "
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
        return scrub_dsn(first_line(exc), self.dsn)
