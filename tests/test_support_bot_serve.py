"""support-bot serve over real HTTP: turns as events, approvals, history, cancellation."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from serve_helpers import Served, parse_sse, post_turn, serve_in_thread
from springtail import (
    ChatMemoryError,
    ChatModel,
    ChatOptions,
    ChatResponse,
    Message,
    Prompt,
    ScriptedChatModel,
    SqliteChatMemoryRepository,
    UserMessage,
)
from support_bot._store import Store
from support_bot.serve import DemoChatModel
from support_bot.serve._demo_model import reply_for


class SlowModel(ChatModel):
    """The demo model's replies, one word every ``delay`` seconds (to be interrupted)."""

    def __init__(self, delay: float) -> None:
        self.default_options = ChatOptions()
        self.delay = delay
        self.calls = 0

    async def acall(self, prompt: Prompt) -> ChatResponse:
        raise NotImplementedError

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        self.calls += 1
        async for chunk in ScriptedChatModel([reply_for(prompt)]).astream(prompt):
            await asyncio.sleep(self.delay)
            yield chunk


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.in_data_dir(tmp_path)


@pytest.fixture
def served(store: Store) -> Iterator[Served]:
    with serve_in_thread(store, DemoChatModel(), approval_timeout_s=5.0) as running:
        yield running


