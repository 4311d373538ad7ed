"""Chat memory that keeps a turn's messages aside until the turn completes.

springtail's memory advisor, inside the tool loop, saves the user's message
when the turn starts and each tool call as it is answered. A web client can
disconnect halfway, and the service promises that nothing half-written is
saved, so every turn writes into its own buffer (found through a context
variable, which follows the turn into worker threads) and the buffer reaches
the real memory in one ``add`` only when the turn finished.

A turn that pauses for the user's approval (springtail's deferred approvals)
stores its paused turn the same way: buffered, and written after the turn's
messages (``TurnBufferedMemory.commit_paused``). Taking a paused turn
to resume it is never buffered: it is the compare-and-set that makes a
decision run once, so it goes to the store at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime

from springtail import ChatMemory, Message, MessageWindowChatMemory, PausedTurn, ToolCallDecision

__all__ = ["TurnBuffer", "TurnBufferedMemory"]


class TurnBuffer:
    """The messages (and any paused turn) one turn has produced so far, per conversation."""

    __slots__ = ("messages", "paused")

    def __init__(self) -> None:
        self.messages: dict[str, list[Message]] = {}
        self.paused: dict[str, PausedTurn] = {}


_current: ContextVar[TurnBuffer | None] = ContextVar("support_bot_serve_turn", default=None)


class TurnBufferedMemory(ChatMemory):
    """A ``ChatMemory`` whose writes inside ``turn`` wait for ``commit``.

    Outside a turn it writes through, so it can stand in for ``memory``
    anywhere.
    """

    def __init__(self, memory: MessageWindowChatMemory) -> None:
        self._memory = memory

    @contextmanager
    def turn(self) -> Iterator[TurnBuffer]:
        """Buffer this context's writes; the caller commits the buffer when the turn is done."""
        buffer = TurnBuffer()
        token = _current.set(buffer)
        try:
            yield buffer
        finally:
            _current.reset(token)

    def commit(self, buffer: TurnBuffer) -> None:
        """Write what the turn produced, each conversation in one ``add``."""
        for conversation_id, messages in buffer.messages.items():
            if messages:
                self._memory.add(conversation_id, messages)
        buffer.messages.clear()

    def commit_paused(self, buffer: TurnBuffer) -> None:
        """Store the turn's paused turn, once its messages are stored."""
        for conversation_id, turn in buffer.paused.items():
            self._memory.pause(conversation_id, turn)
        buffer.paused.clear()

    def pause(self, conversation_id: str, turn: PausedTurn) -> None:
        """Buffer inside a turn, write through outside one."""
        buffer = _current.get()
        if buffer is None:
            self._memory.pause(conversation_id, turn)
        else:
            buffer.paused[conversation_id] = turn

    def paused_turn(self, conversation_id: str) -> PausedTurn | None:
        """This turn's paused turn, else the stored one."""
        buffer = _current.get()
        if buffer is not None and conversation_id in buffer.paused:
            return buffer.paused[conversation_id]
        return self._memory.paused_turn(conversation_id)

    def take_paused_turn(
        self,
        conversation_id: str,
        decisions: Mapping[str, ToolCallDecision | bool] | None = None,
        *,
        now: datetime | None = None,
    ) -> PausedTurn:
        """Decide and remove the stored paused turn, at once (never buffered: exactly once)."""
        return self._memory.take_paused_turn(conversation_id, decisions, now=now)

    def add(self, conversation_id: str, messages: Sequence[Message]) -> None:
        """Buffer inside a turn, write through outside one."""
        buffer = _current.get()
        if buffer is None:
            self._memory.add(conversation_id, messages)
        else:
            buffer.messages.setdefault(conversation_id, []).extend(messages)

    def get(self, conversation_id: str) -> list[Message]:
        """What is stored, followed by what this turn has added so far."""
        stored = self._memory.get(conversation_id)
        buffer = _current.get()
        if buffer is not None:
            stored.extend(buffer.messages.get(conversation_id, ()))
        return stored

    def clear(self, conversation_id: str) -> None:
        """Forget the stored conversation and this turn's part of it."""
        buffer = _current.get()
        if buffer is not None:
            buffer.messages.pop(conversation_id, None)
            buffer.paused.pop(conversation_id, None)
        self._memory.clear(conversation_id)
