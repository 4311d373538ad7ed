"""The web service's turns: how many one browser or client may queue, and all-or-nothing saves."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from serve_helpers import Served, post_turn, serve_in_thread
from springtail import ChatModel, ChatOptions, ChatResponse, Prompt, ScriptedChatModel
from support_bot._demo_model import reply_for
from support_bot._store import Store
from support_bot._store_base import StoreError
from support_bot.serve import DemoChatModel


class HeldModel(ChatModel):
    """The demo model's replies, held back until ``release`` is set."""

    def __init__(self) -> None:
        self.default_options = ChatOptions()
        self.release = threading.Event()

    async def acall(self, prompt: Prompt) -> ChatResponse:
        raise NotImplementedError

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        await asyncio.to_thread(self.release.wait)
        async for chunk in ScriptedChatModel([reply_for(prompt)]).astream(prompt):
            yield chunk


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.in_data_dir(tmp_path)


class Turns:
    """Turns sent from threads, each waiting for its first event before the next is sent."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.events: dict[str, list[tuple[str, dict[str, Any]]]] = {}

    def send(self, client: httpx.Client, cid: str) -> None:
        arrived = threading.Event()
        self.events[cid] = []

        def seen(name: str, data: dict[str, Any]) -> None:
            self.events[cid].append((name, data))
            arrived.set()

        def run() -> None:
            try:
                post_turn(client, cid, "hello", on_event=seen)
            finally:
                arrived.set()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self.threads.append(thread)
        assert arrived.wait(10)

    def join(self) -> None:
        for thread in self.threads:
            thread.join(timeout=20)


@pytest.fixture
def held(store: Store) -> Iterator[tuple[Served, HeldModel]]:
    model = HeldModel()
    with serve_in_thread(
        store, model, serial_model=True, forwarded_allow_ips="127.0.0.1"
    ) as served:
        try:
            yield served, model
        finally:
            model.release.set()


def test_one_browser_session_may_have_two_turns_in_progress(
    held: tuple[Served, HeldModel],
) -> None:
    served, model = held
    turns = Turns()
    with served.client() as browser:
        cids = [browser.post("/api/conversations").json()["id"] for _ in range(3)]
        turns.send(browser, cids[0])
        turns.send(browser, cids[1])
        third = browser.post(f"/api/conversations/{cids[2]}/messages", json={"text": "hi"})
        assert third.status_code == 429
        assert third.headers["retry-after"] == "5"
        assert "already has 2 answers in progress" in third.json()["error"]
        model.release.set()
        turns.join()
        # Once they are done, the session may send again.
        assert post_turn(browser, cids[2], "hi")[-1][0] == "done"
    assert [events[-1][0] for events in turns.events.values()] == ["done", "done"]


def test_one_client_may_queue_five_turns_behind_the_serial_model(
    held: tuple[Served, HeldModel],
) -> None:
    """The probe: one client queued 15 turns, and the next user waited at position 14."""
    served, model = held
    turns = Turns()
    browsers = [served.client() for _ in range(7)]
    try:
        cids = [b.post("/api/conversations").json()["id"] for b in browsers]
        for browser, cid in zip(browsers[:6], cids[:6], strict=True):
            turns.send(browser, cid)  # one running, five waiting
        seventh = browsers[6].post(f"/api/conversations/{cids[6]}/messages", json={"text": "hi"})
        assert seventh.status_code == 429
        assert seventh.headers["retry-after"] == "5"
        assert "This client already has 6 answers in progress" in seventh.json()["error"]
        # Another client (behind the trusted proxy) is not held up by that one's share.
        with served.client(headers={"x-forwarded-for": "10.0.0.2"}) as other:
            cid = other.post("/api/conversations").json()["id"]
            turns.send(other, cid)
            queued = [data["position"] for name, data in turns.events[cid] if name == "queued"]
            assert queued[0] == 6
            model.release.set()
            turns.join()
    finally:
        for browser in browsers:
            browser.close()
    assert all(events[-1][0] == "done" for events in turns.events.values())


def test_a_turn_is_saved_with_its_count_or_not_at_all(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting the turn failed after its messages were saved: they are taken back."""

    def locked(self: Store, conversation_id: str, title: str) -> None:
        raise StoreError(f"The database {self.path} is locked by another program.", self.path)

    with serve_in_thread(store, DemoChatModel()) as served, served.client() as client:
        cid = client.post("/api/conversations").json()["id"]
        assert post_turn(client, cid, "first")[-1][0] == "done"
        monkeypatch.setattr(Store, "count_turn", locked)
        failed = post_turn(client, cid, "second")
        monkeypatch.undo()
        history = client.get(f"/api/conversations/{cid}").json()
    assert failed[-1][0] == "error"
    assert failed[-1][1]["message"].endswith(
        "is locked by another program. Nothing was saved; try again."
    )
    assert history["turns"] == 1
    assert [m.get("text") for m in history["messages"] if m["role"] == "user"] == ["first"]
