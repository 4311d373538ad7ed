"""The two extension points of chat memory: what the advisor talks to, and where it is kept.

They are split the way Spring AI splits them: a ``ChatMemory`` decides
*which* messages to remember (a window, a summary, ...), a
``ChatMemoryRepository`` only stores whole conversations. Any memory
policy can then run on any store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from springtail.messages import Message

if TYPE_CHECKING:
    from springtail.execution._deferred import ToolCallDecision
    from springtail.memory._paused import PausedTurn

__all__ = [
    "ChatMemory",
    "ChatMemoryError",
    "ChatMemoryRepository",
    "PausedTurnMemory",
    "PausedTurnRepository",
    "UpdatableChatMemoryRepository",
]


class ChatMemoryError(RuntimeError):
    """A chat memory store could not be read or written.

    Raised instead of the driver's own error so that the message can name the
    store and say what to do; the store itself is left as it was (a failed
    write is rolled back), so nothing already remembered is lost.
    """


@runtime_checkable
class ChatMemory(Protocol):
    """What a conversation remembers between requests.

    Implementations subclass this protocol so that they inherit
    ``CONVERSATION_ID``, the advisor parameter that picks the
    conversation of one request.
    """

    CONVERSATION_ID: ClassVar[str] = "chat_memory_conversation_id"

    def add(self, conversation_id: str, messages: Sequence[Message]) -> None:
        """Remember ``messages`` after what the conversation already holds."""
        ...

    def get(self, conversation_id: str) -> list[Message]:
        """The messages to send with the conversation's next request, oldest first."""
        ...

    def clear(self, conversation_id: str) -> None:
        """Forget the conversation."""
        ...


@runtime_checkable
class ChatMemoryRepository(Protocol):
    """Stores whole conversations; the memory policy lives in [`ChatMemory`][]."""

    def find_conversation_ids(self) -> list[str]:
        """Every conversation that holds at least one message."""
        ...

    def find_by_conversation_id(self, conversation_id: str) -> list[Message]:
        """The conversation's messages, oldest first (empty when unknown)."""
        ...

    def save_all(self, conversation_id: str, messages: Sequence[Message]) -> None:
        """Replace the conversation with ``messages``, atomically.

        Readers see either the old conversation or the new one, never a mix.
        Saving an empty sequence deletes the conversation.
        """
        ...

    def delete_by_conversation_id(self, conversation_id: str) -> None:
        """Forget the conversation (a no-op when unknown)."""
        ...


@runtime_checkable
class UpdatableChatMemoryRepository(ChatMemoryRepository, Protocol):
    """A repository that can read, change and write one conversation atomically.

    ``MessageWindowChatMemory`` uses ``update`` when a repository has
    it, so two processes adding to the same conversation at the same time
    cannot overwrite each other's messages (a plain find-then-save would lose
    one of the two additions).
    """

    def update(
        self,
        conversation_id: str,
        change: Callable[[list[Message]], list[Message]],
    ) -> list[Message]:
        """Replace the conversation with ``change(current)`` in one transaction.

        Returns what was saved. ``change`` may run more than once if the store
        retries, so it must not have side effects.
        """
        ...


@runtime_checkable
class PausedTurnRepository(Protocol):
    """A repository that also keeps each conversation's paused turn, beside its messages.

    A conversation has at most one paused turn (a turn that waits for a
    person's decision). [`take_paused_turn`][] is the compare-and-set that
    makes a decision run exactly once: it checks and removes the stored turn
    in one transaction holding the conversation's lock, so of two processes
    resuming the same turn at the same moment one gets it and the other an
    [`ApprovalConflictError`][springtail.execution.ApprovalConflictError].
    """

    def find_paused_turn(self, conversation_id: str) -> PausedTurn | None:
        """The conversation's paused turn, or ``None``."""
        ...

    def save_paused_turn(self, conversation_id: str, turn: PausedTurn) -> None:
        """Store the conversation's paused turn.

        Raises:
            ApprovalConflictError: the conversation has a paused turn already.
        """
        ...

    def take_paused_turn(
        self, conversation_id: str, check: Callable[[PausedTurn], PausedTurn]
    ) -> PausedTurn:
        """Remove the paused turn and return ``check(turn)``, in one transaction.

        ``check`` raises to leave the turn stored (nothing changes).

        Raises:
            ApprovalConflictError: no paused turn is stored (none paused, or
                another request took it first).
        """
        ...


@runtime_checkable
class PausedTurnMemory(Protocol):
    """A [`ChatMemory`][] that keeps a conversation's paused turn (the tool loop uses it).

    ``MessageWindowChatMemory`` is one when its repository is a
    [`PausedTurnRepository`][] (all of springtail's are).
    """

    def pause(self, conversation_id: str, turn: PausedTurn) -> None:
        """Keep ``turn`` until a request decides it."""
        ...

    def paused_turn(self, conversation_id: str) -> PausedTurn | None:
        """The conversation's paused turn, or ``None``."""
        ...

    def take_paused_turn(
        self,
        conversation_id: str,
        decisions: Mapping[str, ToolCallDecision | bool] | None = None,
        *,
        now: datetime | None = None,
    ) -> PausedTurn:
        """Decide the paused turn and remove it from the store, exactly once."""
        ...
