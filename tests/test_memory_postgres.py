"""PostgresChatMemoryRepository against a real, throw-away PostgreSQL server on loopback.

The repository contract tests are imported from test_memory_sqlite.py and run
here with a PostgreSQL ``store``, so both repositories pass the same tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from postgres_server import PostgresServer, free_port
from springtail.memory import ChatMemoryError, MessageWindowChatMemory, PostgresChatMemoryRepository
from springtail.messages import AssistantMessage, Message, UserMessage
from test_memory_sqlite import (  # noqa: F401  (collected here with the PostgreSQL store)
    Store,
    test_contract_a_failed_update_changes_nothing,
    test_contract_a_repository_made_before_fork_works_in_the_child,
    test_contract_adding_to_a_long_conversation_keeps_unchanged_rows,
    test_contract_any_sequence_of_saves_reads_back_exactly,
    test_contract_conversation_ids_list_every_stored_conversation,
    test_contract_every_message_kind_round_trips_exactly,
    test_contract_readers_never_see_half_a_save,
    test_contract_replacing_the_system_message_persists_in_order,
    test_contract_save_all_replaces_and_empty_deletes,
    test_contract_several_processes_adding_lose_no_message,
    test_contract_several_processes_keep_a_valid_window,
    test_contract_threads_sharing_one_repository_lose_nothing,
    test_contract_unknown_conversations_are_empty_and_delete_is_idempotent,
)

psycopg = pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")

pytestmark = pytest.mark.postgres


@pytest.fixture
def store(postgres_server: PostgresServer) -> Iterator[Store]:
    dsn = postgres_server.dsn
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS springtail_chat_memory")
    opened: list[PostgresChatMemoryRepository] = []

    def new() -> PostgresChatMemoryRepository:
        repository = PostgresChatMemoryRepository(dsn)
        opened.append(repository)
        return repository

    def rows(conversation_id: str) -> list[tuple[int, str, str, str]]:
        with psycopg.connect(dsn) as conn:
            return [
                (seq, role, message, created.isoformat())
                for seq, role, message, created in conn.execute(
                    "SELECT seq, role, message, created_at FROM springtail_chat_memory "
                    "WHERE conversation_id = %s ORDER BY seq",
                    (conversation_id,),
                )
            ]

    yield Store(new, rows)
    for repository in opened:
        repository.close()


def test_unreachable_server_is_a_clear_error_without_the_password() -> None:
    port = free_port()  # nothing listens there
    dsn = f"host=127.0.0.1 port={port} user=app password=s3cret dbname=support connect_timeout=2"
    with pytest.raises(ChatMemoryError) as caught:
        PostgresChatMemoryRepository(dsn)
    message = str(caught.value)
    assert f"app@127.0.0.1:{port}/support" in message
    assert "server is running" in message
    assert "s3cret" not in message


def test_a_broken_connection_is_replaced_on_the_next_call(store: Store) -> None:
    repository = store.new()
    repository.save_all("c", [UserMessage("before the outage")])
    with psycopg.connect(repository._dsn, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND datname = current_database()"
        )
    with pytest.raises(ChatMemoryError, match="server is running"):
        repository.find_by_conversation_id("c")
    MessageWindowChatMemory(repository).add("c", [UserMessage("after")])
    assert repository.find_by_conversation_id("c") == [
        UserMessage("before the outage"),
        UserMessage("after"),
    ]


def test_a_damaged_row_is_named_and_nothing_is_changed(store: Store) -> None:
    repository = store.new()
    repository.save_all("c", [UserMessage("fine"), UserMessage("to be damaged")])
    with psycopg.connect(repository._dsn, autocommit=True) as conn:
        conn.execute("UPDATE springtail_chat_memory SET message = '{oops' WHERE seq = 1")
    fresh = store.new()
    with pytest.raises(ChatMemoryError, match=r"conversation_id='c', seq=1"):
        fresh.find_by_conversation_id("c")
    with pytest.raises(ChatMemoryError):
        MessageWindowChatMemory(fresh).add("c", [UserMessage("new")])
    assert len(store.rows("c")) == 2


def test_the_table_is_readable_with_plain_sql(store: Store) -> None:
    repository = store.new()
    repository.save_all("c", [UserMessage("한국어 text")])
    with psycopg.connect(repository._dsn) as conn:
        assert conn.execute(
            "SELECT conversation_id, role, message::jsonb ->> 'text' FROM springtail_chat_memory"
        ).fetchall() == [("c", "user", "한국어 text")]


@pytest.mark.parametrize(
    "dsn",
    [
        "postgres://app:s3cret@[::1/support",  # libpq quotes the whole URI back
        "host=127.0.0.1 user=app s3cret",  # a password without its keyword
        "postgresql://app@127.0.0.1/support?password=s3cret&sslmod=require",
        "host=127.0.0.1 password='s3cret",
    ],
)
def test_a_malformed_dsn_is_a_clear_error_without_the_password(dsn: str) -> None:
    with pytest.raises(ChatMemoryError) as caught:
        PostgresChatMemoryRepository(dsn)
    message = str(caught.value)
    assert "s3cret" not in message
    assert message.startswith("Could not connect in PostgreSQL chat memory")
    assert "\n" not in message


def test_an_id_that_is_not_utf8_is_a_clear_error_and_nothing_is_written(store: Store) -> None:
    repository = store.new()
    bad = "c-\udcff"  # what argv gives for the bytes b"c-\xff"

    def add_one(messages: list[Message]) -> list[Message]:
        return [*messages, UserMessage("hi")]

    actions: list[Callable[[], object]] = [
        lambda: repository.find_by_conversation_id(bad),
        lambda: repository.save_all(bad, [UserMessage("hi")]),
        lambda: repository.update(bad, add_one),
        lambda: repository.delete_by_conversation_id(bad),
        lambda: MessageWindowChatMemory(repository).add(bad, [UserMessage("hi")]),
    ]
    for action in actions:
        with pytest.raises(ChatMemoryError, match=r"is not valid UTF-8 text") as caught:
            action()
        assert isinstance(caught.value, ValueError)
    with pytest.raises(ChatMemoryError, match="NUL character"):
        repository.save_all("a\x00b", [UserMessage("hi")])
    assert repository.find_conversation_ids() == []


# --- the schema version, and a database written by the previous release ------

# The tables as springtail 0.1.0 created them, written out by hand: that release
# recorded no schema version.
RELEASE_0_1_0_TABLES = (
    """CREATE TABLE IF NOT EXISTS springtail_chat_memory (
    conversation_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    role TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, seq)
)""",
    """CREATE TABLE IF NOT EXISTS springtail_paused_turns (
    conversation_id TEXT PRIMARY KEY,
    turn TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)""",
)


def _versions(dsn: str) -> list[tuple[int]]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT version FROM springtail_schema ORDER BY version").fetchall()
    return [(int(row[0]),) for row in rows]


def test_a_new_database_records_the_current_schema_version(postgres_database: str) -> None:
    from springtail.memory._schema import SCHEMA_VERSION

    PostgresChatMemoryRepository(postgres_database).close()
    assert _versions(postgres_database) == [(SCHEMA_VERSION,)]


def test_a_database_of_the_previous_release_is_migrated_and_keeps_its_rows(
    postgres_database: str,
) -> None:
    from springtail.memory._schema import SCHEMA_VERSION

    with psycopg.connect(postgres_database) as conn:
        for statement in RELEASE_0_1_0_TABLES:
            conn.execute(statement)
        conn.execute(
            "INSERT INTO springtail_chat_memory (conversation_id, seq, role, message) VALUES "
            """('c', 0, 'user', '{"role":"user","text":"written by 0.1.0"}'), """
            """('c', 1, 'assistant', '{"role":"assistant","text":"kept"}')"""
        )
        conn.execute(
            "INSERT INTO springtail_paused_turns (conversation_id, turn) VALUES ('c', '{}')"
        )
    with PostgresChatMemoryRepository(postgres_database) as repository:
        assert repository.find_by_conversation_id("c") == [
            UserMessage("written by 0.1.0"),
            AssistantMessage("kept"),
        ]
        repository.update("c", lambda messages: [*messages, UserMessage("after the upgrade")])
        assert len(repository.find_by_conversation_id("c")) == 3
    assert _versions(postgres_database) == [(SCHEMA_VERSION,)]
    with psycopg.connect(postgres_database) as conn:
        assert conn.execute("SELECT turn FROM springtail_paused_turns").fetchall() == [("{}",)]
    PostgresChatMemoryRepository(postgres_database).close()  # opening again migrates nothing
    assert _versions(postgres_database) == [(SCHEMA_VERSION,)]


def test_a_database_of_a_newer_release_is_refused_untouched(postgres_database: str) -> None:
    from springtail.memory._schema import SCHEMA_VERSION

    with PostgresChatMemoryRepository(postgres_database) as repository:
        repository.save_all("c", [UserMessage("x")])
    with psycopg.connect(postgres_database) as conn:
        conn.execute("INSERT INTO springtail_schema (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(ChatMemoryError) as caught:
        PostgresChatMemoryRepository(postgres_database)
    message = str(caught.value)
    assert message.startswith("The PostgreSQL chat memory ")
    assert f"newer springtail (schema version {SCHEMA_VERSION + 1}" in message
    assert "pip install -U springtail" in message
    assert _versions(postgres_database) == [(SCHEMA_VERSION,), (SCHEMA_VERSION + 1,)]
    with psycopg.connect(postgres_database) as conn:
        assert conn.execute("SELECT count(*) FROM springtail_chat_memory").fetchone() == (1,)


def test_support_bots_version_table_and_springtails_live_side_by_side(
    postgres_database: str,
) -> None:
    from springtail.memory._schema import SCHEMA_VERSION

    with psycopg.connect(postgres_database) as conn:
        conn.execute("CREATE TABLE support_bot_schema (version INTEGER PRIMARY KEY)")
        conn.execute("INSERT INTO support_bot_schema VALUES (9)")
    PostgresChatMemoryRepository(postgres_database).close()
    assert _versions(postgres_database) == [(SCHEMA_VERSION,)]
    with psycopg.connect(postgres_database) as conn:
        assert conn.execute("SELECT version FROM support_bot_schema").fetchall() == [(9,)]
