"""Fuzzing ``support-bot serve`` over real HTTP (hypothesis, fixed budget).

Random methods and paths (known routes with real, random and junk ids, and
junk), headers (``Host``, ``Origin``, ``Content-Type``, cookies, tokens) and
bodies (messages, deep nesting, junk JSON, lone surrogates, other encodings,
binary, oversized) go to one service on loopback with the demo model, whose
rules make some messages reserve stock, calculate or add to-dos, so turns and
approvals (which time out) run too. The properties: no response is a 500 or
holds a traceback, every refusal is a JSON ``{"error": …}``, no turn ends in
a server error, and afterwards every stored conversation can still be read,
through the API and from the database.
"""

from __future__ import annotations

import json
import sqlite3
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from serve_helpers import Served, parse_sse, serve_in_thread
from support_bot._store import Store
from support_bot.serve import DemoChatModel

pytestmark = pytest.mark.fuzz

# The budget: CI runs all of them on every push (about 20 s on 2 cores; docs/reliability.md).
EXAMPLES = 250
TURN_EXAMPLES = 100
BUDGET = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
MAX_BODY = 16 * 1024


@dataclass
class Target:
    """The service under fuzz, one browser session of it and that session's conversations."""

    served: Served
    store: Store
    cookie: str
    conversations: list[str]
    seen: dict[int | str, int] = field(default_factory=dict)

    @property
    def port(self) -> int:
        return int(self.served.url.rsplit(":", 1)[1])


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    store = Store.in_data_dir(tmp_path_factory.mktemp("serve-fuzz"))
    with (
        serve_in_thread(
            store,
            DemoChatModel(),
            approval_timeout_s=0.2,
            rate_limit_per_min=0,
            max_body_bytes=MAX_BODY,
        ) as served,
        served.client() as browser,
    ):
        conversations = [browser.post("/api/conversations").json()["id"] for _ in range(3)]
        yield Target(served, store, browser.cookies["sb_session"], conversations)


# -- what a request may be -------------------------------------------------------

printable = st.text(alphabet=string.printable.strip() + " ", min_size=1, max_size=60).map(
    lambda s: s.strip() or "x"  # h11 sends no header value with spaces around it
)
junk_id = st.text(alphabet=string.ascii_letters + string.digits + "-_.%~!$&'()*+,;=:@", max_size=40)
messages = st.one_of(
    st.sampled_from(
        [
            "Reserve 2 of SKU-100",
            "reserve 9999 of sku-300",
            "What is 128 times 32?",
            "stock of SKU-200",
            "look up SKU-999",
            "add a to-do: call back",
            "hello",
        ]
    ),
    st.text(max_size=300),
    st.text(max_size=3).map(lambda s: s * 2_000),
)


@st.composite
def paths(draw: st.DrawFn, target: Target) -> str:
    cid = draw(
        st.one_of(
            st.sampled_from(target.conversations),
            st.text(string.ascii_letters + string.digits + "-_", min_size=22, max_size=22).map(
                lambda s: "c-" + s
            ),
            junk_id,
        )
    )
    aid = draw(junk_id)
    return draw(
        st.sampled_from(
            [
                "/",
                "/healthz",
                "/readyz",
                "/static/app.js",
                f"/static/{aid}",
                "/api/conversations",
                f"/api/conversations/{cid}",
                f"/api/conversations/{cid}/messages",
                f"/api/conversations/{cid}/messages",
                f"/api/conversations/{cid}/approvals/{aid}",
                f"/{aid}",
                f"/api/{aid}/{cid}",
            ]
        )
    )


