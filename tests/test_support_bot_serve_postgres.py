"""Two ``support-bot serve`` processes over one PostgreSQL database: no oversell, shared chats."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from serve_helpers import Served, post_turn, serve_process

psycopg = pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")

pytestmark = pytest.mark.postgres


@pytest.fixture
def two(postgres_database: str, tmp_path: Path) -> Iterator[tuple[Served, Served]]:
    args = ("--model", "scripted:demo", "--database", postgres_database, "--rate-limit", "0")
    with serve_process(*args, cwd=tmp_path) as a, serve_process(*args, cwd=tmp_path) as b:
        yield a, b


def approving(served: Served, client: httpx.Client, cid: str) -> Any:
    def on_event(name: str, data: dict[str, Any]) -> None:
        if name == "approval_requested":
            with httpx.Client(base_url=served.url, cookies=client.cookies) as other:
                other.post(
                    f"/api/conversations/{cid}/approvals/{data['approval_id']}",
                    json={"approved": True},
                ).raise_for_status()

    return on_event


def test_the_last_units_are_sold_once_across_both_processes(
    two: tuple[Served, Served], postgres_database: str
) -> None:
    answers: list[str] = []
    lock = threading.Lock()

    def buy(served: Served) -> None:
        with served.client() as client:
            cid = client.post("/api/conversations").json()["id"]
            events = post_turn(
                client, cid, "Reserve 1 of SKU-300", on_event=approving(served, client, cid)
            )
        with lock:
            answers.append(events[-1][1].get("answer", events[-1][1].get("message", "")))

    threads = [threading.Thread(target=buy, args=(two[i % 2],)) for i in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    reserved = [a for a in answers if "Reserved 1 unit(s) of SKU-300" in a]
    refused = [a for a in answers if "Nothing was reserved" in a]
    assert len(answers) == 10
    assert (len(reserved), len(refused)) == (4, 6)
    with psycopg.connect(postgres_database) as conn:
        stock = conn.execute("SELECT stock FROM products WHERE sku = 'SKU-300'").fetchone()
        rows = conn.execute("SELECT count(*) FROM reservations").fetchone()
    assert stock == (0,)
    assert rows == (4,)


def test_a_conversation_continues_on_the_other_process(two: tuple[Served, Served]) -> None:
    a, b = two
    with a.client() as on_a:
        cid = on_a.post("/api/conversations").json()["id"]
        post_turn(on_a, cid, "What is 6 times 7?")
        cookies = on_a.cookies
    with b.client(cookies=cookies) as on_b:
        listed = on_b.get("/api/conversations").json()["conversations"]
        assert [c["id"] for c in listed] == [cid]
        before = on_b.get(f"/api/conversations/{cid}").json()
        assert before["messages"][0] == {"role": "user", "text": "What is 6 times 7?"}
        events = post_turn(on_b, cid, "hello from b")
        after = on_b.get(f"/api/conversations/{cid}").json()
    assert events[-1][1]["answer"] == "You said: hello from b"
    assert after["turns"] == 2
    assert [m["role"] for m in after["messages"]] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
    ]
    with httpx.Client(base_url=b.url) as stranger:
        assert stranger.get(f"/api/conversations/{cid}").status_code == 404
