from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from support_bot._store import (
    DB_FILENAME,
    SCHEMA_VERSION,
    BusinessStore,
    InsufficientStockError,
    Store,
    StoreError,
    UnknownProductError,
    UnknownTodoError,
    default_data_dir,
    normalize_customer_id,
    normalize_sku,
)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.in_data_dir(tmp_path)


def test_first_run_creates_and_seeds_the_file(tmp_path: Path) -> None:
    store = Store.in_data_dir(tmp_path / "new" / "folder")
    assert store.path == tmp_path / "new" / "folder" / DB_FILENAME
    assert [(p.sku, p.name, p.stock) for p in store.products()] == [
        ("SKU-100", "Spring AI Starter Workbook", 12),
        ("SKU-200", "Agent Design Notes", 7),
        ("SKU-300", "RAG Practice Dataset", 4),
    ]
    assert store.customer_ids() == [f"C-{n}" for n in range(100, 106)]
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"products", "reservations", "todos", "customers"} <= tables


def test_reopening_keeps_the_data_and_does_not_reseed(tmp_path: Path) -> None:
    Store.in_data_dir(tmp_path).reserve("SKU-100", 2)
    Store.in_data_dir(tmp_path).add_todo("call back")
    again = Store.in_data_dir(tmp_path)
    assert again.product("SKU-100").stock == 10
    assert [t.title for t in again.todos()] == ["call back"]


def test_data_dir_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUPPORT_BOT_DATA_DIR", str(tmp_path / "env"))
    assert default_data_dir() == tmp_path / "env"
    assert Store.in_data_dir().path == tmp_path / "env" / DB_FILENAME


def test_data_dir_defaults_to_the_platform_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SUPPORT_BOT_DATA_DIR", raising=False)
    assert "support-bot" in str(default_data_dir())


@pytest.mark.parametrize(
    ("typed", "expected"),
    [(" sku-100 ", "SKU-100"), ("SKU100", "SKU-100"), ("100", "SKU-100"), ("abc", "ABC")],
)
def test_skus_are_trimmed_and_upper_cased(typed: str, expected: str) -> None:
    assert normalize_sku(typed) == expected


@pytest.mark.parametrize(
    ("typed", "expected"), [(" c-100", "C-100"), ("C101", "C-101"), ("102", "C-102")]
)
def test_customer_ids_are_normalized(typed: str, expected: str) -> None:
    assert normalize_customer_id(typed) == expected


def test_reserve_takes_stock_and_records_the_reservation(store: Store) -> None:
    reservation = store.reserve(" sku-100", 2)
    assert (reservation.sku, reservation.quantity, reservation.stock_left) == ("SKU-100", 2, 10)
    assert store.product("SKU-100").stock == 10
    assert store.reservations() == [(reservation.id, "SKU-100", 2)]


def test_reserve_refuses_short_stock_and_changes_nothing(store: Store) -> None:
    with pytest.raises(InsufficientStockError, match="Only 4 unit"):
        store.reserve("SKU-300", 5)
    assert store.product("SKU-300").stock == 4
    assert store.reservations() == []


def test_reserve_can_take_the_last_unit(store: Store) -> None:
    assert store.reserve("SKU-300", 4).stock_left == 0
    with pytest.raises(InsufficientStockError):
        store.reserve("SKU-300", 1)


@pytest.mark.parametrize("quantity", [0, -3])
def test_reserve_refuses_non_positive_quantities(store: Store, quantity: int) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        store.reserve("SKU-100", quantity)
    assert store.product("SKU-100").stock == 12


def test_unknown_sku_names_the_known_ones(store: Store) -> None:
    with pytest.raises(UnknownProductError, match="SKU-100, SKU-200, SKU-300"):
        store.reserve("SKU-999", 1)
    with pytest.raises(UnknownProductError):
        store.product("nope")


def _reserve_until_empty(path: str, start: object, results: object) -> None:
    store = Store(path)
    start.wait()  # type: ignore[attr-defined]
    taken = 0
    while True:
        try:
            taken += store.reserve("SKU-300", 1).quantity
        except InsufficientStockError:
            break
    results.put(taken)  # type: ignore[attr-defined]


