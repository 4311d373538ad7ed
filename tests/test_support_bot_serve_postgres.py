"""Two ``support-bot serve`` processes over one PostgreSQL database: no oversell, shared chats.

And approvals that outlive their process: a turn paused on one process is
decided on the other, with no sticky routing, even after the first is killed.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from serve_helpers import Served, post_decisions, post_turn, serve_process

psycopg = pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")

pytestmark = pytest.mark.postgres


@pytest.fixture
def two(postgres_database: str, tmp_path: Path) -> Iterator[tuple[Served, Served]]:
    args = ("--model", "scripted:demo", "--database", postgres_database, "--rate-limit", "0")
    with serve_process(*args, cwd=tmp_path) as a, serve_process(*args, cwd=tmp_path) as b:
        yield a, b


def reserve_then_decide_elsewhere(asked: Served, decider: Served) -> str:
    """A reservation asked on one process, approved on the other; the answer's text."""
    with asked.client() as client:
        cid = client.post("/api/conversations").json()["id"]
        events = post_turn(client, cid, "Reserve 1 of SKU-300")
        assert [name for name, _ in events][-2:] == ["approval_requested", "done"]
        call_id = events[-2][1]["id"]
        cookies = client.cookies
    with decider.client(cookies=cookies) as other:
        resumed = post_decisions(other, cid, {call_id: True})
    return str(resumed[-1][1].get("answer", resumed[-1][1].get("message", "")))


def test_the_last_units_are_sold_once_across_both_processes(
    two: tuple[Served, Served], postgres_database: str
) -> None:
    answers: list[str] = []
    lock = threading.Lock()

    def buy(i: int) -> None:
        answer = reserve_then_decide_elsewhere(two[i % 2], two[(i + 1) % 2])
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=buy, args=(i,)) for i in range(10)]
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


def test_an_approval_asked_on_a_killed_process_is_decided_on_the_other_once(
    two: tuple[Served, Served], postgres_database: str
) -> None:
    a, b = two
    with a.client() as on_a:
        cid = on_a.post("/api/conversations").json()["id"]
        events = post_turn(on_a, cid, "Reserve 2 of SKU-100")
        requested = events[-2][1]
        assert events[-2][0] == "approval_requested"
        cookies = on_a.cookies
    assert a.process is not None
    a.process.send_signal(signal.SIGKILL)  # a crash, a deploy: A never answers again
    a.process.wait(timeout=30)

    with b.client(cookies=cookies) as on_b:  # no sticky routing: B has never seen the turn
        shown = on_b.get(f"/api/conversations/{cid}").json()
        assert [p["id"] for p in shown["pending"]] == [requested["id"]]
        resumed = post_decisions(on_b, cid, {requested["id"]: True})
        again = on_b.post(
            f"/api/conversations/{cid}/approvals", json={"decisions": {requested["id"]: True}}
        )
        after = on_b.get(f"/api/conversations/{cid}").json()

    names = [name for name, _ in resumed]
    assert names[0] == "approval_decided"
    assert "text" in names  # the answer streams from B
    assert names[-1] == "done"
    assert "Reserved 2 unit(s) of SKU-100" in resumed[-1][1]["answer"]
    assert again.status_code == 409
    with psycopg.connect(postgres_database) as conn:
        assert conn.execute("SELECT stock FROM products WHERE sku = 'SKU-100'").fetchone() == (10,)
        assert conn.execute("SELECT count(*) FROM reservations").fetchone() == (1,)
        paused = conn.execute("SELECT count(*) FROM springtail_paused_turns").fetchone()
    assert paused == (0,)
    # No duplicate or orphaned message: the question, the call with its answer, the answer.
    messages = after["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "assistant"]
    assert [c["id"] for c in messages[1]["tool_calls"]] == [requested["id"]]
    assert [r["id"] for r in messages[2]["responses"]] == [requested["id"]]
    assert after["pending"] == []
    assert after["turns"] == 1


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
