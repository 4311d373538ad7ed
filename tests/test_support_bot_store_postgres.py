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
