"""``support-bot serve`` as a command: refusals are one sentence with their exit code."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from serve_helpers import post_turn, serve_process
from support_bot._store import Store
from support_bot.serve._command import SESSION_KEY_FILENAME, open_store, session_key


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


def test_no_uri_is_shown_with_its_password(tmp_path: Path) -> None:
    """``/readyz`` answered the model URI, password and all, without the token."""
    secret = "s3cret-pass"
    uri = f"openai-compatible:http://shop:{secret}@127.0.0.1:9/v1"
    env = {"SUPPORT_BOT_TOKEN": "a-test-token-that-is-long-enough", "OPENAI_API_KEY": "k"}
    with serve_process("--model", uri, "--data-dir", str(tmp_path), env=env) as served:
        ready = httpx.get(f"{served.url}/readyz")
        assert ready.status_code == 200
        assert set(ready.json()) == {"status", "running", "queued"}  # no configuration
        assert secret not in ready.text
        assert secret not in httpx.get(f"{served.url}/healthz").text
    banner = "\n".join(served.log)
    assert "openai-compatible:http://shop:***@127.0.0.1:9/v1" in banner
    assert secret not in banner


@pytest.mark.parametrize(
    "options",
    [
        ["--mcp", "servers.json", "--yes", "--step", "step1"],
        ["--conversation", "c-1"],
        ["--hide-tools"],
    ],
)
def test_chat_only_options_are_refused(tmp_path: Path, options: list[str]) -> None:
    result = run_serve(tmp_path, *options)
    assert result.returncode == 2
    assert result.stderr.startswith("support-bot serve: ")
    assert result.stderr.count("\n") == 1
    shown = ["--show-tools/--hide-tools" if o == "--hide-tools" else o for o in options]
    assert all(o in result.stderr for o in shown if o.startswith("--"))
    assert "belong to the chat" in result.stderr
    # Before the subcommand they are refused all the same.
    before = subprocess.run(
        [sys.executable, "-m", "support_bot", *options, "serve", "--model", "scripted:demo"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SUPPORT_BOT_DATA_DIR": str(tmp_path), "SUPPORT_BOT_TOKEN": ""},
    )
    assert before.returncode == 2
    assert "belong to the chat" in before.stderr


def test_a_token_with_spaces_is_refused_at_start(tmp_path: Path) -> None:
    result = run_serve(tmp_path, "--token", "correct horse battery staple")
    assert result.returncode == 2
    assert "without spaces" in result.stderr
    assert "Traceback" not in result.stderr


def test_sessions_outlive_a_restart(tmp_path: Path) -> None:
    env = {"SUPPORT_BOT_DATA_DIR": str(tmp_path), "SUPPORT_BOT_TOKEN": ""}
    with (
        serve_process("--model", "scripted:demo", env=env, cwd=tmp_path) as first,
        first.client() as browser,
    ):
        cid = browser.post("/api/conversations").json()["id"]
        cookie = browser.cookies["sb_session"]
    key_file = tmp_path / SESSION_KEY_FILENAME
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    with (
        serve_process("--model", "scripted:demo", env=env, cwd=tmp_path) as second,
        second.client(cookies={"sb_session": cookie}) as browser,
    ):
        assert browser.get(f"/api/conversations/{cid}").status_code == 200


def test_the_session_key_is_shared_and_kept(tmp_path: Path) -> None:
    assert session_key(None, tmp_path) == session_key(None, tmp_path)
    token = "a-test-token-that-is-long-enough"
    assert session_key(token, tmp_path / "elsewhere") == session_key(token, tmp_path)
    assert session_key(token, tmp_path) != session_key(None, tmp_path)
    assert not (tmp_path / "elsewhere").exists()  # a token needs no file


@pytest.mark.parametrize(
    "url", ["mysql://u:pw@h/db", "sqlite://relative.db", "mongodb+srv://h/db", "redis://h"]
)
def test_an_unknown_database_scheme_is_refused_and_creates_nothing(
    tmp_path: Path, url: str
) -> None:
    data = tmp_path / "data"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "support_bot",
            "serve",
            "--model",
            "scripted:demo",
            "--database",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "SUPPORT_BOT_DATA_DIR": str(data), "SUPPORT_BOT_TOKEN": ""},
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "postgresql://" in result.stderr
    assert "sqlite:///" in result.stderr
    assert "pw" not in result.stderr
    assert list(tmp_path.iterdir()) == []  # no data folder, no key, no SQLite file


def test_the_schemes_that_work_are_not_refused() -> None:
    from support_bot.serve._command import database_problem

    for url in [
        None,
        "",
        "shop.db",
        "/var/lib/shop.db",
        "sqlite:///shop.db",
        "postgresql://u@h/db",
        "POSTGRES://u@h/db",
        "C:\\data\\shop.db",
    ]:
        assert database_problem(url) is None, url
