"""What durability costs: a durable one-tool turn against the same turn without DBOS.

Run it (seconds on SQLite; PostgreSQL starts a throw-away server first)::

    .venv/bin/python -m bench.durable              # SQLite
    .venv/bin/python -m bench.durable --postgres   # SQLite, then PostgreSQL
    .venv/bin/python -m bench --only durable       # the same, as a section of the bench

Both turns use the same client: the scripted model asking for one sync tool,
then answering, and a chat memory on the same database kind. The durable turn
runs as a ``DurableChatClient`` workflow with seven checkpointed steps
(memory read, memory write, model, tool started, tool, model, memory write)
plus the workflow's own start and end. The figure the issue's goal names is
the extra time divided by those seven steps.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

STEPS = 7
ANSWER = "Added."


def _client(memory: Any) -> Any:
    from springtail import ChatClient, MessageChatMemoryAdvisor, tool
    from springtail.messages import AssistantMessage, Prompt, ToolCall, ToolResponseMessage
    from springtail.models import ScriptedChatModel

    @tool(description="Add a to-do.")
    def add_todo(title: str) -> str:
        return f"added {title}"

    def reply(prompt: Prompt) -> AssistantMessage:
        if isinstance(prompt.messages[-1], ToolResponseMessage):
            return AssistantMessage(ANSWER)
        return AssistantMessage("", (ToolCall("call-1", "add_todo", '{"title": "milk"}'),))

    model = ScriptedChatModel([reply] * 100_000)  # two replies a turn, never running out
    return ChatClient(model, tools=[add_todo], advisors=[MessageChatMemoryAdvisor(memory)])


def _time(run: Callable[[int], str], repeat: int) -> list[float]:
    for i in range(3):  # warm up: connections, caches, first schema build
        assert run(-1 - i) == ANSWER
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        text = run(i)
        times.append(time.perf_counter() - start)
        assert text == ANSWER
    return times


def measure(system_db: str, memory: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median seconds per plain turn and per durable turn."""
    from dbos import DBOS

    from springtail import ChatMemory
    from springtail.durable import DurableChatClient

    DBOS(config={"name": "springtail-bench", "system_database_url": system_db})
    DBOS.launch()  # a fresh system database: nothing to reset
    client = _client(memory())
    durable = DurableChatClient(client, name="bench")  # nothing to recover: built after launch

    def plain(i: int) -> str:
        return str(
            client.prompt("Add milk")
            .advisor_param(ChatMemory.CONVERSATION_ID, f"p{i}")
            .call()
            .content()
        )

    try:

        def durable_turn(i: int) -> str:
            return durable.call("Add milk", conversation_id=f"d{i}", turn=1).text

        plain_times = _time(plain, repeat)
        durable_times = _time(durable_turn, repeat)
    finally:
        durable.close()
        DBOS.destroy()
    return statistics.median(plain_times), statistics.median(durable_times)


def _row(kind: str, plain: float, durable: float) -> str:
    per_step = (durable - plain) / STEPS
    return (
        f"| {kind} | {plain * 1e3:.2f} ms | {durable * 1e3:.2f} ms | "
        f"{per_step * 1e3:.2f} ms | ≤ 5 ms |"
    )


def tables(quick: bool = False, postgres: bool = False) -> list[str]:
    """The durable-overhead table, as markdown."""
    from springtail import (
        MessageWindowChatMemory,
        PostgresChatMemoryRepository,
        SqliteChatMemoryRepository,
    )
    from springtail.durable import sqlite_system_database

    repeat = 10 if quick else 50
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        chat = Path(folder) / "chat.sqlite"
        plain, durable = measure(
            sqlite_system_database(Path(folder) / "dbos.sqlite"),
            lambda: MessageWindowChatMemory(SqliteChatMemoryRepository(chat)),
            repeat,
        )
        rows.append(_row("SQLite", plain, durable))
    if postgres:
        from tests.postgres_server import start_postgres

        server = start_postgres()
        try:
            import psycopg

            with psycopg.connect(server.dsn, autocommit=True) as conn:
                conn.execute("CREATE DATABASE springtail_bench")
            url = f"postgresql://postgres@127.0.0.1:{server.port}/springtail_bench"
            plain, durable = measure(
                url, lambda: MessageWindowChatMemory(PostgresChatMemoryRepository(url)), repeat
            )
            rows.append(_row("PostgreSQL", plain, durable))
        finally:
            server.stop()
    head = (
        f"### Durable turn overhead: one sync tool, scripted model, chat memory on the same "
        f"database (median of {repeat} turns; {STEPS} checkpointed steps per turn)\n\n"
        "| database | plain turn | durable turn | extra per step | goal |\n"
        "|---|---|---|---|---|"
    )
    return [head + "\n" + "\n".join(rows) + "\n"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.durable", description=__doc__)
    parser.add_argument("--postgres", action="store_true", help="also on a throw-away PostgreSQL")
    parser.add_argument("--quick", action="store_true", help="fewer turns (a smoke run)")
    args = parser.parse_args(argv)
    for text in tables(args.quick, args.postgres):
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