def new_conversation(client: httpx.Client) -> str:
    response = client.post("/api/conversations")
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def names(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [name for name, _ in events]


def test_health_and_readiness(served: Served) -> None:
    assert httpx.get(f"{served.url}/healthz").json() == {"status": "ok"}
    ready = httpx.get(f"{served.url}/readyz")
    assert ready.status_code == 200
    assert ready.json()["status"] == "ready"


def test_a_turn_streams_tool_lines_and_text_then_is_remembered(served: Served) -> None:
    with served.client() as client:
        cid = new_conversation(client)
        events = post_turn(client, cid, "What is 128 times 32?")
        assert names(events)[0] == "started"
        assert names(events)[-1] == "done"
        finished = next(data for name, data in events if name == "tool_finished")
        assert finished["name"] == "calculate"
        assert json.loads(finished["arguments"])["left"] == "128"
        assert finished["result"] == "128 * 32 = 4096"
        assert finished["is_error"] is False
        assert finished["duration_s"] >= 0
        deltas = [data["delta"] for name, data in events if name == "text"]
        assert len(deltas) > 1  # streamed, not one block
        assert "".join(deltas) == "Done: 128 * 32 = 4096"

        history = client.get(f"/api/conversations/{cid}").json()
        assert history["title"] == "What is 128 times 32?"
        assert history["turns"] == 1
        roles = [m["role"] for m in history["messages"]]
        assert roles == ["user", "assistant", "tool", "assistant"]
        listed = client.get("/api/conversations").json()["conversations"]
        assert [c["id"] for c in listed] == [cid]


def test_an_approved_reservation_takes_the_stock(served: Served, store: Store) -> None:
    with served.client() as client:
        cid = new_conversation(client)

        def approve(name: str, data: dict[str, Any]) -> None:
            if name == "approval_requested":
                assert data["name"] == "product_reserve"
                assert json.loads(data["arguments"]) == {"sku": "SKU-100", "quantity": 2}
                with served.client(cookies=client.cookies) as other:
                    decided = other.post(
                        f"/api/conversations/{cid}/approvals/{data['approval_id']}",
                        json={"approved": True},
                    )
                assert decided.status_code == 200, decided.text

        events = post_turn(client, cid, "Reserve 2 of SKU-100", on_event=approve)
    decided = next(data for name, data in events if name == "approval_decided")
    assert decided == {**decided, "approved": True, "reason": "user"}
    assert store.product("SKU-100").stock == 10
    assert "10 left in stock" in events[-1][1]["answer"]


def test_a_denied_reservation_reaches_the_model_and_takes_nothing(
    served: Served, store: Store
) -> None:
    with served.client() as client:
        cid = new_conversation(client)

        def deny(name: str, data: dict[str, Any]) -> None:
            if name == "approval_requested":
                with served.client(cookies=client.cookies) as other:
                    other.post(
                        f"/api/conversations/{cid}/approvals/{data['approval_id']}",
                        json={"approved": False},
                    )

        events = post_turn(client, cid, "Reserve 3 of SKU-200", on_event=deny)
    finished = next(data for name, data in events if name == "tool_finished")
    assert finished["is_error"] is True
    assert "declined" in finished["result"] or "denied" in finished["result"].lower()
    assert names(events)[-1] == "done"
    assert store.product("SKU-200").stock == 7


def test_no_answer_in_time_is_a_denial_and_other_conversations_carry_on(store: Store) -> None:
    with serve_in_thread(store, DemoChatModel(), approval_timeout_s=2.0) as served:
        waiting: list[tuple[str, dict[str, Any]]] = []
        asked = threading.Event()

        def record(name: str, data: dict[str, Any]) -> None:
            waiting.append((name, data))
            if name == "approval_requested":
                asked.set()

        with served.client() as first, served.client() as second:
            cid = new_conversation(first)
            other = new_conversation(second)
            worker = threading.Thread(
                target=lambda: post_turn(first, cid, "Reserve 1 of SKU-300", on_event=record)
            )
            worker.start()
            assert asked.wait(10)
            answered = post_turn(second, other, "What is 2 times 3?")
            # Answered while the first conversation still waits for its decision.
            assert "approval_decided" not in [name for name, _ in waiting]
            assert answered[-1][0] == "done"
            worker.join(timeout=10)
    decided = next(data for name, data in waiting if name == "approval_decided")
    assert decided["approved"] is False
    assert decided["reason"] == "timeout"
    assert waiting[-1][0] == "done"
    assert store.product("SKU-300").stock == 4


def test_an_unknown_approval_is_404(served: Served) -> None:
    with served.client() as client:
        cid = new_conversation(client)
        response = client.post(
            f"/api/conversations/{cid}/approvals/nothing-here", json={"approved": True}
        )
    assert response.status_code == 404
    assert "No approval" in response.json()["error"]


def test_a_disconnected_client_cancels_its_turn_and_nothing_is_saved(store: Store) -> None:
    model = SlowModel(delay=0.3)
    with serve_in_thread(store, model) as served, served.client() as client:
        cid = new_conversation(client)
        with client.stream(
            "POST", f"/api/conversations/{cid}/messages", json={"text": "hello there friend"}
        ) as response:
            for name, _ in parse_sse(response.iter_lines()):
                if name == "text":
                    break  # the client goes away mid-answer
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            state = client.get(f"/api/conversations/{cid}").json()
            if not state["running"]:
                break
            time.sleep(0.05)
        assert state["running"] is False
        assert state["messages"] == []
        assert state["turns"] == 0
        # The conversation is free again and works normally.
        model.delay = 0.0
        assert post_turn(client, cid, "again")[-1][0] == "done"
        assert [m["role"] for m in client.get(f"/api/conversations/{cid}").json()["messages"]] == [
            "user",
            "assistant",
        ]


def test_the_serial_model_queues_turns_and_says_where_they_are(store: Store) -> None:
    with serve_in_thread(store, SlowModel(delay=0.3), serial_model=True) as served:
        results: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        clients = [served.client() for _ in range(3)]
        ids = [new_conversation(c) for c in clients]

        arrived = [threading.Event() for _ in range(3)]

        def run(index: int) -> None:
            results[ids[index]] = post_turn(
                clients[index],
                ids[index],
                f"turn number {index}",
                on_event=lambda name, data: arrived[index].set(),
            )

        threads = [threading.Thread(target=run, args=(i,)) for i in range(3)]
        for index, thread in enumerate(threads):
            thread.start()
            assert arrived[index].wait(10)  # in the gate or in line before the next one comes
        for thread in threads:
            thread.join(timeout=20)
        for client in clients:
            client.close()
    positions = [
        [data["position"] for name, data in results[cid] if name == "queued"] for cid in ids
    ]
    assert positions[0] == []
    assert positions[1] == [1]
    assert positions[2][0] == 2
    assert positions[2][-1] == 1
    assert all(results[cid][-1][0] == "done" for cid in ids)


def test_a_second_turn_while_one_runs_is_409(store: Store) -> None:
    with serve_in_thread(store, SlowModel(delay=0.2)) as served, served.client() as client:
        cid = new_conversation(client)
        running = threading.Event()
        worker = threading.Thread(
            target=lambda: post_turn(
                client, cid, "one two three", on_event=lambda name, data: running.set()
            )
        )
        worker.start()
        assert running.wait(10)
        with served.client(cookies=client.cookies) as same_browser:
            busy = same_browser.post(
                f"/api/conversations/{cid}/messages", json={"text": "and another"}
            )
        worker.join(timeout=10)
    assert busy.status_code == 409
    assert "already answering" in busy.json()["error"]


def test_a_failing_model_ends_the_turn_with_an_error_and_saves_nothing(store: Store) -> None:
    model = ScriptedChatModel([RuntimeError("internal detail /secret/path")])
    with serve_in_thread(store, model) as served, served.client() as client:
        cid = new_conversation(client)
        events = post_turn(client, cid, "hello")
        history = client.get(f"/api/conversations/{cid}").json()
    assert events[-1][0] == "error"
    message = events[-1][1]["message"]
    assert "Traceback" not in message
    assert "/secret/path" not in message
    assert "nothing was saved" in message.lower()
    assert history["messages"] == []


def test_the_page_and_its_files_are_served(served: Served) -> None:
    with served.client() as client:
        page = client.get("/")
        script = client.get("/static/app.js")
        missing = client.get("/static/../_app.py")
    assert page.status_code == 200
    assert '<script src="/static/app.js"' in page.text
    assert "sb_session" in page.headers["set-cookie"]
    assert "HttpOnly" in page.headers["set-cookie"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert script.headers["content-type"].startswith("text/javascript")
    assert missing.status_code == 404


def test_a_model_that_fails_to_load_keeps_the_service_unready(store: Store) -> None:
    def broken() -> ChatModel:
        raise RuntimeError("no weights at /models/secret.gguf")

    with serve_in_thread(store, None, load_model=broken) as served, served.client() as client:
        time.sleep(0.2)
        ready = client.get("/readyz")
        cid = new_conversation(client)
        sent = client.post(f"/api/conversations/{cid}/messages", json={"text": "hi"})
    assert ready.status_code == 503
    assert ready.json()["reason"] == "model failed to load"
    assert sent.status_code == 503
    assert sent.json() == {"error": "The model could not be loaded; the server log says why."}


def test_leaving_while_asked_for_approval_cancels_the_turn(store: Store) -> None:
    with serve_in_thread(store, DemoChatModel()) as served, served.client() as client:
        cid = new_conversation(client)
        with client.stream(
            "POST", f"/api/conversations/{cid}/messages", json={"text": "Reserve 1 of SKU-100"}
        ) as response:
            for name, _ in parse_sse(response.iter_lines()):
                if name == "approval_requested":
                    break  # the tab is closed instead of answering
        deadline = time.monotonic() + 5
        while client.get(f"/api/conversations/{cid}").json()["running"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        state = client.get(f"/api/conversations/{cid}").json()
    assert state["messages"] == []
    assert store.product("SKU-100").stock == 12


# -- text that is not Unicode, a locked database, an unreadable conversation (issue 22) ------


def test_a_lone_surrogate_is_422_and_the_conversation_stays_readable(served: Served) -> None:
    with served.client() as client:
        cid = new_conversation(client)
        sent = client.post(
            f"/api/conversations/{cid}/messages", content=b'{"text": "hi \\ud800 there"}'
        )
        history = client.get(f"/api/conversations/{cid}")
    assert sent.status_code == 422
    assert "not valid Unicode" in sent.json()["error"]
    assert history.status_code == 200
    assert history.json()["messages"] == []
    assert history.json()["turns"] == 0


def test_a_lone_surrogate_stored_earlier_is_still_sent(served: Served, store: Store) -> None:
    """A conversation saved by an older version with such text answered 500 from then on."""
    with served.client() as client:
        cid = new_conversation(client)
        store.chat_memory_repository().save_all(cid, [UserMessage("broken \ud800 text")])
        history = client.get(f"/api/conversations/{cid}")
    assert history.status_code == 200
    assert history.json()["messages"] == [{"role": "user", "text": "broken \ud800 text"}]


def test_a_conversation_that_cannot_be_read_says_so(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    def damaged(self: object, conversation_id: str) -> list[Message]:
        raise ChatMemoryError(f"The chat memory of {conversation_id!r} is damaged (row 3).")

    with served.client() as client:
        cid = new_conversation(client)
        monkeypatch.setattr(SqliteChatMemoryRepository, "find_by_conversation_id", damaged)
        answer = client.get(f"/api/conversations/{cid}")
    assert answer.status_code == 503
    assert answer.json() == {"error": f"The chat memory of {cid!r} is damaged (row 3)."}


def test_a_locked_database_is_503_with_the_stores_sentence(
    served: Served, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("support_bot._store.BUSY_TIMEOUT_S", 0.5)
    other_program = sqlite3.connect(store.path, isolation_level=None)
    try:
        other_program.execute("BEGIN EXCLUSIVE")
        with served.client() as client:
            refused = client.post("/api/conversations")
            ready = client.get("/readyz")
        assert refused.status_code == 503
        assert "is locked by another program" in refused.json()["error"]
        assert ready.status_code == 503
        assert ready.json()["status"] == "not ready"
        assert str(store.path) not in ready.text  # health checks reveal no configuration
    finally:
        other_program.close()
    with served.client() as client:
        assert client.get("/readyz").status_code == 200
        assert client.post("/api/conversations").status_code == 201
