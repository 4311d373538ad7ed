"""MessageWindowChatMemory: the last N messages of a conversation, always sendable.

Trimming a chat history naively breaks it: cut between an assistant's tool
call and the tool's answer and every provider rejects the next request
("tool result without a tool call", or the reverse). The window therefore
drops whole *units*: an assistant message that calls tools together with the
tool responses that follow it, or any other single message.

A turn that waits for a person's decision (a paused turn) is kept beside the
window, by the repository, not in it: trimming never sees it, so it can never
cut the waiting calls away from their conversation, at any window size. When
the turn resumes, its call and answers join the window as one unit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, cast

from springtail.memory._base import (
    ChatMemory,
    ChatMemoryRepository,
    PausedTurnRepository,
    UpdatableChatMemoryRepository,
)
from springtail.memory._in_memory import InMemoryChatMemoryRepository
from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolResponseMessage,
    UserMessage,
)

if TYPE_CHECKING:
    from springtail.execution._deferred import ToolCallDecision
    from springtail.memory._paused import PausedTurn

__all__ = ["MessageWindowChatMemory", "trim_to_window"]


class MessageWindowChatMemory(ChatMemory):
    """Remembers the most recent ``max_messages`` messages of each conversation.

    Rules (Spring AI's ``MessageWindowChatMemory``, made safe for tool calls):

    * The conversation keeps one system message, always first. Adding a
      different system message replaces it; adding the same one again changes
      nothing.
    * The window never holds more than ``max_messages`` messages, the system
      message included.
    * When it must shrink, it drops the oldest messages, and an assistant
      message with tool calls only together with its tool responses. After
      trimming it also drops what would make the history start in the middle
      of a turn (an assistant reply or an orphaned tool response) as long as
      a user message remains, so the history is valid for every provider.

    Args:
        repository: Where conversations are stored. A repository with an
            ``update(conversation_id, change)`` method (all of springtail's)
            gets the read-trim-write done in one transaction, which keeps
            concurrent writers from losing each other's messages.
        max_messages: The most messages a conversation keeps; at least 1.
    """

    def __init__(
        self,
        repository: ChatMemoryRepository | None = None,
        max_messages: int = 20,
    ) -> None:
        if isinstance(max_messages, bool) or not isinstance(max_messages, int):
            raise TypeError(f"max_messages must be an int, got {type(max_messages).__name__}")
        if max_messages < 1:
            raise ValueError(
                f"max_messages must be at least 1, got {max_messages}; "
                "use clear() to forget a conversation"
            )
        if repository is None:
            repository = InMemoryChatMemoryRepository()
        elif not isinstance(repository, ChatMemoryRepository):
            raise TypeError(
                f"repository must be a ChatMemoryRepository, got {repository!r}; "
                "for a file pass SqliteChatMemoryRepository(path)"
            )
        self._repository: ChatMemoryRepository = repository
        self._updatable = isinstance(self._repository, UpdatableChatMemoryRepository)
        self._max_messages = max_messages

    @property
    def repository(self) -> ChatMemoryRepository:
        """The store the window reads from and writes to."""
        return self._repository

    @property
    def max_messages(self) -> int:
        """The most messages a conversation keeps."""
        return self._max_messages

    def add(self, conversation_id: str, messages: Sequence[Message] | Message) -> None:
        """Append ``messages`` to the conversation and trim it to the window."""
        _check_id(conversation_id)
        new = _as_list(messages)
        if not new:
            return
        max_messages = self._max_messages

        def change(current: list[Message]) -> list[Message]:
            return trim_to_window(current, new, max_messages)

        if self._updatable:
            cast(UpdatableChatMemoryRepository, self._repository).update(conversation_id, change)
        else:
            current = self._repository.find_by_conversation_id(conversation_id)
            self._repository.save_all(conversation_id, change(current))

    def get(self, conversation_id: str) -> list[Message]:
        """The conversation's remembered messages, oldest first (a fresh list)."""
        _check_id(conversation_id)
        return self._repository.find_by_conversation_id(conversation_id)

    def clear(self, conversation_id: str) -> None:
        """Forget the conversation (and the turn it may have paused)."""
        _check_id(conversation_id)
        self._repository.delete_by_conversation_id(conversation_id)

    # -- paused turns --------------------------------------------------------------

    def pause(self, conversation_id: str, turn: PausedTurn) -> None:
        """Keep the conversation's paused turn, beside the window, until it is decided.

        Raises:
            ApprovalConflictError: the conversation waits for a decision already.
            TypeError: the repository cannot keep paused turns.
        """
        _check_id(conversation_id)
        self._paused_turns().save_paused_turn(conversation_id, turn)

    def paused_turn(self, conversation_id: str) -> PausedTurn | None:
        """The conversation's paused turn, or ``None`` (also for a repository without them)."""
        _check_id(conversation_id)
        if not isinstance(self._repository, PausedTurnRepository):
            return None
        return self._repository.find_paused_turn(conversation_id)

    def take_paused_turn(
        self,
        conversation_id: str,
        decisions: Mapping[str, ToolCallDecision | bool] | None = None,
        *,
        now: datetime | None = None,
    ) -> PausedTurn:
        """Decide the paused turn and remove it, exactly once; returns it decided.

        Every call that still waits needs a decision; calls whose deadline
        passed are denied. The check and the removal are one transaction of
        the repository (a compare-and-set): of several requests deciding the
        same turn at once, one gets it and the others an error.

        Raises:
            ApprovalConflictError: nothing waits (or another request took the
                turn first), or a decision names a call that does not wait.
            ValueError: a waiting call has no decision.
        """
        _check_id(conversation_id)
        given = decisions or {}

        def check(turn: PausedTurn) -> PausedTurn:
            return turn.with_decisions(given, now=now, conversation_id=conversation_id)

        return self._paused_turns().take_paused_turn(conversation_id, check)

    def _paused_turns(self) -> PausedTurnRepository:
        repository = self._repository
        if not isinstance(repository, PausedTurnRepository):
            raise TypeError(
                f"The repository {repository!r} cannot keep a paused turn (it has no "
                "find_paused_turn, save_paused_turn and take_paused_turn); use one of "
                "springtail's repositories to defer approvals with chat memory."
            )
        return repository

    def __repr__(self) -> str:
        return (
            f"MessageWindowChatMemory(repository={self._repository!r}, "
            f"max_messages={self._max_messages})"
        )


def _check_id(conversation_id: object) -> None:
    if not isinstance(conversation_id, str) or not conversation_id:
        raise ValueError(f"conversation_id must be a non-empty string, got {conversation_id!r}")


def _as_list(messages: Sequence[Message] | Message) -> list[Message]:
    if isinstance(messages, SystemMessage | UserMessage | AssistantMessage | ToolResponseMessage):
        return [messages]
    if isinstance(messages, str):
        raise TypeError("add() takes messages, not a string; wrap the text: UserMessage(text)")
    result = list(messages)
    for message in result:
        if not isinstance(
            message, SystemMessage | UserMessage | AssistantMessage | ToolResponseMessage
        ):
            raise TypeError(
                f"add() takes springtail messages, got {type(message).__name__}: {message!r}"
            )
    return result


def trim_to_window(
    current: Sequence[Message], new: Sequence[Message], max_messages: int
) -> list[Message]:
    """The window after appending ``new`` to ``current`` (see MessageWindowChatMemory)."""
    system: SystemMessage | None = None
    new_system: SystemMessage | None = None
    for message in new:
        if isinstance(message, SystemMessage):
            new_system = message
    rest: list[Message] = []
    for message in current:
        if isinstance(message, SystemMessage):
            system = message
        else:
            rest.append(message)
    if new_system is not None:
        system = new_system
        rest.extend(m for m in new if not isinstance(m, SystemMessage))
    else:
        rest.extend(new)

    budget = max_messages - (system is not None)
    if len(rest) > budget:
        rest = _drop_oldest(rest, budget)
    return [system, *rest] if system is not None else rest


def _drop_oldest(messages: list[Message], budget: int) -> list[Message]:
    """The newest messages that fit into ``budget``, cut only where a turn may start.

    Cutting right before a user message is always safe. When no user message
    fits (one long tool loop), the cut goes before the first message that is
    not a tool response: that keeps each tool-calling assistant message with
    all the responses that follow it, and drops a group whose head no longer
    fits as a whole.
    """
    tail = messages[len(messages) - budget :]
    for index, message in enumerate(tail):
        if isinstance(message, UserMessage):
            return tail[index:]
    for index, message in enumerate(tail):
        if not isinstance(message, ToolResponseMessage):
            return tail[index:]
    return []
