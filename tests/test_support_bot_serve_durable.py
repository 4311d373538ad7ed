"""``support-bot serve --durable``: a turn survives SIGKILL of the serve process.

A real serve process on a temporary data folder runs a turn whose tool call
(``todo_add``) is followed by a slow final model call; the test kills it with
SIGKILL after the tool ran and before the answer, then starts serve again on
the same data folder, port and flags, and posts nothing. The new process
recovers the turn: the conversation ends with the model's answer, the to-do
was added once, and the first model call was not made again (the scripted
model's position file says which calls were made).
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

import httpx
import pytest

from serve_helpers import free_port, wait_ready
from support_bot._store import Store

pytest.importorskip("dbos", reason="needs the dbos extra")

ANSWER = "Milk is on your list."


def _start(data: Path, port: int, env: dict[str, str]) -> subprocess.Popen[str]:
    command = [
        sys.executable,
        "-m",
        "support_bot",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data),
        "--model",
        "scripted:demo",
        "--durable",
        "--rate-limit",
        "0",
    ]
    process = subprocess.Popen(
        command,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_ready(f"http://127.0.0.1:{port}", process=process)
    except (RuntimeError, TimeoutError) as exc:
        process.kill()
        out, _ = process.communicate()
        raise AssertionError(f"{exc}; its output:\n{out}") from None
    return process


def _stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    try:
        out, _ = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
    return out


def _script(tmp_path: Path) -> tuple[dict[str, str], Path]:
    script = tmp_path / "script.json"
    script.write_text(
        json.dumps(
            [
                {
                    "tool_calls": [
                        {"id": "call-1", "name": "todo_add", "arguments": {"title": "milk"}}
                    ]
                },
                {"text": ANSWER, "delay_s": 4},
            ]
        ),
        encoding="utf-8",
    )
    calls = tmp_path / "model-calls"
    env = {
        "SUPPORT_BOT_SCRIPT": str(script),
        "SUPPORT_BOT_SCRIPT_LOG": str(calls),
        "SUPPORT_BOT_EXECUTOR_ID": "",
        "PYTHONPATH": os.pathsep.join(
            p
            for p in (str(Path(__file__).parent.parent / "src"), os.environ.get("PYTHONPATH"))
            if p
        ),
    }
    return env, calls


def _todos(data: Path) -> list[str]:
    return [todo.title for todo in Store.in_data_dir(data).todos()]


def _post_until_killed(
    client: httpx.Client, cid: str, process: subprocess.Popen[str], calls: Path
) -> None:
    """Send the message and kill serve once the tool ran and the final model call began."""
    with client.stream(
        "POST", f"/api/conversations/{cid}/messages", json={"text": "Add milk"}
    ) as response:
        assert response.status_code == 200
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if calls.exists() and "start 1" in calls.read_text("ascii"):
                break
            time.sleep(0.02)
        else:
            raise AssertionError("the final model call never began")
        os.kill(process.pid, signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL


def _messages(client: httpx.Client, cid: str) -> dict[str, Any]:
    response = client.get(f"/api/conversations/{cid}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_a_turn_killed_after_its_tool_ends_in_the_next_serve_without_a_new_request(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    env, calls = _script(tmp_path)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    first = _start(data, port, env)
    client = httpx.Client(base_url=url, timeout=30.0, headers={"content-type": "application/json"})
    try:
        created = client.post("/api/conversations", json={})
        assert created.status_code in (200, 201), created.text
        cid = created.json()["id"]
        _post_until_killed(client, cid, first, calls)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert _todos(data) == ["milk"]  # the tool ran before the kill

    second = _start(data, port, env)  # same data folder, port and flags; nothing posted
    try:
        deadline = time.monotonic() + 60
        body = _messages(client, cid)
        while time.monotonic() < deadline:
            texts = [m.get("text") for m in body["messages"]]
            if ANSWER in texts:
                break
            time.sleep(0.2)
            body = _messages(client, cid)
        else:
            raise AssertionError(f"the turn never ended: {body}")
    finally:
        log = _stop(second)
    roles = [m["role"] for m in body["messages"]]
    assert roles.count("user") == 1, (body, log)
    assert [m.get("text") for m in body["messages"]].count(ANSWER) == 1
    assert _todos(data) == ["milk"]  # the tool ran once
    lines = calls.read_text("ascii").splitlines()
    assert lines.count("start 0") == 1  # the first model call was not made again
    assert lines.count("done 0") == 1
    assert lines[-1] == "done 1"
    client.close()
