"""Conversation ids every repository can store, and one clear error from each for the others."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from springtail.memory import (
    ChatMemoryError,
    ChatMemoryRepository,
    InMemoryChatMemoryRepository,
    MessageWindowChatMemory,
    SqliteChatMemoryRepository,
)
from springtail.memory._ids import InvalidConversationIdError, check_conversation_id
from springtail.messages import UserMessage

SURROGATE_ESCAPED = b"c-\xff".decode("utf-8", "surrogateescape")  # argv's 'c-\udcff'


def test_plain_text_ids_pass_unchanged() -> None:
    for conversation_id in ("c", "", "user@example.com/42", "한국어", "emoji 🙂"):
        assert check_conversation_id(conversation_id) is conversation_id


@pytest.mark.parametrize(
    ("conversation_id", "expected"),
    [
        (
            SURROGATE_ESCAPED,
            "The conversation id 'c-\\udcff' is not valid UTF-8 text (it holds the byte(s) "
            "0xff, as a command-line argument that is not UTF-8 does): use an id of plain "
            "text; nothing was read or written.",
        ),
        (
            "x\ud800",
            "The conversation id 'x\\ud800' is not valid UTF-8 text (it holds the lone "
            "surrogate U+D800): use an id of plain text; nothing was read or written.",
        ),
        (
            "a\x00b",
            "The conversation id 'a\\x00b' holds a NUL character, which PostgreSQL cannot "
            "store: use an id of plain text; nothing was read or written.",
        ),
        (
            42,
            "A conversation id must be a string, got int: 42; nothing was read or written.",
        ),
    ],
)
def test_an_id_no_store_can_hold_is_one_sentence(conversation_id: object, expected: str) -> None:
    with pytest.raises(InvalidConversationIdError) as caught:
        check_conversation_id(conversation_id)
    assert str(caught.value) == expected
    assert isinstance(caught.value, ChatMemoryError)
    assert isinstance(caught.value, ValueError)


def _sqlite(tmp_path: Path) -> ChatMemoryRepository:
    return SqliteChatMemoryRepository(tmp_path / "memory.db")


def _in_memory(tmp_path: Path) -> ChatMemoryRepository:
    return InMemoryChatMemoryRepository()


@pytest.mark.parametrize("make", [_sqlite, _in_memory], ids=["sqlite", "in-memory"])
def test_every_repository_refuses_the_id_before_touching_the_store(
    make: Callable[[Path], ChatMemoryRepository], tmp_path: Path
) -> None:
    repository = make(tmp_path)
    repository.save_all("kept", [UserMessage("already here")])
    memory = MessageWindowChatMemory(repository)
    actions: list[Callable[[], object]] = [
        lambda: repository.find_by_conversation_id(SURROGATE_ESCAPED),
        lambda: repository.save_all(SURROGATE_ESCAPED, [UserMessage("hi")]),
        lambda: repository.delete_by_conversation_id(SURROGATE_ESCAPED),
        lambda: memory.add(SURROGATE_ESCAPED, [UserMessage("hi")]),
        lambda: memory.get(SURROGATE_ESCAPED),
        lambda: memory.clear(SURROGATE_ESCAPED),
    ]
    for action in actions:
        with pytest.raises(InvalidConversationIdError, match="is not valid UTF-8 text"):
            action()
    assert repository.find_conversation_ids() == ["kept"]
    assert repository.find_by_conversation_id("kept") == [UserMessage("already here")]
