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

from serve_helpers import Served, parse_sse, post_decisions, post_turn, serve_in_thread
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
from support_bot._demo_model import reply_for
from support_bot._store import Store
from support_bot.serve import DemoChatModel


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


def pause_a_reservation(
    client: httpx.Client, cid: str, text: str = "Reserve 2 of SKU-100"
) -> dict[str, Any]:
    """Send a reservation; the turn ends waiting for the decision. The approval_requested data."""
    events = post_turn(client, cid, text)
    assert names(events)[-2:] == ["approval_requested", "done"]
    assert events[-1][1]["paused"] is True
    requested = events[-2][1]
    assert requested["name"] == "product_reserve"
    assert requested["approval_id"] == requested["id"]  # decisions name the call itself
    return requested


def test_a_reservation_waits_stored_and_the_decision_resumes_it(
    served: Served, store: Store
) -> None:
    with served.client() as client:
        cid = new_conversation(client)
        requested = pause_a_reservation(client, cid)
        assert json.loads(requested["arguments"]) == {"sku": "SKU-100", "quantity": 2}
        assert 0 < requested["timeout_s"] <= 5
        assert store.product("SKU-100").stock == 12  # nothing before the decision

        waiting = client.get(f"/api/conversations/{cid}").json()
        assert waiting["running"] is False  # nothing holds this process while it waits
        assert [p["id"] for p in waiting["pending"]] == [requested["id"]]
        assert [m["role"] for m in waiting["messages"]] == ["user"]

        refused = client.post(f"/api/conversations/{cid}/messages", json={"text": "hello"})
        assert refused.status_code == 409
        assert "waits for a decision on product_reserve" in refused.json()["error"]

        events = post_decisions(client, cid, {requested["id"]: True})
        assert events[0] == (
            "approval_decided",
            {"approval_id": requested["id"], "approved": True, "reason": "user"},
        )
        finished = next(data for name, data in events if name == "tool_finished")
        assert "reservation R-1; 10 left in stock" in finished["result"]
        assert names(events)[-1] == "done"
        assert events[-1][1]["paused"] is False
        assert "10 left in stock" in events[-1][1]["answer"]
        assert store.product("SKU-100").stock == 10

        after = client.get(f"/api/conversations/{cid}").json()
        assert after["pending"] == []
        assert after["turns"] == 1  # the resumed turn is the same turn
        assert [m["role"] for m in after["messages"]] == ["user", "assistant", "tool", "assistant"]

        again = client.post(
            f"/api/conversations/{cid}/approvals/{requested['id']}", json={"approved": True}
        )
        assert again.status_code == 409
        assert "Nothing waits for approval" in again.json()["error"]
    assert store.product("SKU-100").stock == 10


def test_a_denied_reservation_reaches_the_model_and_takes_nothing(
    served: Served, store: Store
) -> None:
    with served.client() as client:
        cid = new_conversation(client)
        requested = pause_a_reservation(client, cid, "Reserve 3 of SKU-200")
        response = client.stream(
            "POST",
            f"/api/conversations/{cid}/approvals/{requested['id']}",
            json={"approved": False},
        )
        with response as stream:
            events = list(parse_sse(stream.iter_lines()))
    finished = next(data for name, data in events if name == "tool_finished")
    assert finished["is_error"] is True
    assert "was not approved (the person declined it)" in finished["result"]
    assert names(events)[-1] == "done"
    assert store.product("SKU-200").stock == 7


def test_after_the_deadline_a_decision_is_refused_and_the_chat_goes_on(store: Store) -> None:
    with (
        serve_in_thread(store, DemoChatModel(), approval_timeout_s=0.2) as served,
        served.client() as client,
    ):
        cid = new_conversation(client)
        requested = pause_a_reservation(client, cid, "Reserve 1 of SKU-300")
        time.sleep(0.3)
        assert client.get(f"/api/conversations/{cid}").json()["pending"] == []
        late = client.post(
            f"/api/conversations/{cid}/approvals", json={"decisions": {requested["id"]: True}}
        )
        assert late.status_code == 409
        assert "expired" in late.json()["error"]
        events = post_turn(client, cid, "hello")
        assert events[-1][1]["answer"] == "You said: hello"
        history = client.get(f"/api/conversations/{cid}").json()["messages"]
    assert [m["role"] for m in history] == ["user", "assistant", "tool", "user", "assistant"]
    assert "its approval expired" in history[2]["responses"][0]["result"]
    assert store.product("SKU-300").stock == 4


def test_a_reservation_asked_before_a_restart_is_decided_after_it(store: Store) -> None:
    key = b"k" * 32  # the session key a real server keeps in its data folder across restarts
    with (
        serve_in_thread(store, DemoChatModel(), session_key=key) as before,
        before.client() as client,
    ):
        cid = new_conversation(client)
        requested = pause_a_reservation(client, cid)
        cookies = client.cookies
    with (
        serve_in_thread(store, DemoChatModel(), session_key=key) as after,
        after.client(cookies=cookies) as client,
    ):
        assert [p["id"] for p in client.get(f"/api/conversations/{cid}").json()["pending"]] == [
            requested["id"]
        ]
        events = post_decisions(client, cid, {requested["id"]: True})
    assert "10 left in stock" in events[-1][1]["answer"]
    assert store.product("SKU-100").stock == 10


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"decisions": {}}, 422, "one for every call that waits"),
        ({"decisions": {"x": "yes"}}, 422, "one for every call that waits"),
        ({"approved": True}, 422, "one for every call that waits"),
        ({"decisions": {"no-such-call": True}}, 409, "does not wait for approval"),
    ],
)
def test_decisions_that_do_not_fit_are_refused_in_one_sentence(
    served: Served, body: dict[str, Any], status: int, message: str
) -> None:
    with served.client() as client:
        cid = new_conversation(client)
        pause_a_reservation(client, cid)
        response = client.post(f"/api/conversations/{cid}/approvals", json=body)
        assert response.status_code == status, response.text
        assert message in response.json()["error"]
        assert len(client.get(f"/api/conversations/{cid}").json()["pending"]) == 1


def test_a_decision_where_nothing_waits_is_409(served: Served) -> None:
    with served.client() as client:
        cid = new_conversation(client)
        response = client.post(
            f"/api/conversations/{cid}/approvals/nothing-here", json={"approved": True}
        )
    assert response.status_code == 409
    assert "Nothing waits for approval" in response.json()["error"]


def test_twenty_identical_decisions_at_once_reserve_once(served: Served, store: Store) -> None:
    with served.client() as client:
        cid = new_conversation(client)
        requested = pause_a_reservation(client, cid)
        statuses: list[int] = []
        lock = threading.Lock()

        def decide() -> None:
            with served.client(cookies=client.cookies) as other:
                response = other.post(
                    f"/api/conversations/{cid}/approvals",
                    json={"decisions": {requested["id"]: True}},
                )
                response.read()
            with lock:
                statuses.append(response.status_code)

        threads = [threading.Thread(target=decide) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert sorted(statuses) == [200] + [409] * 19
    assert store.product("SKU-100").stock == 10


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


def test_leaving_while_asked_for_approval_leaves_the_reservation_waiting(store: Store) -> None:
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
    # The question was stored before it was asked: the page asks it again after a reload.
    assert state["messages"] == [{"role": "user", "text": "Reserve 1 of SKU-100"}]
    assert [p["name"] for p in state["pending"]] == ["product_reserve"]
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
