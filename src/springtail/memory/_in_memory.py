"""InMemoryChatMemoryRepository: conversations in a dict, for one process."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from springtail.memory._ids import check_conversation_id
from springtail.memory._locks import ForkSafeLock
from springtail.messages import Message

if TYPE_CHECKING:
    from springtail.memory._paused import PausedTurn

__all__ = ["InMemoryChatMemoryRepository"]


class InMemoryChatMemoryRepository:
    """Keeps conversations in this process's memory; they end with it.

    Messages are immutable, so they are stored as given, never copied or
    serialized: a read costs one list copy. All methods may be called from
    several threads at once; each is atomic.
    """

    def __init__(self) -> None:
        self._conversations: dict[str, list[Message]] = {}
        self._paused: dict[str, PausedTurn] = {}
        self._lock = ForkSafeLock()

    def find_conversation_ids(self) -> list[str]:
        """Every conversation that holds at least one message, oldest first."""
        with self._lock:
            return list(self._conversations)

    def find_by_conversation_id(self, conversation_id: str) -> list[Message]:
        """A fresh list of the conversation's messages (empty when unknown)."""
        check_conversation_id(conversation_id)
        with self._lock:
            return list(self._conversations.get(conversation_id, ()))

    def save_all(self, conversation_id: str, messages: Sequence[Message]) -> None:
        """Replace the conversation; an empty sequence deletes it."""
        check_conversation_id(conversation_id)
        stored = list(messages)
        with self._lock:
            self._store(conversation_id, stored)

    def delete_by_conversation_id(self, conversation_id: str) -> None:
        """Forget the conversation (a no-op when unknown)."""
        check_conversation_id(conversation_id)
        with self._lock:
            self._conversations.pop(conversation_id, None)
            self._paused.pop(conversation_id, None)

    def update(
        self,
        conversation_id: str,
        change: Callable[[list[Message]], list[Message]],
    ) -> list[Message]:
        """Replace the conversation with ``change(current)`` while holding the lock."""
        check_conversation_id(conversation_id)
        with self._lock:
            current = list(self._conversations.get(conversation_id, ()))
            result = list(change(current))
            self._store(conversation_id, result)
            return list(result)

    def find_paused_turn(self, conversation_id: str) -> PausedTurn | None:
        """The conversation's paused turn, or ``None``."""
        check_conversation_id(conversation_id)
        with self._lock:
            return self._paused.get(conversation_id)

    def save_paused_turn(self, conversation_id: str, turn: PausedTurn) -> None:
        """Keep the conversation's paused turn; one at a time."""
        from springtail.memory._paused import already_paused

        check_conversation_id(conversation_id)
        with self._lock:
            if conversation_id in self._paused:
                raise already_paused(conversation_id)
            self._paused[conversation_id] = turn

    def take_paused_turn(
        self, conversation_id: str, check: Callable[[PausedTurn], PausedTurn]
    ) -> PausedTurn:
        """Remove the paused turn and return ``check(turn)``, atomically."""
        from springtail.memory._paused import nothing_paused

        check_conversation_id(conversation_id)
        with self._lock:
            turn = self._paused.get(conversation_id)
            if turn is None:
                raise nothing_paused(conversation_id)
            decided = check(turn)
            del self._paused[conversation_id]
            return decided

    def _store(self, conversation_id: str, messages: list[Message]) -> None:
        if messages:
            self._conversations[conversation_id] = messages
        else:
            self._conversations.pop(conversation_id, None)

    def __repr__(self) -> str:
        return f"InMemoryChatMemoryRepository(conversations={len(self._conversations)})"
