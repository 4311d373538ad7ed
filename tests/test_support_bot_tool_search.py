"""support-bot with a large MCP server: tool search when the tools would not fit the model."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("bm25s", reason="needs the search extra: pip install 'springtail[search]'")
from bench.distractors import distractor_tools

from mcp_helpers import REPO
from springtail import ChatModel, LlamaCppChatModel, Prompt, ScriptedChatModel, ToolCallback
from springtail.messages import AssistantMessage, ToolCall
from support_bot import cli
from support_bot._store import Store
from support_bot._tool_search import MAX_TOOLS, plan_tool_search
from support_bot.steps import SYSTEM_PROMPT
from support_bot.tools import all_tools

QUESTION = "How much does shipping a parcel to Busan cost?"


class SmallContextModel(ScriptedChatModel):
    """The scripted model, stating a context as small as the embedded model's."""

    n_ctx = 4096


def bot_tools() -> list[ToolCallback]:
    return list(all_tools(Store(Path(tempfile.mkdtemp()) / "support-bot.db")))


def servers_file(tmp_path: Path) -> Path:
    many = {"command": sys.executable, "args": [str(REPO / "bench" / "mcp_many_tools.py")]}
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": {"many": many}}))
    return path


def offered(prompt: Prompt) -> list[str]:
    assert prompt.options is not None
    return [cb.tool_definition.name for cb in prompt.options.tool_callbacks]


# -- the decision ------------------------------------------------------------------


def test_the_bots_own_tools_fit_and_need_no_search() -> None:
    assert plan_tool_search(LlamaCppChatModel("embedded"), bot_tools(), system_prompt="x") is None


def test_a_hundred_more_tools_turn_tool_search_on() -> None:
    tools = [*bot_tools(), *distractor_tools()]
    plan = plan_tool_search(LlamaCppChatModel("embedded"), tools, system_prompt=SYSTEM_PROMPT)
    assert plan is not None
    assert plan.search.mode == "retrieve"
    assert plan.search.max_tools == MAX_TOOLS
    assert plan.tools == 113
    assert plan.tool_tokens > 10_000
    assert plan.notice.startswith("Tool search is on: the 113 tools would take about ")
    assert "of the model's 4,096 tokens" in plan.notice


def test_a_model_that_states_no_context_gets_every_tool() -> None:
    model = ScriptedChatModel([])
    tools = [*bot_tools(), *distractor_tools()]
    assert plan_tool_search(model, tools, system_prompt=SYSTEM_PROMPT) is None


# -- support-bot --mcp, in this process with the scripted model ---------------------


def run_main(
    monkeypatch: pytest.MonkeyPatch, model: ChatModel, argv: list[str], stdin: str = ""
) -> int:
    monkeypatch.delenv("SUPPORT_BOT_SCRIPT", raising=False)
    monkeypatch.setattr(cli, "build_model", lambda uri, threads=None: (model, "scripted"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return cli.main(argv)


def quote_script() -> list[Any]:
    arguments = json.dumps({"destination_city": "Busan"})
    return [
        AssistantMessage(tool_calls=(ToolCall("c1", "parcel_rate_quote", arguments),)),
        "A 1 kg parcel to Busan costs USD 38.40.",
    ]


def test_ask_with_a_large_server_searches_and_says_so_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    model = SmallContextModel(quote_script())
    argv = ["--data-dir", str(tmp_path / "data"), "--mcp", str(servers_file(tmp_path))]
    code = run_main(monkeypatch, model, [*argv, "--show-tools", "ask", QUESTION])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.strip() == "A 1 kg parcel to Busan costs USD 38.40."
    assert err.count("Tool search is on: the 113 tools") == 1
    first = offered(model.prompts[0])
    assert "parcel_rate_quote" in first
    assert len(first) <= MAX_TOOLS
    assert "costs USD 38.40 by standard post" in err  # the MCP tool ran in its process


def test_the_chat_says_it_once_for_many_requests(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    model = SmallContextModel([*quote_script(), "Hello!"])
    argv = ["--data-dir", str(tmp_path / "data"), "--mcp", str(servers_file(tmp_path))]
    code = run_main(monkeypatch, model, argv, stdin=f"{QUESTION}\nHi!\n/exit\n")
    out, err = capsys.readouterr()
    assert code == 0, err
    assert (out + err).count("Tool search is on") == 1
    assert "USD 38.40" in out
    assert len(offered(model.prompts[2])) <= MAX_TOOLS


def test_a_small_server_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    shipping = {"command": sys.executable, "args": [str(REPO / "examples" / "mcp_server.py")]}
    servers = tmp_path / "servers.json"
    servers.write_text(json.dumps({"mcpServers": {"shipping": shipping}}))
    model = SmallContextModel(["Hello!"])
    argv = ["--data-dir", str(tmp_path / "data"), "--mcp", str(servers), "ask", "Hi!"]
    assert run_main(monkeypatch, model, argv) == 0
    assert "Tool search" not in capsys.readouterr().err
    assert len(offered(model.prompts[0])) == 14


# -- the real embedded model ------------------------------------------------------


@pytest.mark.model
def test_the_embedded_model_answers_through_a_large_server(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "support_bot",
            "--data-dir",
            str(tmp_path / "data"),
            "--mcp",
            str(servers_file(tmp_path)),
            "--show-tools",
            "ask",
            QUESTION,
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("Tool search is on") == 1
    assert "parcel_rate_quote" in done.stderr
    assert "38.40" in done.stdout
