"""support-bot and MCP: ``support-bot mcp`` for the SDK's client, ``--mcp FILE`` in the chat."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from mcp_helpers import REPO, http_server, post_initialize
from support_bot._mcp_tools import mcp_tools
from support_bot._store import DB_FILENAME
from support_bot.tool_names import ALL_TOOL_NAMES, PRODUCT_RESERVE


def bot_env(data_dir: Path, script: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUPPORT_BOT_")}
    env["SUPPORT_BOT_DATA_DIR"] = str(data_dir)
    if script is not None:
        env["SUPPORT_BOT_SCRIPT"] = str(script)
    return env


@asynccontextmanager
async def bot_session(
    data_dir: Path, *extra: str, elicit: Any | None = None
) -> AsyncIterator[ClientSession]:
    parameters = StdioServerParameters(
        command=sys.executable,
        args=["-m", "support_bot", "mcp", *extra],
        env=bot_env(data_dir),
        cwd=str(REPO),
    )
    async with (
        stdio_client(parameters) as (read, write),
        ClientSession(read, write, elicitation_callback=elicit) as session,
    ):
        await session.initialize()
        yield session


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))


def stock(data_dir: Path, sku: str) -> int:
    with sqlite3.connect(data_dir / DB_FILENAME) as conn:
        return int(conn.execute("SELECT stock FROM products WHERE sku = ?", (sku,)).fetchone()[0])


async def test_the_sdk_client_lists_and_calls_the_bots_tools(tmp_path: Path) -> None:
    async with bot_session(tmp_path) as session:
        names = [t.name for t in (await session.list_tools()).tools]
        assert sorted(names) == sorted(ALL_TOOL_NAMES)
        assert len(names) == 13
        product = await session.call_tool(
            "calculate", {"operation": "multiply", "left": "128", "right": "32"}
        )
        assert not product.isError
        assert "4096" in text_of(product)
        summary = await session.call_tool(
            "session_summary",
            {"topic": "stock"},
            meta={"user_name": "eve", "conversation_id": "c-7"},
        )
        assert "eve" in text_of(summary)
        before = stock(tmp_path, "SKU-100")
        refused = await session.call_tool(PRODUCT_RESERVE, {"sku": "SKU-100", "quantity": 1})
        assert refused.isError
        assert "needs the user's approval and was not run" in text_of(refused)
        assert stock(tmp_path, "SKU-100") == before


async def test_reserve_runs_with_yes_on_the_same_data_file(tmp_path: Path) -> None:
    async with bot_session(tmp_path, "--yes") as session:
        before = stock(tmp_path, "SKU-100")
        done = await session.call_tool(PRODUCT_RESERVE, {"sku": "SKU-100", "quantity": 2})
        assert not done.isError, text_of(done)
        assert text_of(done).startswith("Reserved 2 unit(s) of SKU-100")
    assert stock(tmp_path, "SKU-100") == before - 2


async def test_reserve_asks_the_clients_user(tmp_path: Path) -> None:
    asked: list[str] = []

    async def elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": True})

    async with bot_session(tmp_path, elicit=elicit) as session:
        done = await session.call_tool(PRODUCT_RESERVE, {"sku": "SKU-100", "quantity": 1})
    assert asked == ['Allow product_reserve({"sku": "SKU-100", "quantity": 1})?']
    assert not done.isError, text_of(done)


# -- support-bot --mcp FILE ------------------------------------------------------


def servers_file(tmp_path: Path, entry: dict[str, object] | None = None) -> Path:
    shipping = {"command": sys.executable, "args": [str(REPO / "examples" / "mcp_server.py")]}
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": {"shipping": entry or shipping}}))
    return path


def run_bot(
    args: Sequence[str], tmp_path: Path, script: list[object], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    script_file = tmp_path / "script.json"
    script_file.write_text(json.dumps(script))
    return subprocess.run(
        [sys.executable, "-m", "support_bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=bot_env(tmp_path / "data", script_file),
        cwd=REPO,
        timeout=120,
        check=False,
    )


QUOTE_CALL: list[object] = [
    {
        "tool_calls": [
            {"name": "shipping_quote", "arguments": {"weight_kg": 3, "country": "Germany"}}
        ]
    },
    "Shipping 3 kg to Germany costs EUR 18.50.",
]


def test_ask_answers_through_a_tool_in_another_process(tmp_path: Path) -> None:
    done = run_bot(
        ["--mcp", str(servers_file(tmp_path)), "--show-tools", "ask", "Shipping 3 kg to Germany?"],
        tmp_path,
        QUOTE_CALL,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Shipping 3 kg to Germany costs EUR 18.50."
    assert "shipping_quote" in done.stderr
    assert "costs EUR 18.50 (2-4 working days)" in done.stderr


def test_tools_lists_mcp_tools_with_their_server(tmp_path: Path) -> None:
    done = run_bot(["--mcp", str(servers_file(tmp_path))], tmp_path, [], stdin="/tools\n/exit\n")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if "shipping_quote" in x)
    assert "(MCP server shipping)" in line
    assert "Quote the cost of shipping" in line
    assert "product_reserve (asks first)" in done.stdout


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"command": "no-such-server-binary"}, "could not be started"),
        ({"url": "ftp://x"}, "must start with http:// or https://"),
        (
            {"command": sys.executable, "args": ["-c", "import sys; sys.exit('no config')"]},
            "no config",
        ),
    ],
)
def test_a_bad_mcp_server_is_one_sentence_and_exit_4(
    tmp_path: Path, entry: dict[str, object], expected: str
) -> None:
    done = run_bot(["--mcp", str(servers_file(tmp_path, entry)), "ask", "hi"], tmp_path, ["hi"])
    assert done.returncode == 4
    assert done.stderr.startswith("support-bot: ")
    assert expected in done.stderr
    assert done.stderr.count("\n") == 1
    assert done.stdout == ""


def test_an_mcp_tool_named_like_a_bot_tool_is_refused(tmp_path: Path) -> None:
    clash = tmp_path / "clash.py"
    clash.write_text(
        "from springtail import tool\n"
        "@tool\n"
        "def calculate(x: int) -> int:\n"
        '    """Clash."""\n'
        "    return x\n"
    )
    entry: dict[str, object] = {
        "command": sys.executable,
        "args": ["-m", "springtail.cli", "mcp", "serve", "clash:calculate"],
        "cwd": str(tmp_path),
    }
    done = run_bot(["--mcp", str(servers_file(tmp_path, entry)), "ask", "hi"], tmp_path, ["hi"])
    assert done.returncode == 4
    assert "'calculate', which support-bot already has" in done.stderr


@pytest.mark.model
def test_the_embedded_model_uses_a_tool_in_another_process(tmp_path: Path) -> None:
    """The README's MCP example, on the real embedded model."""
    env = bot_env(tmp_path / "data")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "support_bot",
            "--mcp",
            str(servers_file(tmp_path)),
            "--show-tools",
            "ask",
            "How much does shipping a 3 kg parcel to Germany cost?",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "shipping_quote(" in done.stderr
    assert "18.50" in done.stdout


