"""PausedTurn: its JSON, its decisions, and how every repository keeps and hands it out once.

The repository tests run against the in-memory, SQLite and PostgreSQL
repositories alike (PostgreSQL: a throw-away server on loopback).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from approval_tools import at_once
from springtail.execution import (
    ApprovalConflictError,
    PendingApproval,
    ToolCallDecision,
)
from springtail.memory import (
    ChatMemoryError,
    ChatMemoryRepository,
    InMemoryChatMemoryRepository,
    MessageWindowChatMemory,
    PausedTurn,
    PausedTurnMemory,
    PausedTurnRepository,
    SqliteChatMemoryRepository,
)
from springtail.messages import (
    AssistantMessage,
    ToolCall,
    ToolResponse,
    UserMessage,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LOOKUP = ToolCall("c1", "lookup", '{"sku": "SKU-1"}')
RESERVE = ToolCall("c2", "reserve", '{"sku": "SKU-1", "quantity": 2}')
REFUND = ToolCall("c3", "refund", '{"order": "O-7", "note": "ünïcode ✓"}')


def turn(*, deadline: datetime | None = NOW + timedelta(hours=1), **changes: Any) -> PausedTurn:
    values: dict[str, Any] = {
        "assistant": AssistantMessage("Let me do that.", (LOOKUP, RESERVE, REFUND)),
        "pending": (PendingApproval(RESERVE, deadline), PendingApproval(REFUND, deadline)),
        "results": (ToolResponse("c1", "lookup", "SKU-1: 12 in stock"),),
        "paused_at": NOW,
    }
    values.update(changes)
    return PausedTurn(**values)


# -- the value ---------------------------------------------------------------------


def test_a_paused_turn_round_trips_through_json_exactly() -> None:
    full = turn(
        messages=(UserMessage("Check and reserve"),),
        decisions={"c2": ToolCallDecision.approve(), "c3": ToolCallDecision.deny("no")},
    )
    text = full.to_json()
    assert json.loads(text)["version"] == 1
    assert PausedTurn.from_json(text) == full
    assert PausedTurn.from_json(turn(deadline=None).to_json()) == turn(deadline=None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "must be JSON"),
        ("[]", "expected a JSON object"),
        ('{"version": 9}', "unknown version 9"),
        (
            turn()
            .to_json()
            .replace('"deadline":"2026-12-01T13:00:00+00:00"', '"deadline":"2026-12-01T13:00:00"'),
            "no time zone",
        ),
        (turn().to_json().replace('"role":"assistant"', '"role":"user"'), "must be an assistant"),
    ],
)
def test_json_that_is_not_a_paused_turn_is_refused_in_one_sentence(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PausedTurn.from_json(text)


def test_a_paused_turn_needs_a_pending_call() -> None:
    with pytest.raises(ValueError, match="at least one pending approval"):
        turn(pending=())


def test_decisions_for_every_waiting_call_decide_the_turn() -> None:
    decided = turn().with_decisions({"c2": True, "c3": False}, now=NOW)
    assert decided.decided
    assert decided.decisions == {"c2": ToolCallDecision(True), "c3": ToolCallDecision(False)}
    assert decided.waiting(NOW) == ()
    assert turn().waiting(NOW) == turn().pending


@pytest.mark.parametrize(
    ("decisions", "error", "message"),
    [
        (
            {"c1": True, "c2": True, "c3": True},
            ApprovalConflictError,
            "does not wait .*already ran",
        ),
        ({"zz": True, "c2": True, "c3": True}, ApprovalConflictError, "is not part of this turn"),
        ({"c2": True}, ValueError, r"Decide every call that waits at once: refund \(call 'c3'\)"),
    ],
)
def test_decisions_that_do_not_match_the_turn_are_refused(
    decisions: dict[str, bool], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        turn().with_decisions(decisions, now=NOW, conversation_id="cv")


def test_an_expired_call_counts_as_denied_and_cannot_be_decided_any_more() -> None:
    late = NOW + timedelta(hours=2)
    with pytest.raises(ApprovalConflictError, match="expired at 2026-12-01 13:00:00 UTC"):
        turn().with_decisions({"c2": True}, now=late)
    closed = turn().with_decisions({}, now=late)
    assert closed.decisions["c2"] == ToolCallDecision.deny(
        "its approval expired at 2026-12-01 13:00:00 UTC"
    )
    assistant, answers = closed.denied_exchange()
    assert assistant.tool_calls == (LOOKUP, RESERVE, REFUND)
    assert [r.id for r in answers.responses] == ["c1", "c2", "c3"]  # call order
    assert answers.responses[0].response_data == "SKU-1: 12 in stock"
    assert answers.responses[1] == ToolResponse(
        "c2",
        "reserve",
        "The call to tool 'reserve' was not approved (its approval expired at "
        "2026-12-01 13:00:00 UTC), so it did not run.",
        True,
    )


def test_a_decided_turn_cannot_be_decided_again() -> None:
    decided = turn().with_decisions({"c2": True, "c3": True}, now=NOW)
    with pytest.raises(ApprovalConflictError, match="decided already"):
        decided.with_decisions({"c2": True, "c3": True}, now=NOW)
    with pytest.raises(ValueError, match="without approvals"):
        decided.denied_exchange()


# -- every repository ----------------------------------------------------------------


def _sqlite(tmp_path: Path) -> Callable[[], Any]:
    return lambda: SqliteChatMemoryRepository(tmp_path / "memory.db")


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def new(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    """A factory of repositories over one store (each its own connection)."""
    if request.param == "memory":
        shared = InMemoryChatMemoryRepository()
        yield lambda: shared
        return
    opened: list[Any] = []
    if request.param == "sqlite":
        factory = _sqlite(tmp_path)
    else:
        from springtail.memory import PostgresChatMemoryRepository

        pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")
        dsn = request.getfixturevalue("postgres_database")

        def factory() -> Any:
            return PostgresChatMemoryRepository(dsn)

    def make() -> Any:
        repository = factory()
        opened.append(repository)
        return repository

    yield make
    for repository in opened:
        repository.close()


def test_repositories_keep_a_paused_turn_beside_the_messages(new: Callable[[], Any]) -> None:
    repository = new()
    assert isinstance(repository, PausedTurnRepository)
    assert isinstance(repository, ChatMemoryRepository)
    repository.save_all("cv", [UserMessage("Check and reserve")])
    assert repository.find_paused_turn("cv") is None
    repository.save_paused_turn("cv", turn())
    assert new().find_paused_turn("cv") == turn()  # a cold reader too
    assert repository.find_by_conversation_id("cv") == [UserMessage("Check and reserve")]
    with pytest.raises(ApprovalConflictError, match="already waits for a decision"):
        new().save_paused_turn("cv", turn())
    repository.delete_by_conversation_id("cv")
    assert new().find_paused_turn("cv") is None


def test_taking_a_paused_turn_removes_it_once(new: Callable[[], Any]) -> None:
    repository = new()
    repository.save_paused_turn("cv", turn())
    taken = repository.take_paused_turn(
        "cv", lambda t: t.with_decisions({"c2": True, "c3": False}, now=NOW)
    )
    assert taken.decided
    assert new().find_paused_turn("cv") is None
    with pytest.raises(
        ApprovalConflictError, match="Nothing waits for approval in conversation 'cv'"
    ):
        new().take_paused_turn("cv", lambda t: t)


def test_a_check_that_refuses_leaves_the_paused_turn_stored(new: Callable[[], Any]) -> None:
    repository = new()
    repository.save_paused_turn("cv", turn())
    with pytest.raises(ValueError, match="Decide every call"):
        repository.take_paused_turn("cv", lambda t: t.with_decisions({"c2": True}, now=NOW))
    assert new().find_paused_turn("cv") == turn()


def test_twenty_concurrent_takes_of_one_turn_give_it_to_exactly_one(new: Callable[[], Any]) -> None:
    new().save_paused_turn("cv", turn())
    repositories = [new() for _ in range(20)]
    won: list[PausedTurn] = []
    lost: list[Exception] = []

    def take(repository: Any) -> Callable[[], None]:
        def run() -> None:
            try:
                won.append(
                    repository.take_paused_turn(
                        "cv", lambda t: t.with_decisions({"c2": True, "c3": True}, now=NOW)
                    )
                )
            except ApprovalConflictError as exc:
                lost.append(exc)

        return run

    at_once([take(r) for r in repositories])
    assert len(won) == 1
    assert len(lost) == 19


def test_the_window_memory_pauses_and_decides_through_its_repository(
    new: Callable[[], Any],
) -> None:
    memory = MessageWindowChatMemory(new(), max_messages=4)
    assert isinstance(memory, PausedTurnMemory)
    memory.add("cv", UserMessage("Check and reserve"))
    memory.pause("cv", turn())
    assert memory.paused_turn("cv") == turn()
    with pytest.raises(ApprovalConflictError, match="expired"):
        memory.take_paused_turn("cv", {"c2": True}, now=NOW + timedelta(days=1))
    taken = memory.take_paused_turn("cv", {"c2": True, "c3": ToolCallDecision.deny()}, now=NOW)
    assert taken.decisions["c3"] == ToolCallDecision(False)
    assert memory.paused_turn("cv") is None
    memory.pause("cv", turn())
    memory.clear("cv")
    assert memory.paused_turn("cv") is None


def test_a_window_over_a_repository_without_paused_turns_says_so() -> None:
    class Plain:
        def __init__(self) -> None:
            self.saved: dict[str, list[Any]] = {}

        def find_conversation_ids(self) -> list[str]:
            return list(self.saved)

        def find_by_conversation_id(self, conversation_id: str) -> list[Any]:
            return list(self.saved.get(conversation_id, []))

        def save_all(self, conversation_id: str, messages: Any) -> None:
            self.saved[conversation_id] = list(messages)

        def delete_by_conversation_id(self, conversation_id: str) -> None:
            self.saved.pop(conversation_id, None)

    memory = MessageWindowChatMemory(Plain())
    assert memory.paused_turn("cv") is None
    with pytest.raises(TypeError, match="cannot keep a paused turn"):
        memory.pause("cv", turn())


def test_a_damaged_paused_row_is_a_clear_error_naming_it(tmp_path: Path) -> None:
    repository = _sqlite(tmp_path)()
    repository.save_paused_turn("cv", turn())
    with sqlite3.connect(tmp_path / "memory.db") as conn:
        conn.execute("UPDATE springtail_paused_turns SET turn = '{broken'")
    with pytest.raises(ChatMemoryError, match=r"paused turn of conversation 'cv'.*cannot be read"):
        repository.find_paused_turn("cv")
    repository.close()


def test_a_paused_turn_stays_out_of_the_message_rows(tmp_path: Path) -> None:
    repository = _sqlite(tmp_path)()
    repository.save_all("cv", [UserMessage("u")])
    repository.save_paused_turn("cv", turn())
    with sqlite3.connect(tmp_path / "memory.db") as conn:
        (rows,) = conn.execute("SELECT count(*) FROM springtail_chat_memory").fetchone()
        (stored,) = conn.execute("SELECT turn FROM springtail_paused_turns").fetchone()
    assert rows == 1
    assert PausedTurn.from_json(stored) == turn()
    repository.close()
