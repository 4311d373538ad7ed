"""SqliteChatMemoryRepository, and the repository contract every SQL store must meet.

The contract tests below take a ``store`` fixture; test_memory_postgres.py
imports them and supplies a PostgreSQL ``store``, so both repositories are
held to exactly the same tests.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from springtail.memory import (
    ChatMemoryError,
    ChatMemoryRepository,
    MessageWindowChatMemory,
    SqliteChatMemoryRepository,
)
from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)

EVERY_KIND: list[Message] = [
    SystemMessage("You are a support assistant."),
    UserMessage('안녕하세요 👋 — «quotes» "double" \\ back\nnew line\ttab\x00nul \ud800'),
    AssistantMessage("plain answer"),
    AssistantMessage(
        "let me check",
        (
            ToolCall("call_1", "calculate", '{"operation": "multiply",  "left": 128, "right": 32}'),
            ToolCall("call_2", "product_lookup", '{"sku":"SKU-100"}'),
        ),
    ),
    ToolResponseMessage(
        (
            ToolResponse("call_1", "calculate", "4096"),
            ToolResponse("call_2", "product_lookup", "unknown SKU 'SKU-9'", is_error=True),
        )
    ),
    AssistantMessage("", (ToolCall("x", "broken", '{"not json'),)),
    ToolResponseMessage((ToolResponse("x", "broken", "invalid arguments", is_error=True),)),
    UserMessage(""),
]


@dataclass
class Store:
    """How a contract test reaches one kind of store."""

    new: Callable[[], Any]  # a fresh repository on the same store (own connection)
    rows: Callable[[str], list[tuple[int, str, str, str]]]  # (seq, role, message, created)
    shared: dict[str, Any] = field(default_factory=dict)  # lives as long as the test


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    path = tmp_path / "memory.db"
    opened: list[SqliteChatMemoryRepository] = []

    def new() -> SqliteChatMemoryRepository:
        repository = SqliteChatMemoryRepository(path)
        opened.append(repository)
        return repository

    def rows(conversation_id: str) -> list[tuple[int, str, str, str]]:
        with sqlite3.connect(path) as conn:
            return conn.execute(
                "SELECT seq, role, message, created_at FROM springtail_chat_memory "
                "WHERE conversation_id = ? ORDER BY seq",
                (conversation_id,),
            ).fetchall()

    yield Store(new, rows)
    for repository in opened:
        repository.close()


# --- the contract (also run against PostgreSQL) -----------------------------


def test_contract_every_message_kind_round_trips_exactly(store: Store) -> None:
    repository = store.new()
    assert isinstance(repository, ChatMemoryRepository)
    repository.save_all("c", EVERY_KIND)
    assert repository.find_by_conversation_id("c") == EVERY_KIND
    assert store.new().find_by_conversation_id("c") == EVERY_KIND  # a cold reader too
    assert [role for _, role, _, _ in store.rows("c")] == [m.role for m in EVERY_KIND]


def test_contract_save_all_replaces_and_empty_deletes(store: Store) -> None:
    repository = store.new()
    repository.save_all("a", [UserMessage("1"), UserMessage("2")])
    repository.save_all("a", [UserMessage("3")])
    repository.save_all("b", [UserMessage("b")])
    assert store.new().find_by_conversation_id("a") == [UserMessage("3")]
    repository.save_all("b", [])
    assert repository.find_conversation_ids() == ["a"]
    assert store.rows("b") == []


def test_contract_unknown_conversations_are_empty_and_delete_is_idempotent(store: Store) -> None:
    repository = store.new()
    assert repository.find_by_conversation_id("nobody") == []
    repository.save_all("c", [UserMessage("x")])
    repository.delete_by_conversation_id("c")
    repository.delete_by_conversation_id("c")
    assert repository.find_conversation_ids() == []
    assert repository.find_by_conversation_id("c") == []


def test_contract_conversation_ids_list_every_stored_conversation(store: Store) -> None:
    repository = store.new()
    for cid in ("first", "second", "third"):
        repository.save_all(cid, [UserMessage(cid)])
    assert sorted(store.new().find_conversation_ids()) == ["first", "second", "third"]


def test_contract_adding_to_a_long_conversation_keeps_unchanged_rows(store: Store) -> None:
    memory = MessageWindowChatMemory(store.new(), max_messages=6)
    memory.add("c", [SystemMessage("s"), *(UserMessage(f"u{i}") for i in range(5))])
    before = {seq: (message, created) for seq, _, message, created in store.rows("c")}
    memory.add("c", [AssistantMessage("a")])
    after = store.rows("c")
    assert [m.text for m in memory.get("c")] == ["s", "u1", "u2", "u3", "u4", "a"]  # type: ignore[union-attr]
    kept = [row for row in after if row[0] in before]
    assert len(kept) == 5  # system + u1..u4 were not rewritten ...
    for seq, _, message, created in kept:
        assert before[seq] == (message, created)  # ... not even their creation time


def test_contract_replacing_the_system_message_persists_in_order(store: Store) -> None:
    memory = MessageWindowChatMemory(store.new())
    memory.add("c", [SystemMessage("old"), UserMessage("u1")])
    memory.add("c", [SystemMessage("new"), UserMessage("u2")])
    expected = [SystemMessage("new"), UserMessage("u1"), UserMessage("u2")]
    assert MessageWindowChatMemory(store.new()).get("c") == expected
    memory.add("c", [SystemMessage("newest")])
    assert MessageWindowChatMemory(store.new()).get("c") == [SystemMessage("newest"), *expected[1:]]


def test_contract_a_failed_update_changes_nothing(store: Store) -> None:
    repository = store.new()
    repository.save_all("c", [UserMessage("kept")])

    def change(current: list[Message]) -> list[Message]:
        raise RuntimeError("changed my mind")

    with pytest.raises(RuntimeError, match="changed my mind"):
        repository.update("c", change)
    with pytest.raises(TypeError, match="cannot store"):
        repository.save_all("c", [UserMessage("new"), "not a message"])
    assert store.new().find_by_conversation_id("c") == [UserMessage("kept")]
    repository.save_all("c", [UserMessage("still usable")])
    assert repository.find_by_conversation_id("c") == [UserMessage("still usable")]


def test_contract_threads_sharing_one_repository_lose_nothing(store: Store) -> None:
    memory = MessageWindowChatMemory(store.new(), max_messages=10_000)

    def writer(name: str) -> None:
        for i in range(25):
            memory.add("c", [UserMessage(f"{name}-{i}")])

    threads = [threading.Thread(target=writer, args=(f"t{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    texts = [m.text for m in memory.get("c")]  # type: ignore[union-attr]
    assert sorted(texts) == sorted(f"t{n}-{i}" for n in range(4) for i in range(25))


_ALPHABET = [*EVERY_KIND[:6], UserMessage("a"), UserMessage("b"), AssistantMessage("a")]
_example = iter(range(10**9))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(saves=st.lists(st.lists(st.sampled_from(_ALPHABET), max_size=8), min_size=1, max_size=5))
def test_contract_any_sequence_of_saves_reads_back_exactly(
    store: Store, saves: list[list[Message]]
) -> None:
    if "repository" not in store.shared:  # one connection for all examples
        store.shared["repository"] = store.new()
    repository = store.shared["repository"]
    conversation_id = f"prop-{next(_example)}"
    for messages in saves:
        repository.save_all(conversation_id, messages)
        assert repository.find_by_conversation_id(conversation_id) == messages
    assert [r[1] for r in store.rows(conversation_id)] == [m.role for m in saves[-1]]


def _add_from_process(
    start: Any, new: Callable[[], Any], name: str, count: int, max_messages: int
) -> None:
    memory = MessageWindowChatMemory(new(), max_messages=max_messages)
    memory.get("shared")  # connect before the race starts
    start.wait(60)
    for i in range(count):
        memory.add("shared", [UserMessage(f"{name}-{i}"), AssistantMessage(f"{name}-{i}")])


def _run_processes(target: Callable[..., None], args: list[tuple[Any, ...]]) -> None:
    context = multiprocessing.get_context("fork")
    start = context.Event()
    processes = [context.Process(target=target, args=(start, *a)) for a in args]
    for process in processes:
        process.start()
    start.set()  # all at once, so that their writes really overlap
    for process in processes:
        process.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * len(processes)


def test_contract_several_processes_adding_lose_no_message(store: Store) -> None:
    _run_processes(_add_from_process, [(store.new, f"p{n}", 25, 10_000) for n in range(4)])
    history = store.new().find_by_conversation_id("shared")
    assert len(history) == 4 * 25 * 2
    for n in range(4):
        mine = [m.text for m in history if m.text.startswith(f"p{n}-")]
        assert mine == [text for i in range(25) for text in (f"p{n}-{i}",) * 2]
    # each user message is directly followed by its own answer: no interleaving
    for question, answer in zip(history[::2], history[1::2], strict=True):
        assert isinstance(question, UserMessage)
        assert isinstance(answer, AssistantMessage)
        assert question.text == answer.text


def _open_and_save(start: Any, path: Path, name: str) -> None:
    start.wait(60)
    SqliteChatMemoryRepository(path).save_all(name, [UserMessage(name)])


def test_several_processes_creating_the_file_at_once_all_open_it(tmp_path: Path) -> None:
    # Each one switches the new file to WAL; SQLite answered all but the first
    # "database is locked" at once, without waiting (seen in ~2 % of opens).
    for round_ in range(15):
        path = tmp_path / f"new-{round_}.db"
        _run_processes(_open_and_save, [(path, f"p{n}") for n in range(6)])
        assert len(SqliteChatMemoryRepository(path).find_conversation_ids()) == 6


def test_contract_several_processes_keep_a_valid_window(store: Store) -> None:
    _run_processes(_add_from_process, [(store.new, f"p{n}", 10, 7) for n in range(3)])
    history = store.new().find_by_conversation_id("shared")
    assert len(history) <= 7
    assert isinstance(history[0], UserMessage)


def _save_homogeneous(new: Callable[[], Any], tag: str, rounds: int) -> None:
    repository = new()
    for i in range(rounds):
        repository.save_all("atomic", [UserMessage(f"{tag}{i}")] * (5 + i % 5))


def test_contract_readers_never_see_half_a_save(store: Store) -> None:
    repository = store.new()
    repository.save_all("atomic", [UserMessage("start")])
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_save_homogeneous, args=(store.new, tag, 40)) for tag in "ab"]
    for writer in writers:
        writer.start()
    seen = 0
    while any(w.is_alive() for w in writers) or seen == 0:
        history = repository.find_by_conversation_id("atomic")
        assert len({m.text for m in history}) == 1, history
        seen += 1
    for writer in writers:
        writer.join()
        assert writer.exitcode == 0


def _use_inherited(repository: Any, queue: Any) -> None:
    repository.save_all("forked", [UserMessage("from the child")])
    queue.put(repository.find_by_conversation_id("forked"))


def test_contract_a_repository_made_before_fork_works_in_the_child(store: Store) -> None:
    repository = store.new()
    repository.save_all("forked", [UserMessage("from the parent")])
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_use_inherited, args=(repository, queue))
    child.start()
    assert queue.get(timeout=60) == [UserMessage("from the child")]
    child.join()
    assert child.exitcode == 0
    assert repository.find_by_conversation_id("forked") == [UserMessage("from the child")]


# --- SQLite only --------------------------------------------------------------


def test_file_uses_wal_so_readers_do_not_wait_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    repository = SqliteChatMemoryRepository(path)
    repository.save_all("c", [UserMessage("committed")])
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM springtail_chat_memory")
    try:
        assert repository.find_by_conversation_id("c") == [UserMessage("committed")]
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_locked_database_is_a_clear_error_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    repository = SqliteChatMemoryRepository(path, busy_timeout=0.2)
    repository.save_all("c", [UserMessage("before")])
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(ChatMemoryError) as caught:
            MessageWindowChatMemory(repository).add("c", [UserMessage("during")])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    message = str(caught.value)
    assert str(path) in message
    assert "locked" in message
    assert "busy_timeout" in message
    assert repository.find_by_conversation_id("c") == [UserMessage("before")]
    MessageWindowChatMemory(repository).add("c", [UserMessage("after")])
    assert repository.find_by_conversation_id("c") == [UserMessage("before"), UserMessage("after")]


def test_a_writer_waits_for_a_short_lock_instead_of_failing(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    repository = SqliteChatMemoryRepository(path, busy_timeout=30)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    released = threading.Event()

    def release() -> None:
        released.wait(10)
        holder.execute("COMMIT")

    thread = threading.Thread(target=release)
    thread.start()
    threading.Timer(0.3, released.set).start()
    repository.save_all("c", [UserMessage("waited")])
    thread.join()
    holder.close()
    assert repository.find_by_conversation_id("c") == [UserMessage("waited")]


def test_a_file_that_is_not_a_database_is_a_clear_error_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    garbage = b"these are my notes, not a database\n" * 200
    path.write_bytes(garbage)
    with pytest.raises(ChatMemoryError) as caught:
        SqliteChatMemoryRepository(path)
    message = str(caught.value)
    assert str(path) in message
    assert "move it aside" in message
    assert path.read_bytes() == garbage


def test_a_damaged_row_is_named_and_nothing_is_changed(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    repository = SqliteChatMemoryRepository(path)
    repository.save_all("c", [UserMessage("fine"), UserMessage("to be damaged")])
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE springtail_chat_memory SET message = '{oops' WHERE seq = 1")
    fresh = SqliteChatMemoryRepository(path)
    with pytest.raises(ChatMemoryError) as caught:
        fresh.find_by_conversation_id("c")
    message = str(caught.value)
    assert str(path) in message
    assert "conversation_id='c', seq=1" in message
    with pytest.raises(ChatMemoryError):
        MessageWindowChatMemory(fresh).add("c", [UserMessage("new")])
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM springtail_chat_memory").fetchone() == (2,)
    fresh.close()
    repository.close()


def test_a_path_that_cannot_be_a_database_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ChatMemoryError, match=str(tmp_path)):
        SqliteChatMemoryRepository(tmp_path)  # a folder


def test_missing_folders_are_created(tmp_path: Path) -> None:
    path = tmp_path / "data" / "app" / "memory.db"
    SqliteChatMemoryRepository(path).save_all("c", [UserMessage("x")])
    assert path.is_file()


def test_shares_the_file_with_an_apps_own_tables(tmp_path: Path) -> None:
    path = tmp_path / "support-bot.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE products (sku TEXT PRIMARY KEY, stock INTEGER)")
        conn.execute("INSERT INTO products VALUES ('SKU-100', 12)")
    repository = SqliteChatMemoryRepository(path)
    repository.save_all("c", [UserMessage("how many SKU-100?")])
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT * FROM products").fetchall() == [("SKU-100", 12)]
        # the documented table, readable with plain SQL and SQLite's JSON functions
        assert conn.execute(
            "SELECT conversation_id, role, json_extract(message, '$.text') "
            "FROM springtail_chat_memory"
        ).fetchall() == [("c", "user", "how many SKU-100?")]


def test_busy_timeout_must_not_be_negative(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="busy_timeout"):
        SqliteChatMemoryRepository(tmp_path / "m.db", busy_timeout=-1)


def test_close_and_reopen_on_next_use(tmp_path: Path) -> None:
    with SqliteChatMemoryRepository(tmp_path / "m.db") as repository:
        repository.save_all("c", [UserMessage("x")])
    assert repository.find_by_conversation_id("c") == [UserMessage("x")]
    repository.close()
    assert os.path.exists(tmp_path / "m.db")


# --- the schema version, and a file written by the previous release ----------

# The tables as springtail 0.1.0 created them, written out by hand: that release
# recorded no schema version.
RELEASE_0_1_0_TABLES = (
    """CREATE TABLE IF NOT EXISTS springtail_chat_memory (
    conversation_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (conversation_id, seq)
)""",
    """CREATE TABLE IF NOT EXISTS springtail_paused_turns (
    conversation_id TEXT PRIMARY KEY,
    turn TEXT NOT NULL,
    created_at TEXT NOT NULL
)""",
)


def _versions(path: Path) -> list[tuple[int]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT version FROM springtail_schema").fetchall()


def test_a_new_file_records_the_current_schema_version(tmp_path: Path) -> None:
    from springtail.memory._schema import SCHEMA_VERSION

    SqliteChatMemoryRepository(tmp_path / "m.db").close()
    assert _versions(tmp_path / "m.db") == [(SCHEMA_VERSION,)]


def test_a_file_of_the_previous_release_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    from springtail.memory._schema import SCHEMA_VERSION

    path = tmp_path / "memory.db"
    with sqlite3.connect(path) as conn:
        for statement in RELEASE_0_1_0_TABLES:
            conn.execute(statement)
        conn.executemany(
            "INSERT INTO springtail_chat_memory VALUES ('c', ?, ?, ?, '2026-01-02T03:04:05+00:00')",
            [
                (0, "user", '{"role":"user","text":"written by 0.1.0"}'),
                (1, "assistant", '{"role":"assistant","text":"kept"}'),
            ],
        )
        conn.execute("INSERT INTO springtail_paused_turns VALUES ('c', '{}', 'then')")
    with SqliteChatMemoryRepository(path) as repository:
        assert repository.find_by_conversation_id("c") == [
            UserMessage("written by 0.1.0"),
            AssistantMessage("kept"),
        ]
        repository.update("c", lambda messages: [*messages, UserMessage("after the upgrade")])
    assert _versions(path) == [(SCHEMA_VERSION,)]
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT turn FROM springtail_paused_turns").fetchall() == [("{}",)]
        assert conn.execute(
            "SELECT created_at FROM springtail_chat_memory WHERE seq = 0"
        ).fetchone() == ("2026-01-02T03:04:05+00:00",)
    SqliteChatMemoryRepository(path).close()  # opening again migrates nothing
    assert _versions(path) == [(SCHEMA_VERSION,)]


def test_a_file_of_a_newer_release_is_refused_untouched(tmp_path: Path) -> None:
    from springtail.memory._schema import SCHEMA_VERSION

    path = tmp_path / "memory.db"
    SqliteChatMemoryRepository(path).save_all("c", [UserMessage("x")])
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO springtail_schema VALUES (?, 'later')", (SCHEMA_VERSION + 1,))
    before = path.read_bytes()
    with pytest.raises(ChatMemoryError) as caught:
        SqliteChatMemoryRepository(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"newer springtail (schema version {SCHEMA_VERSION + 1}" in message
    assert "pip install -U springtail" in message
    assert path.read_bytes() == before


def test_the_version_leaves_an_apps_user_version_alone(tmp_path: Path) -> None:
    # support-bot keeps its business tables in the same file, versioned by
    # PRAGMA user_version; springtail's version lives in its own table.
    path = tmp_path / "support-bot.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 7")
    SqliteChatMemoryRepository(path).save_all("c", [UserMessage("x")])
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (7,)
    assert len(_versions(path)) == 1
