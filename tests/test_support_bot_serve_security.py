"""support-bot serve is safe by default: token, sessions, limits, no stack traces."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from serve_helpers import Served, post_turn, serve_in_thread
from support_bot._store import Store
from support_bot.serve import DemoChatModel, ServeConfig, ServeConfigError
from support_bot.serve._config import is_loopback
from support_bot.serve._security import RateLimiter

TOKEN = "a-test-token-that-is-long-enough"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.in_data_dir(tmp_path)


@pytest.fixture
def served(store: Store) -> Iterator[Served]:
    with serve_in_thread(store, DemoChatModel(), max_body_bytes=2048, max_message_chars=200) as s:
        yield s


@pytest.fixture
def guarded(store: Store) -> Iterator[Served]:
    with serve_in_thread(store, DemoChatModel(), token=TOKEN) as s:
        yield s


def test_other_interfaces_need_a_token() -> None:
    with pytest.raises(ServeConfigError, match="needs a token"):
        ServeConfig(host="0.0.0.0")
    with pytest.raises(ServeConfigError, match="too short"):
        ServeConfig(host="0.0.0.0", token="short")
    assert ServeConfig(host="0.0.0.0", token=TOKEN).token == TOKEN
    assert all(is_loopback(host) for host in ("127.0.0.1", "::1", "localhost"))
    assert not any(is_loopback(host) for host in ("0.0.0.0", "example.com"))


def test_the_command_refuses_a_public_host_without_a_token(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "support_bot",
            "serve",
            "--host",
            "0.0.0.0",
            "--model",
            "scripted:demo",
            "--data-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert result.returncode == 2
    assert "needs a token" in result.stderr
    assert "Traceback" not in result.stderr


def test_requests_without_the_token_get_401(guarded: Served) -> None:
    refused = httpx.post(f"{guarded.url}/api/conversations")
    assert refused.status_code == 401
    assert "access token" in refused.json()["error"]
    assert httpx.get(f"{guarded.url}/").status_code == 401
    wrong = httpx.post(f"{guarded.url}/api/conversations", headers={"authorization": "Bearer nope"})
    assert wrong.status_code == 401
    # Health checks stay open for load balancers.
    assert httpx.get(f"{guarded.url}/healthz").status_code == 200


def test_the_token_opens_the_api_and_the_page(guarded: Served) -> None:
    with guarded.client(headers={"authorization": f"Bearer {TOKEN}"}) as api:
        cid = api.post("/api/conversations").json()["id"]
        assert post_turn(api, cid, "hello")[-1][0] == "done"
    with guarded.client(follow_redirects=False) as browser:
        login = browser.get("/", params={"token": TOKEN})
        assert login.status_code == 303
        assert login.headers["location"] == "/"  # the token leaves the address bar
        assert browser.get("/").status_code == 200  # the cookie carries it from now on
        assert browser.post("/api/conversations").status_code == 201


def test_conversation_ids_are_unguessable(served: Served) -> None:
    with served.client() as client:
        ids = {client.post("/api/conversations").json()["id"] for _ in range(5)}
    assert len(ids) == 5
    assert all(len(cid) == 24 and cid.startswith("c-") for cid in ids)


def test_one_session_cannot_read_or_use_another_sessions_conversation(served: Served) -> None:
    with served.client() as alice, served.client() as mallory:
        cid = alice.post("/api/conversations").json()["id"]
        post_turn(alice, cid, "my secret order")
        mallory.get("/")  # mallory has a session of her own
        assert mallory.get(f"/api/conversations/{cid}").status_code == 404
        sent = mallory.post(f"/api/conversations/{cid}/messages", json={"text": "hi"})
        assert sent.status_code == 404
        approve = mallory.post(f"/api/conversations/{cid}/approvals/x", json={"approved": True})
        assert approve.status_code == 404
        assert mallory.get("/api/conversations").json()["conversations"] == []
        anonymous = httpx.get(f"{served.url}/api/conversations/{cid}")
        assert anonymous.status_code == 404
        assert alice.get(f"/api/conversations/{cid}").status_code == 200


def test_oversized_bodies_and_messages_get_413(served: Served) -> None:
    with served.client() as client:
        cid = client.post("/api/conversations").json()["id"]
        big = client.post(f"/api/conversations/{cid}/messages", json={"text": "x" * 5000})
        assert big.status_code == 413
        assert "larger than 2048 bytes" in big.json()["error"]

        def chunks() -> Iterator[bytes]:
            yield b'{"text": "'
            for _ in range(10):
                yield b"y" * 500
            yield b'"}'

        chunked = client.post(f"/api/conversations/{cid}/messages", content=chunks())
        assert chunked.status_code == 413
        long = client.post(f"/api/conversations/{cid}/messages", json={"text": "z" * 300})
        assert long.status_code == 413
        assert "longer than 200 characters" in long.json()["error"]
        empty = client.post(f"/api/conversations/{cid}/messages", json={"text": "  "})
        assert empty.status_code == 422
        garbage = client.post(f"/api/conversations/{cid}/messages", content=b"{nope")
        assert garbage.status_code == 400
        assert client.get(f"/api/conversations/{cid}").json()["messages"] == []


def test_a_full_conversation_gets_409(store: Store) -> None:
    with serve_in_thread(store, DemoChatModel(), max_turns=2) as served, served.client() as c:
        cid = c.post("/api/conversations").json()["id"]
        post_turn(c, cid, "one")
        post_turn(c, cid, "two")
        full = c.post(f"/api/conversations/{cid}/messages", json={"text": "three"})
    assert full.status_code == 409
    assert "start a new conversation" in full.json()["error"]


def test_each_client_has_a_rate_limit(store: Store) -> None:
    with (
        serve_in_thread(store, DemoChatModel(), rate_limit_per_min=5) as served,
        served.client() as client,
    ):
        codes = [client.get("/api/conversations").status_code for _ in range(7)]
        limited = client.get("/api/conversations")
    assert codes[:5] == [200] * 5
    assert codes[5:] == [429, 429]
    assert int(limited.headers["retry-after"]) >= 1
    assert "Too many requests" in limited.json()["error"]


def test_the_rate_limiter_refills_over_time() -> None:
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])
    assert all(limiter.allow("a") == 0 for _ in range(60))
    assert limiter.allow("a") > 0
    assert limiter.allow("b") == 0  # another client has its own bucket
    now[0] += 1.0
    assert limiter.allow("a") == 0


def test_a_server_failure_is_one_sentence_without_a_stack_trace(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("internal detail /srv/secret")

    with serve_in_thread(store, DemoChatModel()) as served, served.client() as client:
        monkeypatch.setattr(Store, "add_conversation", broken)
        response = client.post("/api/conversations")
    assert response.status_code == 500
    assert response.json() == {
        "error": "Something went wrong on the server; the details are in its log."
    }