def test_two_processes_never_oversell_the_last_units(store: Store) -> None:
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Barrier(3)
    results = ctx.Queue()
    workers = [
        ctx.Process(target=_reserve_until_empty, args=(str(store.path), start, results))
        for _ in range(3)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    taken = [results.get(timeout=5) for _ in workers]
    assert sum(taken) == 4
    assert store.product("SKU-300").stock == 0
    assert sum(q for _, _, q in store.reservations()) == 4


def _open_store(path: str, start: object) -> None:
    start.wait()  # type: ignore[attr-defined]
    Store(path)


def test_support_bots_starting_at_once_on_a_new_folder_all_open_it(tmp_path: Path) -> None:
    # Each switches the new file to WAL; SQLite answered all but the first
    # "database is locked" at once (about 1 open in 100 in this race).
    ctx = multiprocessing.get_context("fork")
    for round_ in range(15):
        path = str(tmp_path / f"new-{round_}.db")
        start = ctx.Barrier(6)
        workers = [ctx.Process(target=_open_store, args=(path, start)) for _ in range(6)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
        assert [w.exitcode for w in workers] == [0] * 6
        assert len(Store(path).products()) == 3


def test_todos_are_added_listed_and_completed(store: Store) -> None:
    first = store.add_todo("  Call   C-100  ")
    second = store.add_todo("Ship SKU-200")
    assert first.title == "Call C-100"
    assert [(t.id, t.done) for t in store.todos()] == [(first.id, False), (second.id, False)]
    done, was_open = store.complete_todo(first.id)
    assert done.done
    assert was_open
    _, was_open = store.complete_todo(first.id)
    assert not was_open
    assert [t.done for t in store.todos()] == [True, False]


def test_blank_todo_and_unknown_id_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="empty"):
        store.add_todo("   ")
    with pytest.raises(UnknownTodoError, match="42"):
        store.complete_todo(42)


def test_customer_lookup(store: Store) -> None:
    customer = store.customer("c100")
    assert customer is not None
    assert customer.id == "C-100"
    assert "@" in customer.email
    assert store.customer("C-999") is None


def test_a_damaged_file_is_reported_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / DB_FILENAME
    path.write_bytes(b"this is not sqlite at all" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="damaged") as info:
        Store(path)
    assert str(path) in str(info.value)
    assert "\n" not in str(info.value)
    assert path.read_bytes() == before


def test_a_locked_database_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store.in_data_dir(tmp_path)
    monkeypatch.setattr("support_bot._store.BUSY_TIMEOUT_S", 0.05)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError, match="locked") as info:
            store.reserve("SKU-100", 1)
        assert str(store.path) in str(info.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.product("SKU-100").stock == 12


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    store = Store.in_data_dir(tmp_path)
    with sqlite3.connect(store.path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer support-bot"):
        Store(store.path)


def test_an_unwritable_folder_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="--data-dir"):
        Store.in_data_dir(blocker / "sub")


def test_a_version_1_file_is_upgraded_in_place_without_reseeding(tmp_path: Path) -> None:
    store = Store.in_data_dir(tmp_path)
    store.reserve("SKU-300", 4)
    with sqlite3.connect(store.path) as conn:
        conn.execute("DROP TABLE served_conversations")
        conn.execute("DELETE FROM customers WHERE id = 'C-105'")
        conn.execute("PRAGMA user_version = 1")
    upgraded = Store(store.path)
    assert upgraded.product("SKU-300").stock == 0
    assert "C-105" not in upgraded.customer_ids()  # not seeded again
    upgraded.add_conversation("c-1", "owner", "")
    assert upgraded.conversation("c-1") is not None
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2


def test_it_is_a_business_store_with_its_chat_memory_in_the_same_file(store: Store) -> None:
    from springtail import UserMessage

    assert isinstance(store, BusinessStore)
    assert store.location == str(store.path)
    store.chat_memory_repository().save_all("c-x", [UserMessage("hello")])
    with sqlite3.connect(store.path) as conn:
        assert conn.execute("SELECT count(*) FROM springtail_chat_memory").fetchone() == (1,)


def test_web_conversations_belong_to_their_owner(store: Store) -> None:
    store.add_conversation("c-one", "owner-a", "")
    store.add_conversation("c-two", "owner-a", "")
    store.add_conversation("c-three", "owner-b", "")
    store.count_turn("c-one", "first title")
    store.count_turn("c-one", "not this one")
    found = store.conversation("c-one")
    assert found is not None
    assert (found.title, found.turns, found.owner) == ("first title", 2, "owner-a")
    assert [c.id for c in store.conversations("owner-a")] == ["c-two", "c-one"]
    assert store.conversations("owner-c") == []
    assert store.conversation("c-none") is None
