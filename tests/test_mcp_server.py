"""``springtail mcp serve`` driven by the SDK's own client, over stdio and HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

import mcp_sample_tools
from mcp_helpers import REPO, SAMPLE_TOOLS, http_server, post_initialize
from springtail import tool_callbacks
from springtail.mcp import create_server

Elicit = Any


def serve_command(*extra: str) -> list[str]:
    return [sys.executable, "-m", "springtail.cli", "mcp", "serve", SAMPLE_TOOLS, *extra]


@asynccontextmanager
async def sdk_session(*extra: str, elicit: Elicit | None = None) -> AsyncIterator[ClientSession]:
    command = serve_command(*extra)
    parameters = StdioServerParameters(command=command[0], args=command[1:], cwd=str(REPO))
    async with (
        stdio_client(parameters) as (read, write),
        ClientSession(read, write, elicitation_callback=elicit) as session,
    ):
        await session.initialize()
        yield session


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))


async def test_the_sdk_client_lists_exactly_springtails_schemas() -> None:
    expected = {
        cb.tool_definition.name: cb.tool_definition for cb in tool_callbacks(mcp_sample_tools.TOOLS)
    }
    async with sdk_session() as session:
        listed = (await session.list_tools()).tools
    assert [t.name for t in listed] == list(expected)
    for listed_tool in listed:
        definition = expected[listed_tool.name]
        assert listed_tool.inputSchema == dict(definition.input_schema)
        assert listed_tool.description == definition.description


async def test_the_sdk_client_calls_tools() -> None:
    async with sdk_session() as session:
        added = await session.call_tool("add", {"a": 2, "b": 40})
        assert not added.isError
        assert text_of(added) == "42"
        who = await session.call_tool("whoami", {}, meta={"user_name": "dee", "tier": 2})
        assert json.loads(text_of(who)) == {"tier": 2, "user_name": "dee"}
        failed = await session.call_tool("fail", {"reason": "out of paper"})
        assert failed.isError
        assert text_of(failed) == "out of paper"
        unknown = await session.call_tool("nope", {})
        assert unknown.isError
        assert text_of(unknown).startswith("Unknown tool 'nope'; the tools are: add, convert")


async def test_a_tool_that_prints_does_not_break_stdio() -> None:
    async with sdk_session() as session:
        assert text_of(await session.call_tool("chatty", {})) == "still fine"
        assert text_of(await session.call_tool("add", {"a": 1, "b": 2})) == "3"


async def test_bad_arguments_get_springtails_field_by_field_text() -> None:
    local = {cb.tool_definition.name: cb for cb in tool_callbacks(mcp_sample_tools.TOOLS)}
    with pytest.raises(Exception) as direct:  # noqa: PT011 - the text is what matters
        local["convert"].call(json.dumps({"amount": "far", "unit": "yd", "extra": 1}))
    async with sdk_session() as session:
        result = await session.call_tool("convert", {"amount": "far", "unit": "yd", "extra": 1})
    assert result.isError
    assert text_of(result) == str(direct.value)
    assert "'amount'" in text_of(result)
    assert "'unit'" in text_of(result)


async def test_approval_is_refused_without_elicitation() -> None:
    async with sdk_session() as session:
        result = await session.call_tool("reserve", {"sku": "SKU-1"})
    assert result.isError
    assert "needs the user's approval and was not run" in text_of(result)
    assert "--yes" in text_of(result)


@pytest.mark.parametrize(
    ("answer", "ran"),
    [
        (types.ElicitResult(action="accept", content={"approve": True}), True),
        (types.ElicitResult(action="accept", content={"approve": False}), False),
        (types.ElicitResult(action="decline"), False),
    ],
)
async def test_approval_through_elicitation(answer: types.ElicitResult, ran: bool) -> None:
    asked: list[str] = []

    async def elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return answer

    async with sdk_session(elicit=elicit) as session:
        result = await session.call_tool("reserve", {"sku": "SKU-1", "quantity": 2})
    assert asked == ['Allow reserve({"sku": "SKU-1", "quantity": 2})?']
    assert result.isError is not ran
    if ran:
        assert text_of(result) == "reserved 2 of SKU-1"
    else:
        assert text_of(result) == "Tool 'reserve' was not run: the user did not approve it."


async def test_yes_approves_without_asking() -> None:
    async with sdk_session("--yes") as session:
        result = await session.call_tool("reserve", {"sku": "SKU-9"})
    assert text_of(result) == "reserved 1 of SKU-9"


async def test_the_sdk_client_over_http() -> None:
    with http_server(*serve_command()) as url:
        async with (
            streamable_http_client(url) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            names = [t.name for t in (await session.list_tools()).tools]
            assert "add" in names
            assert text_of(await session.call_tool("add", {"a": 1, "b": 1})) == "2"


def test_create_server_refuses_duplicate_names() -> None:
    with pytest.raises(ValueError, match="'add' is used more than once"):
        create_server([mcp_sample_tools.add, mcp_sample_tools.add])


def test_serve_reports_a_bad_source_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "springtail.cli", "mcp", "serve", "tests.mcp_sample_tools:nothing"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("springtail: ")
    assert "nothing" in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_taken_port_is_one_sentence() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*serve_command(), "--http", "--port", str(port)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    assert done.returncode == 1
    assert done.stderr == f"springtail: cannot serve on 127.0.0.1:{port}: Address already in use.\n"


# -- HTTP: DNS rebinding and tokens (issue 22) --------------------------------------

TOKEN = "mcp-test-token-0123456789"


def test_http_answers_only_its_own_names_and_pages() -> None:
    with http_server(*serve_command()) as url:
        port = urlsplit(url).port or 80
        rebound = post_initialize(url, {"host": f"attacker.example:{port}"})
        assert rebound.status_code == 421
        foreign = post_initialize(url, {"origin": "http://attacker.example"})
        assert foreign.status_code == 403
        other_port = post_initialize(url, {"origin": f"http://127.0.0.1:{port + 1}"})
        assert other_port.status_code == 403
        for name in ("127.0.0.1", "localhost", "[::1]"):
            own = {"host": f"{name}:{port}", "origin": f"http://{name}:{port}"}
            assert post_initialize(url, own).status_code == 200
        allowed = serve_command("--allowed-host", "tools.example")
    with http_server(*allowed) as url:
        proxied = {"host": "tools.example", "origin": "https://tools.example"}
        assert post_initialize(url, proxied).status_code == 200


def run_serve(*extra: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*serve_command(), "--http", "--port", "0", *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (("--host", "0.0.0.0"), "needs a token: pass --token or set $SPRINGTAIL_MCP_TOKEN"),
        (("--host", "0.0.0.0", "--token", "short"), "too short"),
        (("--host", "0.0.0.0", "--token", "with spaces in the token"), "without spaces"),
        (("--allowed-host", "http://x.example/"), "is not a host name"),
    ],
)
def test_an_unsafe_http_server_does_not_start(extra: tuple[str, ...], expected: str) -> None:
    done = run_serve(*extra, env={"SPRINGTAIL_MCP_TOKEN": ""})
    assert done.returncode == 2
    assert done.stderr.startswith("springtail: ")
    assert expected in done.stderr
    assert done.stderr.count("\n") == 1


async def test_on_another_interface_clients_send_the_token_as_a_bearer_header() -> None:
    with http_server(
        *serve_command("--host", "0.0.0.0"), env={**os.environ, "SPRINGTAIL_MCP_TOKEN": TOKEN}
    ) as url:
        url = url.replace("0.0.0.0", "127.0.0.1")
        refused = post_initialize(url, {})
        assert refused.status_code == 401
        assert "access token" in refused.json()["error"]
        assert (
            post_initialize(url, {"authorization": "Bearer wrong-token-0123456"}).status_code == 401
        )
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        async with (
            httpx.AsyncClient(headers=bearer) as http,
            streamable_http_client(url, http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            assert text_of(await session.call_tool("add", {"a": 2, "b": 2})) == "4"
