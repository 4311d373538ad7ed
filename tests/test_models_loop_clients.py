"""Providers keep one SDK client per event loop, and say which extra is missing."""

import asyncio

import pytest

from springtail.models import ModelUnavailableError
from springtail.models._loop_clients import LoopClients, import_sdk


def test_one_client_per_loop_reused_within_a_loop() -> None:
    made: list[object] = []

    def factory() -> object:
        made.append(object())
        return made[-1]

    clients = LoopClients(factory)

    async def twice() -> tuple[object, object]:
        return clients.get(), clients.get()

    first = asyncio.run(twice())
    second = asyncio.run(twice())
    assert first[0] is first[1]
    assert second[0] is second[1]
    assert first[0] is not second[0]
    assert len(made) == 2


def test_pop_forgets_the_running_loops_client() -> None:
    clients = LoopClients(object)

    async def cycle() -> tuple[object, object | None, object | None, object]:
        client = clients.get()
        popped = clients.pop()
        again = clients.pop()
        return client, popped, again, clients.get()

    client, popped, again, fresh = asyncio.run(cycle())
    assert popped is client
    assert again is None
    assert fresh is not client


def test_a_missing_sdk_names_the_extra_to_install() -> None:
    with pytest.raises(ModelUnavailableError, match=r"pip install 'springtail\[nothing\]'"):
        import_sdk("springtail_no_such_sdk", "nothing")
