"""Reading ``{"mcpServers": ...}`` configurations: good ones, and one sentence for bad ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from springtail.mcp import HttpServer, StdioServer, load_servers, servers_from_config


def test_both_kinds_of_server_in_document_order() -> None:
    servers = servers_from_config(
        {
            "mcpServers": {
                "files": {"command": "npx", "args": ["-y", "server-files", 3], "env": {"A": 1}},
                "web": {"url": "https://example.test/mcp", "headers": {"Authorization": "x"}},
            }
        }
    )
    assert list(servers) == ["files", "web"]
    assert servers["files"] == StdioServer(
        command="npx", args=("-y", "server-files", "3"), env={"A": "1"}
    )
    assert servers["web"] == HttpServer(
        url="https://example.test/mcp", headers={"Authorization": "x"}
    )
    assert servers["files"].describe() == "npx -y server-files 3"


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ({}, 'has no "mcpServers" object'),
        ({"mcpServers": []}, 'has no "mcpServers" object'),
        ({"mcpServers": {"a": 1}}, 'server "a" must be an object'),
        ({"mcpServers": {"a": {}}}, 'server "a" needs a "command"'),
        ({"mcpServers": {"a": {"command": "x", "url": "http://y"}}}, "both a command and a url"),
        ({"mcpServers": {"a": {"command": "x", "args": "y"}}}, '"args" must be a list'),
        ({"mcpServers": {"a": {"command": "x", "env": []}}}, '"env" must be an object'),
        ({"mcpServers": {"a": {"url": "file:///x"}}}, "must start with http:// or https://"),
        ({"mcpServers": {"a": {"url": "http://x", "headers": []}}}, '"headers" an object'),
    ],
)
def test_a_bad_layout_is_one_sentence(document: Any, expected: str) -> None:
    with pytest.raises(ValueError, match=expected) as failed:
        servers_from_config(document)
    assert "\n" not in str(failed.value)


def test_files(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": {"a": {"command": "run-me"}}}))
    assert load_servers(path) == {"a": StdioServer(command="run-me")}
    with pytest.raises(ValueError, match=r"Cannot read the MCP configuration .*missing\.json"):
        load_servers(tmp_path / "missing.json")
    path.write_text("{not json")
    with pytest.raises(ValueError, match=r"is not valid JSON \(line 1"):
        load_servers(path)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "latin-1"])
def test_a_file_that_is_not_utf8_is_one_sentence_naming_it(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "servers.json"
    document = json.dumps({"mcpServers": {"café": {"command": "run-me"}}}, ensure_ascii=False)
    path.write_text(document, encoding=encoding)
    with pytest.raises(ValueError, match="is not UTF-8 text") as failed:
        load_servers(path)
    message = str(failed.value)
    assert message.startswith(f"The MCP configuration {path} is not UTF-8 text (byte 0x")
    assert message.endswith("; save it as UTF-8.")
    assert "codec" not in message


def test_a_utf8_file_may_start_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": {"a": {"command": "run-me"}}}), encoding="utf-8-sig")
    assert load_servers(path) == {"a": StdioServer(command="run-me")}


def test_values_check_themselves() -> None:
    with pytest.raises(ValueError, match="command must not be empty"):
        StdioServer(command=" ")
    with pytest.raises(ValueError, match="must start with http"):
        HttpServer(url="localhost:8000")
