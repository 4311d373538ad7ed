"""ModelGate: one turn at a time for the embedded model, the others in order with positions."""

from __future__ import annotations

import asyncio

import pytest

from support_bot.serve._gate import ModelGate


async def test_waiters_enter_in_order_and_learn_their_position() -> None:
    gate = ModelGate(1)
    seen: dict[str, list[int]] = {"b": [], "c": []}
    order: list[str] = []
    await gate.acquire(lambda p: None)

    async def turn(name: str) -> None:
        await gate.acquire(seen[name].append)
        order.append(name)

    b = asyncio.create_task(turn("b"))
    await asyncio.sleep(0)
    c = asyncio.create_task(turn("c"))
    await asyncio.sleep(0)
    assert (gate.running, gate.waiting) == (1, 2)
    gate.release()
    await b
    assert seen == {"b": [1], "c": [2, 1]}
    gate.release()
    await c
    assert order == ["b", "c"]
    gate.release()
    assert (gate.running, gate.waiting) == (0, 0)


async def test_a_cancelled_waiter_leaves_the_line_and_moves_the_others_up() -> None:
    gate = ModelGate(1)
    await gate.acquire(lambda p: None)
    positions: list[int] = []
    leaving = asyncio.create_task(gate.acquire(lambda p: None))
    await asyncio.sleep(0)
    staying = asyncio.create_task(gate.acquire(positions.append))
    await asyncio.sleep(0)
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    assert positions == [2, 1]
    gate.release()
    await staying
    assert (gate.running, gate.waiting) == (1, 0)


async def test_a_waiter_cancelled_as_it_is_admitted_passes_its_place_on() -> None:
    gate = ModelGate(1)
    await gate.acquire(lambda p: None)
    first = asyncio.create_task(gate.acquire(lambda p: None))
    second = asyncio.create_task(gate.acquire(lambda p: None))
    await asyncio.sleep(0)
    gate.release()  # admits first...
    first.cancel()  # ...which is cancelled before it runs
    with pytest.raises(asyncio.CancelledError):
        await first
    await asyncio.wait_for(second, 1)
    assert gate.running == 1


def test_capacity_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        ModelGate(0)