def nested(depth: int) -> bytes:
    return b'{"text": ' + b"[" * depth + b"]" * depth + b"}"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def bodies(draw: st.DrawFn) -> bytes | None:
    kind = draw(
        st.sampled_from(
            [
                "none",
                "message",
                "message",
                "approval",
                "json",
                "nested",
                "surrogate",
                "encoded",
                "binary",
                "big",
            ]
        )
    )
    if kind == "none":
        return None
    if kind == "message":
        return json.dumps({"text": draw(messages)}).encode()
    if kind == "approval":
        return json.dumps({"approved": draw(json_values)}).encode()
    if kind == "json":
        return json.dumps(draw(json_values)).encode()
    if kind == "nested":
        return nested(draw(st.integers(min_value=1, max_value=MAX_BODY // 2 - 10)))
    if kind == "surrogate":
        high = draw(st.integers(min_value=0xD800, max_value=0xDFFF))
        return b'{"text": "hi \\u%04x there"}' % high
    if kind == "encoded":
        encoding = draw(st.sampled_from(["utf-16", "utf-32", "utf-16-be", "latin-1", "cp1252"]))
        text = json.dumps({"text": draw(messages)}, ensure_ascii=False)
        return text.encode(encoding, errors="replace")
    if kind == "binary":
        return draw(st.binary(max_size=2_000))
    return b'{"text": "' + b"y" * (MAX_BODY + draw(st.integers(0, 4_000))) + b'"}'


@st.composite
def headers(draw: st.DrawFn, target: Target) -> dict[str, str]:
    """Any of the headers the guards look at, each often absent or the page's own."""
    own = f"127.0.0.1:{target.port}"
    chosen = {
        "host": draw(
            st.sampled_from([None, f"localhost:{target.port}", "attacker.example", "[::1]", "junk"])
        ),
        "origin": draw(st.sampled_from([None, f"http://{own}", "http://attacker.example", "null"])),
        "content-type": draw(
            st.sampled_from(
                [
                    None,
                    "application/json",
                    "application/json; charset=utf-16",
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=x",
                ]
            )
            | printable
        ),
        "cookie": draw(
            st.sampled_from(
                [
                    None,
                    f"sb_session={target.cookie}",
                    "sb_session=" + "A" * 43,
                    f"sb_session={target.cookie[:-3]}xyz",
                ]
            )
            | printable.map(lambda s: f"sb_session={s}; sb_token={s}")
        ),
        "authorization": draw(st.none() | printable.map(lambda s: f"Bearer {s}")),
    }
    return {name: value for name, value in chosen.items() if value is not None}


@st.composite
def requests(draw: st.DrawFn, target: Target) -> tuple[str, str, dict[str, str], bytes | None]:
    """Most of them as the page would send them (so they reach the routes), the rest anything."""
    shape = draw(st.sampled_from(["turn", "turn", "turn", "page", "page", "any", "any", "any"]))
    if shape != "any":
        sent = {"content-type": "application/json", "cookie": f"sb_session={target.cookie}"}
        if shape == "turn":
            cid = draw(st.sampled_from(target.conversations))
            body = draw(
                st.one_of(messages.map(lambda m: json.dumps({"text": m}).encode()), bodies())
            )
            return "POST", f"/api/conversations/{cid}/messages", sent, body
        method = draw(st.sampled_from(["GET", "POST"]))
    else:
        sent = draw(headers(target))
        method = draw(
            st.sampled_from(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"])
            | st.text(alphabet=string.ascii_uppercase, min_size=1, max_size=8)
        )
    return method, draw(paths(target)), sent, draw(bodies())


# -- the properties --------------------------------------------------------------------


def check(response: httpx.Response, method: str, body: str, events: list[tuple[str, Any]]) -> None:
    assert response.status_code < 500, (response.status_code, body[:300])
    assert "Traceback" not in body
    if response.status_code >= 400 and method != "HEAD":
        assert response.headers["content-type"].startswith("application/json"), body[:200]
        error = json.loads(body)["error"]
        assert isinstance(error, str)
        assert error
    for name, data in events:
        if name == "error":
            assert "went wrong on the server" not in data["message"], data


@st.composite
def turns(draw: st.DrawFn, target: Target) -> tuple[str, str, dict[str, str], bytes | None]:
    """A message to one of the session's conversations, as the page sends it, any body."""
    sent = {"content-type": "application/json", "cookie": f"sb_session={target.cookie}"}
    cid = draw(st.sampled_from(target.conversations))
    body = draw(st.one_of(messages.map(lambda m: json.dumps({"text": m}).encode()), bodies()))
    return "POST", f"/api/conversations/{cid}/messages", sent, body


@BUDGET
@given(data=st.data())
def test_no_request_gets_a_500_or_a_traceback(target: Target, data: st.DataObject) -> None:
    send(target, *data.draw(requests(target)))


@settings(BUDGET, max_examples=TURN_EXAMPLES)
@given(data=st.data())
def test_no_message_ends_in_a_server_error(target: Target, data: st.DataObject) -> None:
    send(target, *data.draw(turns(target)))


def send(
    target: Target, method: str, path: str, headers: dict[str, str], body: bytes | None
) -> None:
    """Send one request, read all of its answer (a turn's events too) and check it."""
    events: list[tuple[str, Any]] = []
    with (
        httpx.Client(base_url=target.served.url, timeout=30) as client,
        client.stream(method, path, headers=headers, content=body) as response,
    ):
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            lines = list(response.iter_lines())
            events = list(parse_sse(iter(lines)))
            answer = "\n".join(lines)
        else:
            answer = response.read().decode("utf-8")
    key = response.status_code if not events else events[-1][0]
    target.seen[key] = target.seen.get(key, 0) + 1
    check(response, method, answer, events)


def test_every_conversation_can_still_be_read_afterwards(target: Target) -> None:
    """Through the API for the fuzzed session's, and from the database for all of them."""
    with httpx.Client(
        base_url=target.served.url, cookies={"sb_session": target.cookie}, timeout=30
    ) as browser:
        for cid in target.conversations:
            answer = browser.get(f"/api/conversations/{cid}")
            assert answer.status_code == 200, answer.text
            assert isinstance(answer.json()["messages"], list)
    with sqlite3.connect(target.store.path) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM served_conversations")]
    repository = target.store.chat_memory_repository()
    for cid in ids:
        for message in repository.find_by_conversation_id(cid):
            text = getattr(message, "text", "") or ""
            text.encode("utf-8")  # no lone surrogate got in
    assert len(ids) >= len(target.conversations)
    assert sum(target.seen.values()) >= EXAMPLES + TURN_EXAMPLES  # each got an answer
