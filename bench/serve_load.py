"""Load on ``support-bot serve``: many concurrent conversations, scripted model, real HTTP.

Run it (about a minute on 2 cores)::

    .venv/bin/python -m bench.serve_load                 # one process, SQLite
    .venv/bin/python -m bench.serve_load --postgres      # two processes over one PostgreSQL
    .venv/bin/python -m bench.serve_load --conversations 50 --turns 3   # smaller

Each conversation is its own browser session (its own cookies) and sends its
turns one after the other; all conversations run at once. The turns are

1. "What is A times B?"  → ``calculate``,
2. "Add a to-do: load N" → ``todo_add``,
3. "Reserve 1 of SKU-100" → ``product_reserve``: the turn pauses, stored, and the
   decision is posted as soon as it is asked (with ``--postgres`` to the other
   process), which resumes it (12 units in stock: 12 reservations succeed, the rest
   are refused in words); its latency runs to the resumed turn's ``done``,

and further turns repeat the first. The model is ``scripted:demo`` (instant,
deterministic), so the figures are the service's own cost: HTTP, the event
stream, the tool loop, the database and the chat memory. A turn's latency runs
from sending the message to its ``done`` event. An error is any turn that does
not end in ``done`` (HTTP error, ``error`` event, lost connection).

With ``--postgres`` a throw-away PostgreSQL server is started on loopback
(Debian's package, as in the tests) and two ``serve`` processes share it;
turn k of a conversation goes to process (conversation + k) mod 2, so every
conversation is continued on the other process. Afterwards the database is
checked: every conversation holds all its turns, every to-do is there, and
exactly 12 units were reserved.

Memory is each serve process's peak resident set (``VmHWM``) at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_serve(database: str, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "support_bot",
            "serve",
            "--port",
            str(port),
            "--model",
            "scripted:demo",
            "--database",
            database,
            "--rate-limit",
            "0",
        ],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"serve exited with {process.returncode}")
        with suppress(httpx.HTTPError):
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return process, url
        time.sleep(0.1)
    process.kill()
    raise SystemExit("serve did not become ready")


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def turn_text(conversation: int, turn: int) -> str:
    kind = turn % 3
    if kind == 0:
        return f"What is {conversation + 2} times {turn + 3}?"
    if kind == 1:
        return f"Add a to-do: load {conversation}"
    return "Reserve 1 of SKU-100"


async def one_turn(
    client: httpx.AsyncClient, urls: list[str], cid: str, text: str, figures: Figures
) -> None:
    started = time.perf_counter()
    path = f"/api/conversations/{cid}/messages"
    ended = await read_turn(client, urls[0], path, {"text": text}, figures)
    if ended is not None and ended[0] == "done" and ended[1].get("paused"):
        # Decided at once, on the other process when there are two: no sticky routing.
        decisions = {call_id: True for call_id in ended[1]["waiting"]}
        path = f"/api/conversations/{cid}/approvals"
        ended = await read_turn(client, urls[-1], path, {"decisions": decisions}, figures)
    if ended is None:
        return
    if ended[0] != "done":
        figures.errors.append(f"turn ended with {ended}")
        return
    figures.latencies.append(time.perf_counter() - started)
    figures.answers.append(ended[1]["answer"])


async def read_turn(
    client: httpx.AsyncClient, url: str, path: str, body: dict[str, Any], figures: Figures
) -> tuple[str, dict[str, Any]] | None:
    """POST and read the event stream to ``done`` or ``error``; the calls it left waiting."""
    waiting: list[str] = []
    try:
        async with client.stream("POST", f"{url}{path}", json=body) as response:
            if response.status_code != 200:
                await response.aread()
                figures.errors.append(f"HTTP {response.status_code}: {response.text[:100]}")
                return None
            name, data = "message", []
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif not line and data:
                    payload = json.loads("\n".join(data))
                    data = []
                    if name == "approval_requested":
                        waiting.append(payload["id"])
                    elif name in ("done", "error"):
                        return name, {**payload, "waiting": waiting}
    except httpx.HTTPError as exc:
        figures.errors.append(f"{type(exc).__name__}: {exc}")
        return None
    figures.errors.append("the stream ended without done or error")
    return None


async def conversation(index: int, urls: list[str], turns: int, figures: Figures) -> str:
    limits = httpx.Limits(max_connections=4)
    # JSON on every request, as the page sends (serve refuses a POST without it: 415).
    json_only = {"content-type": "application/json"}
    async with httpx.AsyncClient(timeout=300, limits=limits, headers=json_only) as client:
        created = await client.post(f"{urls[index % len(urls)]}/api/conversations")
        created.raise_for_status()
        cid = str(created.json()["id"])
        for turn in range(turns):
            first = (index + turn) % len(urls)
            rotated = urls[first:] + urls[:first]
            await one_turn(client, rotated, cid, turn_text(index, turn), figures)
    return cid


async def load(urls: list[str], conversations: int, turns: int) -> tuple[Figures, list[str], float]:
    figures = Figures()
    started = time.perf_counter()
    ids = await asyncio.gather(
        *(conversation(i, urls, turns, figures) for i in range(conversations))
    )
    return figures, list(ids), time.perf_counter() - started


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def verify(database: str, ids: list[str], conversations: int, turns: int) -> list[str]:
    """What was lost or oversold, read from the database itself."""
    problems: list[str] = []
    reservation_turns = sum(1 for i in range(conversations) for t in range(turns) if t % 3 == 2)
    todo_turns = sum(1 for i in range(conversations) for t in range(turns) if t % 3 == 1)
    if database.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(database) as conn:
            counts = dict(
                conn.execute(
                    "SELECT id, turns FROM served_conversations WHERE id = ANY(%s)", (ids,)
                ).fetchall()
            )
            todos = conn.execute("SELECT count(*) FROM todos").fetchone()[0]  # type: ignore[index]
            reserved = conn.execute(
                "SELECT coalesce(sum(quantity), 0) FROM reservations"
            ).fetchone()[0]  # type: ignore[index]
            stock = conn.execute("SELECT stock FROM products WHERE sku = 'SKU-100'").fetchone()[0]  # type: ignore[index]
            memory = dict(
                conn.execute(
                    "SELECT conversation_id, count(*) FROM springtail_chat_memory "
                    "GROUP BY conversation_id"
                ).fetchall()
            )
    else:
        import sqlite3

        with sqlite3.connect(database) as conn:
            counts = dict(conn.execute("SELECT id, turns FROM served_conversations").fetchall())
            todos = conn.execute("SELECT count(*) FROM todos").fetchone()[0]
            reserved = conn.execute(
                "SELECT coalesce(sum(quantity), 0) FROM reservations"
            ).fetchone()[0]
            stock = conn.execute("SELECT stock FROM products WHERE sku = 'SKU-100'").fetchone()[0]
            memory = dict(
                conn.execute(
                    "SELECT conversation_id, count(*) FROM springtail_chat_memory "
                    "GROUP BY conversation_id"
                ).fetchall()
            )
    short = [cid for cid in ids if counts.get(cid) != turns]
    if short:
        problems.append(f"{len(short)} conversation(s) lack turns")
    if todos != todo_turns:
        problems.append(f"{todos} to-dos, expected {todo_turns}")
    expected_reserved = min(12, reservation_turns)
    if reserved != expected_reserved or stock != 12 - expected_reserved:
        problems.append(f"reserved {reserved} (stock {stock}), expected {expected_reserved}")
    # Every turn here makes 4 messages (request, call, results, answer); the window keeps 24.
    want = min(24, 4 * turns)
    thin = [cid for cid in ids if memory.get(cid, 0) != want]
    if thin:
        problems.append(f"{len(thin)} conversation(s) with a wrong chat memory")
    return problems


def report(
    title: str,
    figures: Figures,
    wall: float,
    rss: list[float],
    problems: list[str],
    conversations: int,
    turns: int,
) -> None:
    lat = figures.latencies
    print(f"\n## {title}")
    print(f"{conversations} conversations x {turns} turns, all at once; wall {wall:.1f} s")
    print("| turns ok | errors | p50 turn | p99 turn | max turn | turns/s | peak RSS per process |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {len(lat)} | {len(figures.errors)} | {1000 * statistics.median(lat):.0f} ms | "
        f"{1000 * percentile(lat, 0.99):.0f} ms | {1000 * max(lat):.0f} ms | "
        f"{len(lat) / wall:.0f} | {' / '.join(f'{r:.0f} MiB' for r in rss)} |"
    )
    print("nothing lost, no oversell" if not problems else "PROBLEMS: " + "; ".join(problems))
    for error in figures.errors[:5]:
        print("  error:", error)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=200)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--postgres", action="store_true", help="two processes over PostgreSQL")
    args = parser.parse_args()
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if args.postgres:
            sys.path.insert(0, str(ROOT))
            from tests.postgres_server import start_postgres

            server = start_postgres()
            stack.callback(server.stop)
            import psycopg

            name = f"load_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(server.dsn, autocommit=True) as conn:
                conn.execute(f"CREATE DATABASE {name}")
            database = f"postgresql://postgres@127.0.0.1:{server.port}/{name}"
            count, title = 2, "two serve processes over one PostgreSQL database"
        else:
            database = str(workdir / "support-bot.db")
            count, title = 1, "one serve process, SQLite"
        processes = []
        for _ in range(count):
            process, url = start_serve(database, workdir)
            stack.callback(process.wait, 15)
            stack.callback(process.terminate)
            processes.append((process, url))
        figures, ids, wall = asyncio.run(
            load([url for _, url in processes], args.conversations, args.turns)
        )
        rss = [peak_rss_mib(process.pid) for process, _ in processes]
        problems = verify(database, ids, args.conversations, args.turns)
        report(title, figures, wall, rss, problems, args.conversations, args.turns)
        print(f"(python {sys.version.split()[0]}, {os.cpu_count()} CPUs)")
    return 1 if figures.errors or problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
