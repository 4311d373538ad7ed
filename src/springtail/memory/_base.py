"""The two extension points of chat memory: what the advisor talks to, and where it is kept.

They are split the way Spring AI splits them: a :class:`ChatMemory` decides
*which* messages to remember (a window, a summary, ...), a
:class:`ChatMemoryRepository` only stores whole conversations. Any memory
policy can then run on any store.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol, runtime_checkable

from springtail.messages import Message

__all__ = ["ChatMemory", "ChatMemoryError", "ChatMemoryRepository"]


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
    :attr:`CONVERSATION_ID`, the advisor parameter that picks the
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
    """Stores whole conversations; the memory policy lives in :class:`ChatMemory`."""

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

    :class:`MessageWindowChatMemory` uses :meth:`update` when a repository has
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
