"""TurnBufferedMemory: a turn's messages reach the memory only when it commits."""

from __future__ import annotations

import asyncio

from springtail import AssistantMessage, MessageWindowChatMemory, UserMessage
from support_bot.serve._memory import TurnBufferedMemory


def test_writes_inside_a_turn_wait_for_the_commit() -> None:
    stored = MessageWindowChatMemory(max_messages=10)
    stored.add("c", [UserMessage("earlier")])
    memory = TurnBufferedMemory(stored)
    with memory.turn() as buffer:
        memory.add("c", [UserMessage("now")])
        assert [m.text for m in memory.get("c")] == ["earlier", "now"]  # type: ignore[union-attr]
        assert len(stored.get("c")) == 1
        memory.add("c", [AssistantMessage("answer")])
    assert len(memory.get("c")) == 1  # outside the turn: only what is stored
    memory.commit(buffer)
    assert [m.text for m in stored.get("c")] == ["earlier", "now", "answer"]  # type: ignore[union-attr]


def test_an_abandoned_turn_leaves_nothing_and_outside_a_turn_it_writes_through() -> None:
    stored = MessageWindowChatMemory(max_messages=10)
    memory = TurnBufferedMemory(stored)
    with memory.turn():
        memory.add("c", [UserMessage("half")])
    assert stored.get("c") == []
    memory.add("c", [UserMessage("direct")])
    assert len(stored.get("c")) == 1
    memory.clear("c")
    assert stored.get("c") == []


async def test_the_buffer_follows_the_turn_into_worker_threads() -> None:
    memory = TurnBufferedMemory(MessageWindowChatMemory(max_messages=10))
    with memory.turn() as buffer:
        await asyncio.to_thread(memory.add, "c", [UserMessage("from a thread")])
    assert len(buffer.messages["c"]) == 1
