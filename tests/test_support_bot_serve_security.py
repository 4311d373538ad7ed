"""support-bot serve is safe by default: token, sessions, limits, no stack traces."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from serve_helpers import Served, post_turn, serve_in_thread
from springtail.mcp._access import is_loopback
from support_bot._store import Store
from support_bot.serve import DemoChatModel, ServeConfig, ServeConfigError
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


# -- DNS rebinding and other sites' pages (issue 22) ---------------------------------


def port_of(served: Served) -> int:
    return int(served.url.rsplit(":", 1)[1])


def test_a_page_on_another_site_cannot_drive_the_bot(served: Served, store: Store) -> None:
    """The probe: a rebinding page (its own Host and Origin, text/plain bodies) reserves stock."""
    before = store.product("SKU-300").stock
    port = port_of(served)
    rebound = {"host": f"attacker.example:{port}", "origin": f"http://attacker.example:{port}"}
    with httpx.Client(base_url=served.url) as page:
        opened = page.get("/", headers=rebound)
        assert opened.status_code == 421
        assert "set-cookie" not in opened.headers
        assert "attacker.example" in opened.json()["error"]
        plain = {**rebound, "content-type": "text/plain"}
        assert page.post("/api/conversations", headers=plain).status_code == 421
        body = b'{"text": "reserve 3 of SKU-300"}'
        sent = page.post("/api/conversations/c-x/messages", headers=plain, content=body)
        assert sent.status_code == 421
    # Another site's page under our own name (no rebinding, a cross-site request) is refused too.
    with httpx.Client(base_url=served.url) as page:
        cross = page.post(
            "/api/conversations",
            headers={"origin": "http://attacker.example", "content-type": "application/json"},
        )
        assert cross.status_code == 403
        assert cross.json() == {"error": "Requests from other web sites are not accepted here."}
        assert page.post("/api/conversations", headers={"origin": "null"}).status_code == 403
    # A form or text/plain body, which any page may send without asking, is not JSON: 415.
    with served.client() as browser:
        browser.get("/")
        plain_post = browser.post("/api/conversations", headers={"content-type": "text/plain"})
        assert plain_post.status_code == 415
        assert "application/json" in plain_post.json()["error"]
    form = httpx.post(f"{served.url}/api/conversations", data={"a": "b"})
    assert form.status_code == 415
    assert store.product("SKU-300").stock == before


def test_the_page_itself_and_its_loopback_names_are_answered(served: Served) -> None:
    port = port_of(served)
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        origin = {"host": host, "origin": f"http://{host}"}
        with served.client(headers=origin) as browser:
            assert browser.get("/").status_code == 200
            assert browser.post("/api/conversations").status_code == 201
    # Health checks answer any name: a load balancer probes by address, and they tell nothing.
    assert httpx.get(f"{served.url}/healthz", headers={"host": "10.0.0.7"}).status_code == 200


def test_allowed_host_names_a_proxy(store: Store) -> None:
    with serve_in_thread(store, DemoChatModel(), allowed_hosts=("Shop.Example",)) as served:
        proxied = {"host": "shop.example", "origin": "https://shop.example"}
        with served.client(headers=proxied) as browser:
            assert browser.get("/").status_code == 200
            assert browser.post("/api/conversations").status_code == 201
        other = {"host": "other.example"}
        assert httpx.get(f"{served.url}/", headers=other).status_code == 421
    with pytest.raises(ServeConfigError, match="is not a host name"):
        ServeConfig(allowed_hosts=("https://shop.example/",))


# -- the token ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        ("a" * 15, "too short"),
        ("a" * 16, "repeats a few characters"),
        ("abab" * 8, "repeats a few characters"),
        ("a long token with spaces in it", "without spaces"),
        ('quoted"token-1234567890', "without spaces, quotes"),
        ("tab\ttoken-1234567890", "without spaces"),
        ("tökén-with-ümlauts-123", "printable ASCII"),
    ],
)
def test_weak_or_unsendable_tokens_are_refused_at_start(token: str, problem: str) -> None:
    with pytest.raises(ServeConfigError, match=problem):
        ServeConfig(token=token)


def test_a_token_of_any_cookie_safe_characters_logs_in(store: Store) -> None:
    """The ``/?token=`` login's cookie carries the token as it is (it was read back wrongly)."""
    token = "Tok3n-!#$%&'()*+-./:<=>?@[]^_`{|}~"
    with (
        serve_in_thread(store, DemoChatModel(), token=token) as served,
        served.client(follow_redirects=False) as browser,
    ):
        assert browser.get("/", params={"token": token}).status_code == 303
        assert browser.get("/").status_code == 200
        assert browser.post("/api/conversations").status_code == 201
        with served.client(headers={"authorization": f"Bearer {token}"}) as api:
            assert api.get("/api/conversations").status_code == 200


