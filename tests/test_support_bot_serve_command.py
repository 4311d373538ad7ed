"""``support-bot serve`` as a command: refusals are one sentence with their exit code."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from serve_helpers import post_turn, serve_process
from support_bot._store import Store
from support_bot.serve._command import open_store


def run_serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "support_bot", "serve", "--model", "scripted:demo", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "SUPPORT_BOT_DATA_DIR": str(tmp_path), "SUPPORT_BOT_TOKEN": ""},
    )


def test_a_taken_port_is_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_serve(tmp_path, "--port", str(port))
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unreachable_database_is_one_sentence(tmp_path: Path) -> None:
    result = run_serve(tmp_path, "--database", "postgresql://shop@127.0.0.1:1/shop")
    assert result.returncode == 3
    assert "check that the server is running" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_token_may_come_from_the_environment(tmp_path: Path) -> None:
    token = "environment-token-1234567890"
    env = {"SUPPORT_BOT_TOKEN": token, "SUPPORT_BOT_DATA_DIR": str(tmp_path)}
    with serve_process("--model", "scripted:demo", env=env, cwd=tmp_path) as served:
        with served.client() as anonymous:
            assert anonymous.post("/api/conversations").status_code == 401
        with served.client(headers={"authorization": f"Bearer {token}"}) as client:
            cid = client.post("/api/conversations").json()["id"]
            assert post_turn(client, cid, "hi")[-1][1]["answer"] == "You said: hi"


def test_the_database_option_picks_the_store(tmp_path: Path) -> None:
    named = open_store(str(tmp_path / "shop.db"), None)
    assert isinstance(named, Store)
    assert named.location == str(tmp_path / "shop.db")
    default = open_store(None, tmp_path / "data")
    assert default.location == str(tmp_path / "data" / "support-bot.db")
