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


class _Client:
    def __init__(self) -> None:
        self.closed = 0

    async def close(self) -> None:
        self.closed += 1


def test_a_loops_client_is_closed_when_the_loop_shuts_down() -> None:
    clients: LoopClients[_Client] = LoopClients(_Client)

    async def use() -> _Client:
        return clients.get()

    client = asyncio.run(use())
    assert client.closed == 1


def test_a_client_popped_and_closed_by_the_provider_is_not_closed_again() -> None:
    clients: LoopClients[_Client] = LoopClients(_Client)

    async def use_and_close() -> _Client:
        client = clients.get()
        popped = clients.pop()
        assert popped is client
        await client.close()
        return client

    assert asyncio.run(use_and_close()).closed == 1


def test_a_sync_calls_private_loop_closes_its_clients_when_its_thread_ends() -> None:
    import threading

    from springtail._sync import run_sync

    clients: LoopClients[_Client] = LoopClients(_Client)
    made: list[_Client] = []

    async def use() -> None:
        made.append(clients.get())

    def two_sync_calls() -> None:
        run_sync(use())
        run_sync(use())

    thread = threading.Thread(target=two_sync_calls)
    thread.start()
    thread.join()
    assert made[0] is made[1]  # one client for the thread's sync calls
    assert made[0].closed == 1  # closed with the thread's loop
