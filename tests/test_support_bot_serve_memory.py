"""TurnBufferedMemory: a turn's messages reach the memory only when it commits."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from springtail import (
    AssistantMessage,
    MessageWindowChatMemory,
    PausedTurn,
    PendingApproval,
    ToolCall,
    UserMessage,
)
from springtail.memory import PausedTurnMemory
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


def _paused() -> PausedTurn:
    call = ToolCall("r1", "product_reserve", '{"sku": "SKU-100", "quantity": 1}')
    paused_at = datetime(2026, 12, 1, 12, tzinfo=UTC)
    return PausedTurn(AssistantMessage("", (call,)), (PendingApproval(call),), paused_at=paused_at)


def test_a_paused_turn_waits_for_its_commit_and_taking_it_is_immediate() -> None:
    stored = MessageWindowChatMemory(max_messages=10)
    memory = TurnBufferedMemory(stored)
    assert isinstance(memory, PausedTurnMemory)  # the tool loop can pause through it
    with memory.turn() as buffer:
        memory.add("c", [UserMessage("Reserve 1 of SKU-100")])
        memory.pause("c", _paused())
        assert memory.paused_turn("c") == _paused()  # the turn sees its own pause
        assert stored.paused_turn("c") is None
    memory.commit(buffer)
    assert stored.paused_turn("c") is None  # the messages first
    memory.commit_paused(buffer)
    assert stored.paused_turn("c") == _paused()
    with memory.turn():
        taken = memory.take_paused_turn("c", {"r1": True})  # a compare-and-set: never buffered
        assert stored.paused_turn("c") is None
    assert taken.decisions["r1"].approved


def test_an_abandoned_paused_turn_is_never_stored() -> None:
    stored = MessageWindowChatMemory(max_messages=10)
    memory = TurnBufferedMemory(stored)
    with memory.turn():
        memory.pause("c", _paused())
        memory.clear("c")
        assert memory.paused_turn("c") is None
    assert stored.paused_turn("c") is None
