"""springtail's MCP client against real servers in real processes (the SDK both ways)."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

import mcp_sample_tools
from mcp_helpers import broken_server, http_server, pid_gone, raw_sdk_server, springtail_serve
from springtail import (
    AssistantMessage,
    ChatClient,
    ChatOptions,
    Prompt,
    ScriptedChatModel,
    ToolCall,
    ToolCallFinished,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolCallStarted,
    ToolContext,
    ToolExecutionError,
    ToolResponseMessage,
    UserMessage,
    tool_callbacks,
)
from springtail.mcp import HttpServer, McpClient, McpServerError, McpToolCallback, StdioServer


@pytest.fixture(scope="module")
def sample() -> Iterator[McpClient]:
    """One ``springtail mcp serve`` child shared by the tests that do not stop it."""
    with McpClient(springtail_serve(), name="sample", prefix="s_", timeout=20) as client:
        yield client


def by_name(client: McpClient) -> dict[str, McpToolCallback]:
    return {cb.tool_definition.name: cb for cb in client.tool_callbacks()}


def calls(*items: tuple[str, Mapping[str, object]]) -> AssistantMessage:
    return AssistantMessage(
        "", tuple(ToolCall(f"c{i}", name, json.dumps(args)) for i, (name, args) in enumerate(items))
    )


# -- definitions and calls ----------------------------------------------------


def test_tools_arrive_with_the_schemas_springtail_made(sample: McpClient) -> None:
    local = {
        cb.tool_definition.name: cb.tool_definition for cb in tool_callbacks(mcp_sample_tools.TOOLS)
    }
    remote = by_name(sample)
    assert sorted(remote) == sorted(f"s_{name}" for name in local)
    for name, definition in local.items():
        seen = remote[f"s_{name}"]
        assert seen.tool_definition.input_schema == definition.input_schema
        assert seen.tool_definition.description == definition.description
        assert seen.server == "sample"
        assert seen.server_tool_name == name
    assert sample.server_info is not None
    assert sample.server_info[0] == "springtail"


def test_results_errors_and_argument_text(sample: McpClient) -> None:
    tools = by_name(sample)
    assert tools["s_add"].call('{"a": 2, "b": 3}') == "5"
    assert json.loads(tools["s_convert"].call('{"amount": 10, "unit": "km"}')) == {"value": 6.214}
    with pytest.raises(ToolExecutionError) as bad:
        tools["s_add"].call('{"a": "x"}')
    assert "'a' must be an integer" in str(bad.value)
    assert "'b' is required but missing" in str(bad.value)
    with pytest.raises(ToolExecutionError, match="no stock"):
        tools["s_fail"].call('{"reason": "no stock"}')
    with pytest.raises(ToolExecutionError, match="not valid JSON"):
        tools["s_add"].call("{oops")


def test_tool_context_travels_as_meta(sample: McpClient) -> None:
    context = ToolContext({"user_name": "ann", "conversation_id": "c-1", "db": object()})
    answer = by_name(sample)["s_whoami"].call("{}", context)
    assert json.loads(answer) == {"conversation_id": "c-1", "user_name": "ann"}


async def test_calls_of_one_response_run_concurrently(sample: McpClient) -> None:
    nap = [("s_nap", {"seconds": 0.6 + i / 100}) for i in range(4)]  # identical calls are stopped
    model = ScriptedChatModel([calls(*nap), "done"])
    client = ChatClient(model, tools=sample.tool_callbacks())
    started = time.perf_counter()
    assert await client.prompt("nap four times").acall() is not None
    elapsed = time.perf_counter() - started
    assert elapsed < 1.8, f"four 0.6 s calls took {elapsed:.2f} s: they did not overlap"
    responses = model.prompts[1].messages[-1]
    assert isinstance(responses, ToolResponseMessage)
    assert [r.response_data for r in responses.responses] == [
        f"slept {0.6 + i / 100:g} s" for i in range(4)
    ]


def test_filter_prefix_and_approval() -> None:
    with McpClient(
        springtail_serve(),
        name="picky",
        tool_filter={"add", "reserve"},
        requires_approval={"reserve"},
    ) as client:
        tools = by_name(client)
        assert sorted(tools) == ["add", "reserve"]
        assert tools["reserve"].tool_metadata.requires_approval
        assert not tools["add"].requires_approval
        assert client.resolve("add") is tools["add"]
        assert client.resolve("nap") is None
        # no approver: the manager refuses; the model reads why
        model = ScriptedChatModel([calls(("reserve", {"sku": "A"})), "ok"])
        ChatClient(model, tools=client.tool_callbacks()).prompt("reserve").call()
        answer = model.prompts[1].messages[-1]
        assert isinstance(answer, ToolResponseMessage)
        assert answer.responses[0].is_error
        pid = int(by_name(client)["add"].call('{"a": 0, "b": 0}') or 0)  # still usable
        assert pid == 0


# -- the three control modes and streaming -----------------------------------


def test_framework_controlled(sample: McpClient) -> None:
    model = ScriptedChatModel([calls(("s_add", {"a": 128, "b": 32})), "It is 160."])
    client = ChatClient(model, tools=sample.tool_callbacks())
    assert client.prompt("128 plus 32?").call().content() == "It is 160."
    answer = model.prompts[1].messages[-1]
    assert isinstance(answer, ToolResponseMessage)
    assert answer.responses[0].response_data == "160"


def test_advisor_controlled_with_request_tools(sample: McpClient) -> None:
    model = ScriptedChatModel([calls(("s_convert", {"amount": 1, "unit": "mi"})), "1.609 km"])
    client = ChatClient(model, advisors=[ToolCallingAdvisor()])
    reply = client.prompt("a mile?").tools(*sample.tool_callbacks()).call()
    assert reply.content() == "1.609 km"
    answer = model.prompts[1].messages[-1]
    assert isinstance(answer, ToolResponseMessage)
    assert json.loads(answer.responses[0].response_data) == {"value": 1.609}


def test_user_controlled(sample: McpClient) -> None:
    model = ScriptedChatModel([calls(("s_add", {"a": 1, "b": 1}), ("s_whoami", {}))])
    options = ChatOptions(
        tool_callbacks=tuple(sample.tool_callbacks()), tool_context={"user_name": "bo"}
    )
    prompt = Prompt([UserMessage("go")], options)
    response = model.call(prompt)
    result = ToolCallingManager().execute_tool_calls(prompt, response)
    answers = result.conversation_history[-1]
    assert isinstance(answers, ToolResponseMessage)
    assert [r.response_data for r in answers.responses] == ["2", '{"user_name": "bo"}']


def test_streaming_events(sample: McpClient) -> None:
    model = ScriptedChatModel([calls(("s_add", {"a": 20, "b": 22})), "The answer is 42."])
    client = ChatClient(model, tools=sample.tool_callbacks())
    events = list(client.prompt("20 + 22?").stream().events())
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [e.tool_name for e in started] == ["s_add"]
    assert finished[0].result == "42"
    assert not finished[0].is_error
    text = "".join(getattr(e, "text", "") for e in events if type(e).__name__ == "TextDelta")
    assert text == "The answer is 42."


async def test_async_context_manager_and_astream() -> None:
    async with McpClient(springtail_serve(), name="a") as client:
        tools = await client.alist_tools()
        model = ScriptedChatModel([calls(("add", {"a": 1, "b": 2})), "3"])
        chat = ChatClient(model, tools=tools)
        pieces = [p async for p in chat.prompt("1+2").astream().content()]
        assert "".join(pieces) == "3"
        pid = int(await by_name(client)["server_pid"].acall("{}"))
    assert not client.connected
    assert pid_gone(pid)


# -- other servers -------------------------------------------------------------


def test_http_on_loopback() -> None:
    command = (
        sys.executable,
        "-m",
        "springtail.cli",
        "mcp",
        "serve",
        "tests.mcp_sample_tools:TOOLS",
    )
    with http_server(*command) as url:
        server = HttpServer(url=url, headers={"X-Token": "t"})
        with McpClient(server, name="web") as client:
            tools = by_name(client)
            assert tools["add"].call('{"a": 40, "b": 2}') == "42"
            answer = tools["whoami"].call("{}", ToolContext({"user_name": "cy"}))
            assert json.loads(answer) == {"user_name": "cy"}
            refused = ChatClient(
                ScriptedChatModel([calls(("reserve", {"sku": "A"})), "ok"]),
                tools=client.tool_callbacks(),
            )
            refused.prompt("reserve").call()
        assert not client.connected


def test_a_server_written_with_the_sdk() -> None:
    with McpClient(raw_sdk_server(), name="raw", prefix="raw_") as client:
        assert client.server_info == ("raw-sdk-server", "9.9")
        tools = by_name(client)
        assert sorted(tools) == ["raw_broken", "raw_echo", "raw_grow", "raw_picture"]
        echo = tools["raw_echo"].call('{"word": "hi"}')
        assert echo == 'echo: hi\n{"word":"hi","length":2}'
        with pytest.raises(ToolExecutionError, match="the printer is on fire"):
            tools["raw_broken"].call("{}")
        assert tools["raw_picture"].call("{}").startswith("[image: image/png")
        version = client.tools_version
        assert tools["raw_grow"].call("{}") == "grown"
        deadline = time.monotonic() + 5
        while client.tools_version == version and time.monotonic() < deadline:
            time.sleep(0.02)
        assert "raw_extra" in by_name(client), "the list_changed notification was not followed"
        assert by_name(client)["raw_extra"].call("{}") == "extra ran"


# -- failures ------------------------------------------------------------------


def test_a_server_that_crashes_mid_call() -> None:
    with McpClient(springtail_serve(), name="fragile") as client:
        pid = int(by_name(client)["server_pid"].call("{}"))
        model = ScriptedChatModel(
            [calls(("crash", {"after": 0.1})), calls(("add", {"a": 1, "b": 1})), "sorry"]
        )
        chat_tools = client.tool_callbacks()
        chat = ChatClient(model, tools=chat_tools)
        assert chat.prompt("crash it").call().content() == "sorry"
        first, second = (model.prompts[i].messages[-1] for i in (1, 2))
        assert isinstance(first, ToolResponseMessage)
        assert isinstance(second, ToolResponseMessage)
        assert first.responses[0].is_error
        assert second.responses[0].is_error
        message = first.responses[0].response_data
        assert message.startswith("MCP server 'fragile' (")
        assert message.endswith("stopped; it said: sample server: crashing on purpose.")
        assert "\n" not in message
        assert not client.connected
        assert pid_gone(pid)
        client.connect()  # starts a new child; the callbacks taken before work again
        assert int(by_name(client)["server_pid"].call("{}")) != pid
        old_add = next(cb for cb in chat_tools if cb.tool_definition.name == "add")
        assert old_add.call('{"a": 1, "b": 1}') == "2"


def test_a_slow_tool_times_out_and_the_server_stays_usable() -> None:
    with McpClient(springtail_serve(), name="slow", timeout=0.5) as client:
        model = ScriptedChatModel([calls(("nap", {"seconds": 5})), "too slow"])
        started = time.perf_counter()
        ChatClient(model, tools=client.tool_callbacks()).prompt("nap").call()
        assert time.perf_counter() - started < 3
        answer = model.prompts[1].messages[-1]
        assert isinstance(answer, ToolResponseMessage)
        assert answer.responses[0].is_error
        assert "0.5" in answer.responses[0].response_data
        with pytest.raises(ToolExecutionError, match=r"did not answer within 0\.5 s"):
            by_name(client)["nap"].call('{"seconds": 5}')
        assert by_name(client)["add"].call('{"a": 1, "b": 2}') == "3"


async def test_closing_during_a_call() -> None:
    client = McpClient(springtail_serve(), name="closing")
    await client.aconnect()
    tools = by_name(client)
    pid = int(await tools["server_pid"].acall("{}"))
    pending = asyncio.ensure_future(tools["block"].acall('{"seconds": 30}'))
    await asyncio.sleep(0.3)
    started = time.perf_counter()
    await client.aclose()
    with pytest.raises(ToolExecutionError, match="was closed"):
        await pending
    assert time.perf_counter() - started < 8
    assert pid_gone(pid)
    with pytest.raises(ToolExecutionError):
        await tools["add"].acall('{"a": 1, "b": 1}')


def test_sync_form_inside_a_running_loop() -> None:
    async def notebook_cell() -> str:
        with McpClient(springtail_serve(), name="nb") as client:
            chat = ChatClient(
                ScriptedChatModel([calls(("add", {"a": 2, "b": 2})), "four"]),
                tools=client.tool_callbacks(),
            )
            return chat.prompt("2+2").call().content()  # a sync call inside the loop

    assert asyncio.run(notebook_cell()) == "four"


@pytest.mark.parametrize(
    ("server", "expected"),
    [
        (StdioServer(command="no-such-mcp-server"), r"could not be started: No such file"),
        (
            StdioServer(command=sys.executable, args=("-c", "import sys; sys.exit('bad config')")),
            r"exited before it answered; it said: bad config\.$",
        ),
        (HttpServer(url="http://127.0.0.1:9/mcp"), r"could not be reached: "),
    ],
)
def test_a_server_that_will_not_start_is_one_sentence(
    server: StdioServer | HttpServer, expected: str
) -> None:
    client = McpClient(server, name="broken", startup_timeout=10)
    with pytest.raises(McpServerError, match=expected) as failed:
        client.connect()
    assert "\n" not in str(failed.value)
    assert failed.value.server == "broken"
    assert not client.connected
    with pytest.raises(McpServerError, match="not connected"):
        client.tool_callbacks()


def test_a_stdio_child_never_outlives_its_client() -> None:
    client = McpClient(springtail_serve(), name="short")
    with client:
        pid = int(by_name(client)["server_pid"].call("{}"))
    assert pid_gone(pid)
    client.close()  # twice is fine


def test_a_server_that_never_answers_is_stopped(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    silent = StdioServer(
        command=sys.executable,
        args=(
            "-c",
            f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); "
            "time.sleep(60)",
        ),
    )
    client = McpClient(silent, name="silent", startup_timeout=0.5)
    with pytest.raises(McpServerError, match=r"did not answer within 0\.5 s"):
        client.connect()
    assert pid_gone(int(pid_file.read_text()))


@pytest.mark.parametrize(("approve", "expected"), [(True, "reserved 2 of K-1"), (False, "not run")])
def test_elicitation_answers_a_servers_approval_question(approve: bool, expected: str) -> None:
    asked: list[tuple[str, Mapping[str, object]]] = []

    def elicit(message: str, schema: Mapping[str, object]) -> Mapping[str, object] | None:
        asked.append((message, schema))
        return {"approve": True} if approve else None

    with McpClient(springtail_serve(), name="asks", elicitation=elicit) as client:
        reserve = by_name(client)["reserve"]
        if approve:
            assert reserve.call('{"sku": "K-1", "quantity": 2}') == expected
        else:
            with pytest.raises(ToolExecutionError, match="the user did not approve it"):
                reserve.call('{"sku": "K-1", "quantity": 2}')
    assert [m for m, _ in asked] == ['Allow reserve({"sku": "K-1", "quantity": 2})?']
    assert asked[0][1]["required"] == ["approve"]


# -- broken servers (issue 22) ---------------------------------------------------


def test_a_refused_call_is_an_error_result_and_the_session_stays_open() -> None:
    with McpClient(broken_server(), name="broken", timeout=20) as client:
        lookup = by_name(client)["lookup"]
        with pytest.raises(ToolExecutionError) as refused:
            lookup.call('{"id": "missing"}')  # JSON-RPC error -32000 "record not found"
        assert str(refused.value) == "MCP server 'broken' refused the call: record not found"
        assert client.connected
        assert lookup.call('{"id": "7"}') == "record 7"
        model = ScriptedChatModel([calls(("lookup", {"id": "missing"})), "not found"])
        ChatClient(model, tools=client.tool_callbacks()).prompt("find it").call()
        answer = model.prompts[1].messages[-1]
        assert isinstance(answer, ToolResponseMessage)
        assert answer.responses[0].is_error
        assert answer.responses[0].response_data.endswith("refused the call: record not found")
        assert client.connected


def test_results_have_a_budget_and_say_what_was_cut() -> None:
    with McpClient(broken_server(), name="broken", max_result_chars=1000) as client:
        model = ScriptedChatModel([calls(("big", {})), "long"])
        ChatClient(model, tools=client.tool_callbacks()).prompt("big").call()
        with McpClient(broken_server(), name="default") as default:
            whole = by_name(default)["big"].call("{}")
    answer = model.prompts[1].messages[-1]
    assert isinstance(answer, ToolResponseMessage)
    cut = answer.responses[0].response_data
    assert cut.startswith("x" * 1000 + "\n[Result truncated")
    assert cut.endswith(
        "[Result truncated: 4999000 of 5000000 characters were cut to fit the "
        "1000-character limit.]"
    )
    assert len(whole) < 100_200
    assert whole.endswith("to fit the 100000-character limit.]")
    with pytest.raises(ValueError, match="max_result_chars"):
        McpClient(broken_server(), max_result_chars=0)


def test_the_servers_helpers_end_with_the_session() -> None:
    with McpClient(broken_server(), name="broken") as client:
        server = int(by_name(client)["spawn_helper"].call("{}"))
        helper = int(by_name(client)["spawn_helper"].call("{}"))
        assert not pid_gone(helper, within_s=0.2)
    assert pid_gone(helper)
    assert pid_gone(server)


def test_a_server_that_exits_mid_call_fails_it_at_once(tmp_path: Path) -> None:
    """Its helper holds stdout open, so the SDK saw no end and the call waited its timeout."""
    pid_file = tmp_path / "helper.pid"
    with McpClient(broken_server(), name="broken", timeout=60) as client:
        started = time.perf_counter()
        with pytest.raises(ToolExecutionError) as failed:
            by_name(client)["helper_then_crash"].call(json.dumps({"pid_file": str(pid_file)}))
        elapsed = time.perf_counter() - started
        assert elapsed < 10, f"the call waited {elapsed:.1f} s for a server that had exited"
        assert str(failed.value).endswith("stopped; it said: broken server: crashing on purpose.")
        assert not client.connected
        assert pid_gone(int(pid_file.read_text()))
        with pytest.raises(ToolExecutionError, match="stopped"):
            by_name(client)["lookup"].call('{"id": "1"}')


def test_a_stray_line_and_an_unknown_block_are_one_sentence_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING), McpClient(broken_server(), name="broken") as client:
        tools = by_name(client)
        assert tools["stray"].call("{}") == "still here"
        with pytest.raises(ToolExecutionError) as weird:
            tools["weird_block"].call("{}")
        assert client.connected
    assert str(weird.value) == (
        "MCP server 'broken' answered 'weird_block' with a result that is not valid MCP "
        "(content block 1 has the unknown type 'weird')."
    )
    stray = [r for r in caplog.records if "stray line" in r.getMessage()]
    assert len(stray) == 1
    assert stray[0].getMessage().startswith("MCP server 'broken' (")
    assert "wrote a line on stdout that is not an MCP message" in stray[0].getMessage()
    assert all(r.exc_info is None for r in caplog.records)
    assert all("\n" not in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if "weird" in r.getMessage()]  # said once, as the answer


def test_tools_a_model_cannot_call_are_left_out_in_one_sentence(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        caplog.at_level(logging.WARNING),
        McpClient(broken_server(), name="broken", prefix="b_") as client,
    ):
        names = sorted(by_name(client))
        skipped = client.skipped_tools
        assert by_name(client)["b_lookup"].call('{"id": "2"}') == "record 2"
    usable = ["lookup", "big", "weird_block", "stray", "spawn_helper", "helper_then_crash"]
    assert names == sorted(f"b_{name}" for name in usable)
    assert skipped == ("", "has space", "new\nline", "x" * 300, "lookup")
    [warning] = [r.getMessage() for r in caplog.records if "cannot be called" in r.getMessage()]
    assert warning.startswith("MCP server 'broken' offers 5 tool(s) that cannot be called")
    assert "'has space'" in warning
    assert "'new\\nline'" in warning
    assert "\n" not in warning
    assert "b_NAME must be 1 to 64 letters" in warning
