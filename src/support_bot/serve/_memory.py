"""Chat memory that keeps a turn's messages aside until the turn completes.

springtail's memory advisor, inside the tool loop, saves the user's message
when the turn starts and each tool call as it is answered. A web client can
disconnect halfway, and the service promises that nothing half-written is
saved, so every turn writes into its own buffer (found through a context
variable, which follows the turn into worker threads) and the buffer reaches
the real memory in one ``add`` only when the turn finished.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from springtail import ChatMemory, Message

__all__ = ["TurnBuffer", "TurnBufferedMemory"]


class TurnBuffer:
    """The messages one turn has produced so far, per conversation."""

    __slots__ = ("messages",)

    def __init__(self) -> None:
        self.messages: dict[str, list[Message]] = {}


_current: ContextVar[TurnBuffer | None] = ContextVar("support_bot_serve_turn", default=None)


class TurnBufferedMemory(ChatMemory):
    """A :class:`ChatMemory` whose writes inside :meth:`turn` wait for :meth:`commit`.

    Outside a turn it writes through, so it can stand in for ``memory``
    anywhere.
    """

    def __init__(self, memory: ChatMemory) -> None:
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
        self._memory.clear(conversation_id)