def test_wrong_tokens_are_rate_limited(guarded: Served) -> None:
    with guarded.client() as guesser:
        codes = [
            guesser.get("/api/conversations", headers={"authorization": f"Bearer guess-{i}"})
            for i in range(15)
        ]
        logins = [guesser.get("/", params={"token": "guess"}).status_code for _ in range(3)]
        # Guessing is paused for this client, even for the right token; no guess is tried.
        right = guesser.get("/api/conversations", headers={"authorization": f"Bearer {TOKEN}"})
        # A request without any token is not a guess: it gets the 401 that explains.
        bare = guesser.get("/api/conversations")
    assert [c.status_code for c in codes] == [401] * 10 + [429] * 5
    assert int(codes[-1].headers["retry-after"]) >= 1
    assert "Too many wrong tokens" in codes[-1].json()["error"]
    assert logins == [429] * 3
    assert right.status_code == 429
    assert bare.status_code == 401


def test_every_request_counts_against_the_rate_limit_tokens_or_not(store: Store) -> None:
    with serve_in_thread(store, DemoChatModel(), token=TOKEN, rate_limit_per_min=5) as served:
        codes = [httpx.get(f"{served.url}/api/conversations").status_code for _ in range(7)]
    assert codes == [401] * 5 + [429] * 2


# -- the client's address -----------------------------------------------------------


def test_forwarded_for_is_not_trusted_by_default(store: Store) -> None:
    with serve_in_thread(store, DemoChatModel(), rate_limit_per_min=5) as served:
        codes = [
            httpx.get(
                f"{served.url}/api/conversations", headers={"x-forwarded-for": f"10.0.0.{i}"}
            ).status_code
            for i in range(7)
        ]
    assert codes == [200] * 5 + [429] * 2


def test_forwarded_for_names_the_client_behind_a_trusted_proxy(store: Store) -> None:
    with serve_in_thread(
        store, DemoChatModel(), rate_limit_per_min=5, forwarded_allow_ips="127.0.0.1"
    ) as served:
        codes = [
            httpx.get(
                f"{served.url}/api/conversations", headers={"x-forwarded-for": f"10.0.0.{i}"}
            ).status_code
            for i in range(7)
        ]
    assert codes == [200] * 7


# -- sessions -------------------------------------------------------------------------


def test_only_sessions_the_server_issued_are_accepted(served: Served) -> None:
    fixed = "A" * 43  # a value chosen from outside (session fixation)
    with served.client(cookies={"sb_session": fixed}) as victim:
        created = victim.post("/api/conversations")
        assert created.status_code == 201
        issued = created.cookies.get("sb_session")
        assert issued is not None
        assert issued != fixed
        cid = created.json()["id"]
    with served.client(cookies={"sb_session": fixed}) as attacker:
        assert attacker.get(f"/api/conversations/{cid}").status_code == 404
        assert attacker.get("/api/conversations").json()["conversations"] == []
    forged = issued.rsplit(".", 1)[0] + ".AAAAAAAAAAAAAAAAAAAAAA"
    with served.client(cookies={"sb_session": forged}) as forger:
        assert forger.get(f"/api/conversations/{cid}").status_code == 404
    with served.client(cookies={"sb_session": issued}) as owner:
        assert owner.get(f"/api/conversations/{cid}").status_code == 200


# -- errors are JSON --------------------------------------------------------------------


def test_deep_nesting_unknown_paths_and_methods_answer_json(served: Served) -> None:
    with served.client() as client:
        cid = client.post("/api/conversations").json()["id"]
        deep = b"[" * 1000 + b"]" * 1000  # fits the 2048-byte limit; deeper than json parses
        nested = client.post(f"/api/conversations/{cid}/messages", content=deep)
        assert nested.status_code == 400
        assert nested.json() == {"error": "The request body must be JSON."}
        deeper = b'{"text": ' + b"[" * 1020 + b"]" * 1020 + b"}"
        assert client.post(f"/api/conversations/{cid}/messages", content=deeper).status_code in (
            400,
            413,
        )
        unknown = client.get("/no/such/page")
        assert unknown.status_code == 404
        assert unknown.headers["content-type"] == "application/json"
        assert unknown.json() == {"error": "No such page or API route here."}
        wrong = client.put("/api/conversations", json={})
        assert wrong.status_code == 405
        assert wrong.json() == {"error": "This route does not take that method."}
        assert client.delete("/healthz").status_code == 405
        assert client.delete("/healthz").headers["content-type"] == "application/json"