# -- issue 22: HTTP like serve, and broken servers in the terminal ------------------------

TOKEN = "support-bot-mcp-token-0123"


def run_mcp(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``support-bot mcp ARGS`` to its end (a refusal)."""
    return subprocess.run(
        [sys.executable, "-m", "support_bot", "mcp", *args],
        capture_output=True,
        text=True,
        env=bot_env(tmp_path),
        cwd=REPO,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


async def test_mcp_over_http_answers_no_foreign_page(tmp_path: Path) -> None:
    """The probe read a customer's name and phone number through a rebound host name."""
    command = (sys.executable, "-m", "support_bot", "mcp")
    with http_server(*command, env=bot_env(tmp_path)) as url:
        port = urlsplit(url).port
        assert post_initialize(url, {"host": f"attacker.example:{port}"}).status_code == 421
        assert post_initialize(url, {"origin": "http://attacker.example"}).status_code == 403
        async with (
            streamable_http_client(url) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            contact = await session.call_tool("customer_contact_lookup", {"customer_id": "C-100"})
            assert not contact.isError


def test_mcp_over_http_on_another_interface_needs_a_token(tmp_path: Path) -> None:
    done = run_mcp(tmp_path, "--http", "--host", "0.0.0.0", "--port", "0")
    assert done.returncode == 2
    assert done.stderr == (
        "support-bot: Listening on 0.0.0.0 lets other machines in, so it needs a token: pass "
        "--token or set $SUPPORT_BOT_TOKEN (or keep the default --host 127.0.0.1).\n"
    )


async def test_mcp_over_http_takes_the_token_as_a_bearer_header(tmp_path: Path) -> None:
    command = (sys.executable, "-m", "support_bot", "mcp", "--host", "0.0.0.0")
    env = {**bot_env(tmp_path), "SUPPORT_BOT_TOKEN": TOKEN}
    with http_server(*command, env=env) as url:  # the URL it prints works as it is
        assert url.startswith("http://0.0.0.0:")
        assert post_initialize(url, {}).status_code == 401
        async with (
            httpx.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}) as http,
            streamable_http_client(url, http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            assert len((await session.list_tools()).tools) == 13


def test_mcp_refuses_the_chats_options(tmp_path: Path) -> None:
    done = run_mcp(tmp_path, "--mcp", "x.json", "--step", "step1")
    assert done.returncode == 2
    assert "--mcp and --step belong to the chat" in done.stderr


def test_a_configuration_that_is_not_utf8_is_one_sentence(tmp_path: Path) -> None:
    path = servers_file(tmp_path)
    path.write_text(path.read_text(), encoding="utf-16")
    done = run_bot(["--mcp", str(path), "ask", "hi"], tmp_path, ["hi"])
    assert done.returncode == 4
    assert done.stderr == (
        f"support-bot: The MCP configuration {path} is not UTF-8 text (byte 0xff at offset 0); "
        "save it as UTF-8.\n"
    )


def test_a_broken_server_is_one_sentence_per_problem_in_the_terminal(tmp_path: Path) -> None:
    entry: dict[str, object] = {
        "command": sys.executable,
        "args": [str(REPO / "tests" / "mcp_broken_server.py")],
    }
    script: list[object] = [
        {"tool_calls": [{"name": "stray", "arguments": {}}]},
        {"tool_calls": [{"name": "weird_block", "arguments": {}}]},
        {"tool_calls": [{"name": "big", "arguments": {}}]},
        "Done.",
    ]
    args = ["--mcp", str(servers_file(tmp_path, entry)), "--show-tools", "ask", "go"]
    done = run_bot(args, tmp_path, script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Done."
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    [skipped] = [line for line in lines if "cannot be called" in line]
    assert skipped.startswith("MCP server 'shipping' offers 5 tool(s) that cannot be called")
    [stray] = [line for line in lines if "stray line" in line]
    assert "wrote a line on stdout that is not an MCP message" in stray
    [weird] = [line for line in lines if "weird_block()" in line]
    assert "✗ weird_block() " in weird
    assert "answered 'weird_block' with a result that is not valid" in weird
    assert not any("pydantic" in line or "validation error" in line for line in lines)
    assert any(line.lstrip().startswith("✓ big()") for line in lines)


def test_the_bot_reads_at_most_4000_characters_of_an_mcp_result(tmp_path: Path) -> None:
    entry: dict[str, object] = {
        "command": sys.executable,
        "args": [str(REPO / "tests" / "mcp_broken_server.py")],
    }
    with mcp_tools(servers_file(tmp_path, entry)) as tools:
        big = next(t for t in tools if t.tool_definition.name == "big")
        answer = big.call("{}")
    assert answer.startswith("x" * 4000 + "\n[Result truncated: 4996000 of 5000000 characters")
