"""PostgresStore on a real throw-away PostgreSQL server: answers like SQLite, never oversells."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from postgres_server import PostgresServer
from support_bot._store_base import (
    BusinessStore,
    InsufficientStockError,
    StoreError,
    UnknownProductError,
    UnknownTodoError,
)

psycopg = pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")

from support_bot._store_postgres import PostgresStore, is_postgres_url  # noqa: E402

pytestmark = pytest.mark.postgres


@pytest.fixture
def store(postgres_database: str) -> Iterator[PostgresStore]:
    opened = PostgresStore(postgres_database)
    yield opened
    opened.close()


def test_it_is_a_business_store_seeded_once(postgres_database: str, store: PostgresStore) -> None:
    assert isinstance(store, BusinessStore)
    assert [p.sku for p in store.products()] == ["SKU-100", "SKU-200", "SKU-300"]
    store.reserve("SKU-100", 2)
    again = PostgresStore(postgres_database)  # a second process starting later must not re-seed
    try:
        assert again.product("sku100").stock == 10
        assert again.customer(" c-100 ") is not None
        assert "C-100" in again.customer_ids()
    finally:
        again.close()
    assert store.location.startswith("postgresql://postgres@127.0.0.1:")
    assert is_postgres_url(postgres_database)
    assert not is_postgres_url("/tmp/shop.db")


def test_reservations_are_all_or_nothing(store: PostgresStore) -> None:
    made = store.reserve("SKU-300", 3)
    assert (made.sku, made.quantity, made.stock_left) == ("SKU-300", 3, 1)
    with pytest.raises(InsufficientStockError, match="Only 1 unit"):
        store.reserve("SKU-300", 2)
    with pytest.raises(UnknownProductError, match="Known SKUs: SKU-100"):
        store.reserve("SKU-999", 1)
    with pytest.raises(ValueError, match="at least 1"):
        store.reserve("SKU-300", 0)
    assert store.product("SKU-300").stock == 1
    assert store.reservations() == [(made.id, "SKU-300", 3)]


def test_concurrent_reservations_never_oversell(postgres_database: str) -> None:
    stores = [PostgresStore(postgres_database) for _ in range(2)]  # two "processes"' pools
    outcomes: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(12)

    def reserve(index: int) -> None:
        barrier.wait()
        try:
            stores[index % 2].reserve("SKU-300", 1)
            result = "ok"
        except InsufficientStockError:
            result = "short"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=reserve, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert sorted(outcomes) == ["ok"] * 4 + ["short"] * 8
        assert stores[0].product("SKU-300").stock == 0
        assert len(stores[1].reservations()) == 4
    finally:
        for opened in stores:
            opened.close()


def test_todos_and_web_conversations(store: PostgresStore) -> None:
    first = store.add_todo("  call   Minji ")
    assert first.title == "call Minji"
    todo, was_open = store.complete_todo(first.id)
    assert (todo.done, was_open) == (True, True)
    assert store.complete_todo(first.id)[1] is False
    with pytest.raises(UnknownTodoError):
        store.complete_todo(999)
    with pytest.raises(ValueError, match="empty"):
        store.add_todo("   ")
    store.add_conversation("c-one", "owner-a", "")
    store.add_conversation("c-two", "owner-a", "")
    store.add_conversation("c-three", "owner-b", "")
    store.count_turn("c-one", "first title")
    store.count_turn("c-one", "not this one")
    found = store.conversation("c-one")
    assert found is not None
    assert (found.title, found.turns, found.owner) == ("first title", 2, "owner-a")
    assert [c.id for c in store.conversations("owner-a")] == ["c-two", "c-one"]
    assert store.conversation("c-none") is None


def test_chat_memory_lives_in_the_same_database(
    postgres_database: str, store: PostgresStore
) -> None:
    from springtail import UserMessage

    store.chat_memory_repository().save_all("c-x", [UserMessage("hello")])
    with psycopg.connect(postgres_database) as conn:
        count = conn.execute("SELECT count(*) FROM springtail_chat_memory").fetchone()
    assert count == (1,)


def test_an_unreachable_server_is_one_sentence(postgres_server: PostgresServer) -> None:
    with pytest.raises(StoreError) as caught:
        PostgresStore("postgresql://postgres@127.0.0.1:1/nothing", connect_timeout=2)
    message = str(caught.value)
    assert "check that the server is running" in message
    assert "Nothing was changed" in message


@pytest.mark.parametrize(
    "dsn",
    ["postgres://app:s3cret@[::1/support", "host=127.0.0.1 user=app s3cret"],
)
def test_a_malformed_url_is_one_sentence_without_the_password(dsn: str) -> None:
    with pytest.raises(StoreError) as caught:
        PostgresStore(dsn)
    message = str(caught.value)
    assert "s3cret" not in message
    assert message.startswith("The PostgreSQL database (unparsable connection string)")
    assert "\n" not in message


# The tables as support-bot 0.1.0 created them, written out by hand: that
# release recorded no schema version.
RELEASE_0_1_0_TABLES = (
    """CREATE TABLE products (
        sku TEXT PRIMARY KEY, name TEXT NOT NULL, stock INTEGER NOT NULL CHECK (stock >= 0))""",
    """CREATE TABLE reservations (
        id BIGSERIAL PRIMARY KEY, sku TEXT NOT NULL REFERENCES products (sku),
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        created_at TIMESTAMPTZ NOT NULL DEFAULT now())""",
    """CREATE TABLE todos (
        id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT FALSE,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now())""",
    """CREATE TABLE customers (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, company TEXT NOT NULL, email TEXT NOT NULL,
        phone TEXT NOT NULL)""",
    """CREATE TABLE served_conversations (
        id TEXT PRIMARY KEY, owner TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
        turns INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, seq BIGSERIAL)""",
    "CREATE INDEX served_conversations_owner ON served_conversations (owner)",
)


def test_a_database_of_the_previous_release_is_migrated_in_place(postgres_database: str) -> None:
    from support_bot._store_postgres import SCHEMA_VERSION

    with psycopg.connect(postgres_database) as conn:
        for statement in RELEASE_0_1_0_TABLES:
            conn.execute(statement)
        conn.execute("INSERT INTO products VALUES ('SKU-100', 'Kept workbook', 3)")
        conn.execute("INSERT INTO reservations (sku, quantity) VALUES ('SKU-100', 1)")
        conn.execute("INSERT INTO todos (title) VALUES ('written by 0.1.0')")
    store = PostgresStore(postgres_database)
    try:
        assert store.product("SKU-100").stock == 3  # the data stays; nothing is re-seeded over it
        assert store.product("SKU-100").name == "Kept workbook"
        assert store.reservations() == [(1, "SKU-100", 1)]
        assert [t.title for t in store.todos()] == ["written by 0.1.0"]
        assert store.reserve("SKU-100", 2).stock_left == 1
    finally:
        store.close()
    with psycopg.connect(postgres_database) as conn:
        versions = conn.execute("SELECT version FROM support_bot_schema").fetchall()
    assert versions == [(SCHEMA_VERSION,)]
    PostgresStore(postgres_database).close()  # opening again migrates nothing
    with psycopg.connect(postgres_database) as conn:
        assert conn.execute("SELECT count(*) FROM support_bot_schema").fetchone() == (1,)


def test_a_new_database_records_the_current_version(store: PostgresStore) -> None:
    from support_bot._store_postgres import SCHEMA_VERSION

    with psycopg.connect(store.location) as conn:
        row = conn.execute("SELECT max(version) FROM support_bot_schema").fetchone()
    assert row == (SCHEMA_VERSION,)


def test_a_database_of_a_newer_release_is_refused_untouched(postgres_database: str) -> None:
    from support_bot._store_postgres import SCHEMA_VERSION

    PostgresStore(postgres_database).close()
    with psycopg.connect(postgres_database) as conn:
        conn.execute("INSERT INTO support_bot_schema (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="written by a newer support-bot"):
        PostgresStore(postgres_database)


def test_sessions_share_the_pools_connections(postgres_database: str) -> None:
    store = PostgresStore(postgres_database, pool_size=2)
    try:
        errors: list[BaseException] = []

        def reserve() -> None:
            try:
                store.reserve("SKU-100", 1)
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=reserve) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert len(store.reservations()) == 6
        with psycopg.connect(postgres_database) as conn:
            opened = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            ).fetchone()
        assert opened is not None
        assert opened[0] <= 3  # the pool's two, and this one
    finally:
        store.close()
