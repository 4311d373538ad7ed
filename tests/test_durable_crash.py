"""A durable turn survives kill -9 at every boundary of a one-tool turn, on SQLite and PostgreSQL.

A real process (tests/durable_process.py) runs the turn and stops at a
barrier; the test kills it with SIGKILL, then starts a second process on the
same databases, whose ``DBOS.launch()`` recovers the turn. The counts file
says how often each step really ran: a completed step never again, an
interrupted model call once more, an interrupted tool once more only when it
is idempotent (otherwise the model is told the call was interrupted). The
stored conversation holds each message once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("dbos", reason="needs the dbos extra")

HERE = Path(__file__).parent
SCRIPT = HERE / "durable_process.py"
ANSWER = "Milk is on the list."

# barrier -> the steps that ran, in order, over both processes
EXPECTED = {
    "during_model1": ["model1", "model1", "tool", "model2"],
    "after_model1": ["model1", "tool", "model2"],
    "during_tool": ["model1", "tool", "model2:interrupted"],
    "after_tool": ["model1", "tool", "model2"],
    "during_model2": ["model1", "tool", "model2", "model2"],
}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(HERE.parent / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH", "")) if p)
    return env


def _kill_at(barrier: str, system_db: str, chat: str, state: Path, *extra: str) -> None:
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT), system_db, chat, str(state), barrier, *extra],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    marker = state / f"at-{barrier}"
    deadline = time.monotonic() + 90
    try:
        while not marker.exists():
            if process.poll() is not None:
                _, err = process.communicate()
                raise AssertionError(f"the process ended before {barrier}: {err.decode()[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"the process never reached {barrier}")
            time.sleep(0.05)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate()
    assert process.returncode == -signal.SIGKILL


def _recover(system_db: str, chat: str, state: Path, *extra: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), system_db, chat, str(state), "recover", *extra],
        env=_env(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return result


def _counts(state: Path) -> tuple[list[str], list[str]]:
    """The steps that ran (tool runs as ``tool``), and the idempotency keys the tool got."""
    steps: list[str] = []
    keys: list[str] = []
    for line in (state / "counts").read_text().splitlines():
        if line.startswith("tool "):
            steps.append("tool")
            keys.append(line.split(" ", 1)[1])
        else:
            steps.append(line)
    return steps, keys


def _check(barrier: str, system_db: str, chat: str, state: Path) -> None:
    _kill_at(barrier, system_db, chat, state)
    outcome = _recover(system_db, chat, state)

    steps, keys = _counts(state)
    assert steps == EXPECTED[barrier]
    assert len(set(keys)) == 1
    assert keys[0].startswith("c1:1:")
    assert outcome["answer"] == ANSWER
    assert outcome["stored"] == [["UserMessage", "Add milk"], ["AssistantMessage", ANSWER]]


@pytest.mark.parametrize("barrier", list(EXPECTED))
def test_a_turn_killed_at_each_boundary_ends_once_on_sqlite(barrier: str, tmp_path: Path) -> None:
    _check(barrier, f"sqlite:///{tmp_path}/dbos.sqlite", str(tmp_path / "chat.sqlite"), tmp_path)


def test_an_idempotent_tool_killed_mid_call_runs_again_with_the_same_key(tmp_path: Path) -> None:
    system_db = f"sqlite:///{tmp_path}/dbos.sqlite"
    chat = str(tmp_path / "chat.sqlite")
    _kill_at("during_tool", system_db, chat, tmp_path, "--idempotent")
    outcome = _recover(system_db, chat, tmp_path, "--idempotent")

    steps, keys = _counts(tmp_path)
    assert steps == ["model1", "tool", "tool", "model2"]
    assert len(keys) == 2
    assert keys[0] == keys[1]
    assert outcome["stored"] == [["UserMessage", "Add milk"], ["AssistantMessage", ANSWER]]


@pytest.mark.postgres
@pytest.mark.parametrize("barrier", list(EXPECTED))
def test_a_turn_killed_at_each_boundary_ends_once_on_postgres(
    barrier: str, tmp_path: Path, postgres_database: str
) -> None:
    _check(barrier, postgres_database, postgres_database, tmp_path)


def test_an_approval_waiting_in_a_killed_process_is_given_from_another_and_runs_once(
    tmp_path: Path,
) -> None:
    from dbos import DBOSClient

    from springtail.durable import APPROVAL_EVENT, WaitingCall, approve

    system_db = f"sqlite:///{tmp_path}/dbos.sqlite"
    chat = str(tmp_path / "chat.sqlite")
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT), system_db, chat, str(tmp_path), "wait", "--approval"],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 90
    while not (tmp_path / "counts").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # the process launched DBOS (its schema exists) and called the model
    client = DBOSClient(system_database_url=system_db)
    try:
        waiting: Any = None
        while waiting is None and time.monotonic() < deadline and process.poll() is None:
            waiting = client.get_event("c1:1", APPROVAL_EVENT, timeout_seconds=0.2)
        assert isinstance(waiting, WaitingCall), process.stderr
        assert waiting.name == "add_todo"
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate()

    approve("c1:1", waiting.id, client=client)  # from this process, through DBOSClient
    client.destroy()
    outcome = _recover(system_db, chat, tmp_path, "--approval")

    steps, _ = _counts(tmp_path)
    assert steps == ["model1", "tool", "model2"]
    assert outcome["answer"] == ANSWER
    assert outcome["stored"] == [["UserMessage", "Add milk"], ["AssistantMessage", ANSWER]]


def test_a_streamed_turn_killed_mid_tool_streams_each_event_once(tmp_path: Path) -> None:
    system_db = f"sqlite:///{tmp_path}/dbos.sqlite"
    chat = str(tmp_path / "chat.sqlite")
    _kill_at("during_tool", system_db, chat, tmp_path, "--stream")
    outcome = _recover(system_db, chat, tmp_path, "--stream")

    steps, _ = _counts(tmp_path)
    assert steps == ["model1", "tool", "model2:interrupted"]
    # the tool's start was written before the kill, its end after the recovery; once each
    events = outcome["events"]
    assert events[:2] == ["ToolCallStarted", "ToolCallFinished"]
    assert events[2:] == ["TextDelta"] * len(ANSWER.split())  # the answer, word by word
    assert outcome["stored"] == [["UserMessage", "Add milk"], ["AssistantMessage", ANSWER]]
