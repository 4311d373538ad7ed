"""OpenAIChatModel over real HTTP: a scripted loopback server for the wire format and failures."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from replay_server import WEATHER, WEATHER_SCHEMA, ReplayServer, Reply, closed_port
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Message,
    Prompt,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models import ModelError, ModelUnavailableError
from springtail.models._openai import OpenAIChatModel
from springtail.models._wire import MISSING_TOOL_NAME


def completion(
    content: str | None = "Hello!",
    tool_calls: list[dict[str, Any]] | None = None,
    finish_reason: str = "stop",
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def chunk(delta: dict[str, Any], finish_reason: str | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-2",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "test-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        **extra,
    }


def model_for(server: ReplayServer, **kwargs: Any) -> OpenAIChatModel:
    kwargs.setdefault("max_retries", 0)
    return OpenAIChatModel("test-model", base_url=f"{server.url}/v1", **kwargs)


async def test_request_carries_messages_tools_and_options_in_chat_completions_form() -> None:
    history: list[Message] = [
        SystemMessage("Be brief."),
        UserMessage("Weather in Oslo?"),
        AssistantMessage(tool_calls=(ToolCall("call_1", "weather", '{"city": "Oslo"}'),)),
        ToolResponseMessage((ToolResponse("call_1", "weather", "Rain", is_error=False),)),
    ]
    options = ChatOptions(
        temperature=0.0,
        top_p=0.5,
        max_tokens=20,
        stop=("END",),
        seed=7,
        parallel_tool_calls=False,
        tool_callbacks=(WEATHER,),
        extra={"tool_choice": "weather", "top_k": 5},
    )
    with ReplayServer([Reply(json=completion())]) as server:
        response = await model_for(server).acall(Prompt(history, options))

    body = server.received[0].body
    assert server.received[0].path == "/v1/chat/completions"
    assert body["model"] == "test-model"
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Oslo?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "Rain"},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "Weather for a city.",
                "parameters": WEATHER_SCHEMA,
            },
        }
    ]
    assert body["parallel_tool_calls"] is False
    assert body["tool_choice"] == {"type": "function", "function": {"name": "weather"}}
    assert (body["temperature"], body["top_p"], body["max_tokens"]) == (0.0, 0.5, 20)
    assert (body["stop"], body["seed"], body["top_k"]) == (["END"], 7, 5)
    assert response.text == "Hello!"
    assert response.metadata.usage.total_tokens == 18
    assert response.metadata.model == "test-model"
    assert response.result is not None
    assert response.result.metadata.finish_reason == "stop"


async def test_request_options_win_over_defaults_and_tools_only_when_present() -> None:
    defaults = ChatOptions(model="default-model", temperature=0.9, parallel_tool_calls=True)
    with ReplayServer([Reply(json=completion())]) as server:
        model = model_for(server, default_options=defaults)
        await model.acall(Prompt("hi", ChatOptions(temperature=0.1)))
    body = server.received[0].body
    assert body["model"] == "default-model"
    assert body["temperature"] == 0.1
    # parallel_tool_calls without tools is rejected by OpenAI, so it is left out.
    assert "tools" not in body
    assert "parallel_tool_calls" not in body


async def test_tool_calls_in_a_complete_response_are_returned_unexecuted() -> None:
    calls = [
        {"id": "call_a", "type": "function", "function": {"name": "weather", "arguments": "{}"}},
        {"type": "function", "function": {"name": "weather", "arguments": '{"city": '}},
    ]
    reply = Reply(json=completion(None, calls, "tool_calls"))
    with ReplayServer([reply]) as server:
        response = await model_for(server).acall(
            Prompt("hi", ChatOptions(tool_callbacks=(WEATHER,)))
        )
    assert response.result is not None
    first, second = response.result.output.tool_calls
    assert first == ToolCall("call_a", "weather", "{}")
    # A missing id is generated; invalid JSON is kept for the tool layer to answer.
    assert second.id.startswith("call_")
    assert second.arguments == '{"city": '
    assert response.result.metadata.finish_reason == "tool_calls"


def fragmented_stream() -> list[dict[str, Any]]:
    def call(index: int, **fn: Any) -> dict[str, Any]:
        fragment: dict[str, Any] = {"index": index, "function": fn}
        return fragment

    return [
        {"data": chunk({"role": "assistant", "content": "Let me "})},
        {"data": chunk({"content": "check."})},
        {
            "data": chunk(
                {"tool_calls": [{**call(0, name="weather", arguments=""), "id": "call_x"}]}
            )
        },
        {"data": chunk({"tool_calls": [call(0, arguments='{"city":')]})},
        {"data": chunk({"tool_calls": [call(1, name="weather", arguments='{"city": "Rome"}')]})},
        {"data": chunk({"tool_calls": [call(0, arguments=' "Oslo"}')]})},
        {"data": chunk({"tool_calls": [call(2, arguments="")]})},
        {"data": chunk({"tool_calls": [call(3, arguments='{"city": "Bern"}')]})},
        {"data": chunk({}, "tool_calls")},
        {
            "data": {
                **chunk({}),
                "choices": [],
                "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
            }
        },
        {"data": "[DONE]"},
    ]


async def test_stream_assembles_tool_call_fragments_and_repairs_malformed_ones(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with ReplayServer([Reply(sse=fragmented_stream())]) as server:
        model = model_for(server)
        with caplog.at_level(logging.WARNING, logger="springtail.models"):
            chunks = [c async for c in model.astream(Prompt("weather?"))]

    assert server.received[0].body["stream"] is True
    assert server.received[0].body["stream_options"] == {"include_usage": True}
    assert "".join(c.text for c in chunks) == "Let me check."
    calls = [call for c in chunks for g in c.results for call in g.output.tool_calls]
    assert [(c.name, c.arguments) for c in calls] == [
        ("weather", '{"city": "Oslo"}'),
        ("weather", '{"city": "Rome"}'),
        (MISSING_TOOL_NAME, '{"city": "Bern"}'),
    ]
    assert calls[0].id == "call_x"
    assert len({c.id for c in calls}) == 3
    # Every call appears once, complete, in the last chunk, with usage and finish reason.
    assert not any(c.has_tool_calls() for c in chunks[:-1])
    assert chunks[-1].metadata.usage.total_tokens == 8
    assert chunks[-1].results[0].metadata.finish_reason == "tool_calls"
    assert "no name and no arguments" in caplog.text
    assert "without a tool name" in caplog.text


def test_sync_stream_yields_text_deltas() -> None:
    events: list[dict[str, Any]] = [
        {"data": chunk({"content": "Hel"})},
        {"data": chunk({"content": "lo"}, "stop")},
        {"data": "[DONE]"},
    ]
    with ReplayServer([Reply(sse=events)]) as server:
        pieces = [c.text for c in model_for(server, stream_usage=False).stream(Prompt("hi"))]
    assert "stream_options" not in server.received[0].body
    assert "".join(pieces) == "Hello"
    assert pieces[:2] == ["Hel", "lo"]


def test_reasoning_text_is_kept_out_of_the_answer() -> None:
    complete = completion("42")
    complete["choices"][0]["message"]["reasoning_content"] = "6 times 7"
    events: list[dict[str, Any]] = [
        {"data": chunk({"reasoning_content": "6 times"})},
        {"data": chunk({"reasoning_content": " 7"})},
        {"data": chunk({"content": "42"}, "stop")},
        {"data": "[DONE]"},
    ]
    with ReplayServer([Reply(json=complete), Reply(sse=events)]) as server:
        model = model_for(server)
        response = model.call(Prompt("6*7?"))
        chunks = list(model.stream(Prompt("6*7?")))
    assert response.text == "42"
    assert response.results[0].metadata.extra["thinking"] == "6 times 7"
    assert "".join(c.text for c in chunks) == "42"
    assert "".join(c.results[0].metadata.extra.get("thinking", "") for c in chunks) == "6 times 7"


def test_429_and_500_are_retried_with_backoff_until_success() -> None:
    fast = {"retry-after-ms": "10"}
    script = [
        Reply(status=429, json={"error": {"message": "slow down"}}, headers=fast),
        Reply(status=500, json={"error": {"message": "oops"}}, headers=fast),
        Reply(json=completion("Finally.")),
    ]
    with ReplayServer(script) as server:
        response = model_for(server, max_retries=2).call(Prompt("hi"))
    assert response.text == "Finally."
    assert len(server.received) == 3


def test_a_server_error_past_the_retries_is_a_model_error_with_the_servers_words() -> None:
    server = ReplayServer([Reply(status=503, json={"error": {"message": "overloaded"}})])
    with server, pytest.raises(ModelError, match="answered 503: overloaded"):
        model_for(server, max_retries=0).call(Prompt("hi"))
    assert len(server.received) == 1


def test_a_rejected_key_says_to_check_the_key() -> None:
    server = ReplayServer([Reply(status=401, json={"error": {"message": "bad key"}})])
    with server, pytest.raises(ModelUnavailableError, match="the api_key you passed"):
        model_for(server, api_key="sk-wrong").call(Prompt("hi"))


def test_connection_refused_names_the_base_url_to_start() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    model = OpenAIChatModel("m", base_url=url, max_retries=0)
    with pytest.raises(ModelUnavailableError) as caught:
        model.call(Prompt("hi"))
    assert str(caught.value) == (
        f"Cannot reach the OpenAI-compatible server at {url}: "
        "start it (or fix the base URL) and try again."
    )
    with pytest.raises(ModelUnavailableError, match="Cannot reach"):
        list(model.stream(Prompt("hi")))


def test_openai_without_a_key_says_which_variable_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelUnavailableError, match="set OPENAI_API_KEY"):
        OpenAIChatModel()


def test_key_and_base_url_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    with ReplayServer([Reply(json=completion())]) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
        monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
        OpenAIChatModel("m").call(Prompt("hi"))
    assert server.received[0].headers["authorization"] == "Bearer sk-from-env"
    assert json.dumps(server.received[0].body["messages"]) == json.dumps(
        [{"role": "user", "content": "hi"}]
    )


# -- a real OpenAI-compatible server on loopback: llama.cpp's, serving the embedded model --

# Weight repacking (llama.cpp's "extra buffer types", AMX/AVX repacked matmuls)
# crashes with SIGSEGV on CPUs that advertise AMX inside some VMs; it only
# speeds up prompt processing, so the test server runs without it.
_LAUNCH_SERVER = """
import runpy, sys
import llama_cpp.llama_cpp as C
_defaults = C.llama_model_default_params
def _params():
    params = _defaults()
    params.use_extra_bufts = False
    return params
C.llama_model_default_params = _params
sys.argv[0] = "llama_cpp.server"
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""


@pytest.fixture(scope="session")
def llama_server() -> Iterator[str]:
    """The base URL of ``python -m llama_cpp.server`` serving the embedded model."""
    pytest.importorskip("llama_cpp.server")
    from springtail.models._llamacpp import ensure_model_file

    port = closed_port()
    command = [sys.executable, "-c", _LAUNCH_SERVER, "--model", str(ensure_model_file())]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"]
    command += ["--n_threads", str(max(1, min(4, os.cpu_count() or 1))), "--verbose", "False"]
    base_url = f"http://127.0.0.1:{port}/v1"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_until_serving(process, log, base_url)
            yield base_url
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_serving(process: subprocess.Popen[bytes], log: Any, base_url: str) -> None:
    deadline = time.monotonic() + 180
    while True:
        if process.poll() is not None:
            log.seek(0)
            tail = log.read().decode("utf-8", "replace")[-2000:]
            pytest.fail(f"llama_cpp.server exited with {process.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail("llama_cpp.server did not start within 180 s")
            time.sleep(0.5)


def real_model(base_url: str, **options: Any) -> OpenAIChatModel:
    defaults = ChatOptions(temperature=0.0, seed=1, **options)
    return OpenAIChatModel(base_url=base_url, default_options=defaults, timeout=300)


@pytest.mark.model
def test_real_server_returns_a_forced_tool_call(llama_server: str) -> None:
    model = real_model(llama_server, max_tokens=40)
    options = ChatOptions(tool_callbacks=(WEATHER,), extra={"tool_choice": "weather"})
    response = model.call(Prompt("What is the weather in Oslo?", options))
    assert response.result is not None
    (call,) = response.result.output.tool_calls
    assert call.name == "weather"
    assert call.id
    assert "oslo" in json.loads(call.arguments)["city"].lower()
    assert response.metadata.usage.prompt_tokens > 0


@pytest.mark.model
def test_real_server_streams_a_plain_answer(llama_server: str) -> None:
    model = real_model(llama_server, max_tokens=12)
    chunks = list(model.stream(Prompt("Say hello.")))
    assert "".join(c.text for c in chunks).strip()
    assert sum(1 for c in chunks if c.text) >= 2  # it really streamed, delta by delta
    assert not any(c.has_tool_calls() for c in chunks)
    assert chunks[-1].results[0].metadata.finish_reason in ("stop", "length")


@pytest.mark.model
def test_chat_client_tool_loop_runs_against_the_real_server(llama_server: str) -> None:
    from springtail import ChatClient, tool

    asked: list[str] = []

    @tool(return_direct=True)
    def weather(city: str) -> str:
        """Current weather for a city."""
        asked.append(city)
        return f"Sunny in {city}"

    options = ChatOptions(max_tokens=40, extra={"tool_choice": "weather"})
    client = ChatClient(real_model(llama_server), tools=[weather], options=options)
    answer = client.prompt("What is the weather in Oslo?").call().content()
    assert len(asked) == 1
    assert "oslo" in asked[0].lower()
    assert answer == f"Sunny in {asked[0]}"


PERSON_SCHEMA: dict[str, Any] = {
    "title": "Person record",
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}


def test_a_response_schema_is_sent_natively_as_response_format() -> None:
    loose = {"type": "object", "properties": {"name": {"type": "string"}}}  # optional, open
    script = [Reply(json=completion('{"name": "Bob", "age": 7}')), Reply(json=completion("{}"))]
    with ReplayServer(script) as server:
        model = model_for(server)
        answer = model.call(Prompt("Who?", ChatOptions(response_schema=PERSON_SCHEMA)))
        model.call(Prompt("Who?", ChatOptions(response_schema=loose)))
    assert answer.text == '{"name": "Bob", "age": 7}'
    assert server.received[0].body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Person_record", "schema": PERSON_SCHEMA, "strict": True},
    }
    # A schema that strict mode would reject is sent without strict.
    assert server.received[1].body["response_format"]["json_schema"] == {
        "name": "response",
        "schema": loose,
        "strict": False,
    }


async def test_a_streamed_request_carries_the_response_format_and_none_without_a_schema() -> None:
    events: list[dict[str, Any]] = [{"data": chunk({"content": "{}"}, "stop")}, {"data": "[DONE]"}]
    with ReplayServer([Reply(sse=events), Reply(json=completion())]) as server:
        model = model_for(server)
        prompt = Prompt("Who?", ChatOptions(response_schema=PERSON_SCHEMA))
        assert "".join([c.text async for c in model.astream(prompt)]) == "{}"
        await model.acall(Prompt("hi"))
    assert server.received[0].body["response_format"]["json_schema"]["strict"] is True
    assert "response_format" not in server.received[1].body


# -- a misbehaving server: every fault is a ModelError with one true sentence --


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            Reply(body="{not json"),
            "answered with a body that is not valid JSON (Expecting property name enclosed in "
            "double quotes at line 1 column 2)",
        ),
        (
            Reply(body="<html><body>Please log in</body></html>", content_type="text/html"),
            "answered with something other than a chat completion "
            "(a text reply starting '<html><body>Please log in</body></html>')",
        ),
        (
            Reply(json={"choices": "nope"}),
            "answered with something other than a chat completion "
            "(a reply whose 'choices' is a string, not a list)",
        ),
        (
            Reply(json={"id": "x"}),
            "answered with something other than a chat completion (a reply without 'choices')",
        ),
        (
            Reply(json=[1, 2]),
            "answered with something other than a chat completion "
            "(an array where a reply object belongs)",
        ),
        (
            Reply(json={"choices": [{"index": 0, "message": "hi"}]}),
            "answered with something other than a chat completion (a choice the API does not",
        ),
        (
            Reply(json=completion("a long answer that will be cut in half"), cut=True),
            "dropped the connection before its answer was complete: try again",
        ),
    ],
)
def test_a_reply_that_is_not_a_completion_is_a_model_error_naming_the_server(
    reply: Reply, expected: str
) -> None:
    with ReplayServer([reply]) as server, pytest.raises(ModelError) as caught:
        model_for(server).call(Prompt("hi"))
    message = str(caught.value)
    assert message.startswith(f"The server at {server.url}/v1 {expected}")
    assert "\n" not in message
    assert "Cannot reach" not in message
    assert not isinstance(caught.value, ModelUnavailableError)


@pytest.mark.parametrize(
    ("events", "cut", "expected"),
    [
        (
            [{"raw": "data: {bad\n\n"}],
            False,
            "sent a stream line that is not valid JSON (Expecting property name",
        ),
        (
            [{"data": {"error": {"message": "model crashed", "type": "server_error"}}}],
            False,
            "reported an error while streaming its answer: model crashed",
        ),
        (
            [{"data": {**chunk({}), "choices": "nope"}}],
            False,
            "sent something other than a chat completion while streaming "
            "(a stream chunk whose 'choices' is a string, not a list)",
        ),
        ([], True, "dropped the connection while streaming its answer: try again"),
    ],
)
def test_a_stream_that_goes_wrong_mid_way_is_a_model_error_after_the_text_so_far(
    events: list[dict[str, Any]], cut: bool, expected: str
) -> None:
    opening = [{"data": chunk({"content": "Hel"})}]
    pieces: list[str] = []
    server = ReplayServer([Reply(sse=opening + events, cut=cut)])
    with server, pytest.raises(ModelError) as caught:
        pieces.extend(c.text for c in model_for(server).stream(Prompt("hi")))
    assert pieces == ["Hel"]
    assert str(caught.value).startswith(f"The server at {server.url}/v1 {expected}")
    assert "Cannot reach" not in str(caught.value)
    assert not isinstance(caught.value, ModelUnavailableError)


async def test_the_async_stream_reports_the_same_faults() -> None:
    events: list[dict[str, Any]] = [{"data": chunk({"content": "Hel"})}, {"raw": "data: {bad\n\n"}]
    server = ReplayServer([Reply(sse=events)])
    with server, pytest.raises(ModelError, match="stream line that is not valid JSON"):
        async for _ in model_for(server).astream(Prompt("hi")):
            pass


# -- whose key goes where -----------------------------------------------------


def _sent_key(server: ReplayServer) -> str:
    return server.received[-1].headers["authorization"].removeprefix("Bearer ")


def test_an_openai_compatible_url_never_gets_openais_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from springtail.models import from_uri

    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-secret")
    monkeypatch.delenv("SPRINGTAIL_OPENAI_COMPATIBLE_API_KEY", raising=False)
    monkeypatch.setenv("LOCAL_LLM_KEY", "local-key")
    script = [Reply(json=completion()) for _ in range(4)]
    with ReplayServer(script) as server:
        url = f"{server.url}/v1"
        from_uri(f"openai-compatible:{url}", max_retries=0).call(Prompt("hi"))
        assert _sent_key(server) == "not-needed"
        OpenAIChatModel("m", base_url=url, max_retries=0).call(Prompt("hi"))
        assert _sent_key(server) == "not-needed"
        monkeypatch.setenv("SPRINGTAIL_OPENAI_COMPATIBLE_API_KEY", "compatible-key")
        from_uri(f"openai-compatible:{url}#m", max_retries=0).call(Prompt("hi"))
        assert _sent_key(server) == "compatible-key"
        from_uri(f"openai-compatible:{url}#m?key_env=LOCAL_LLM_KEY").call(Prompt("hi"))
        assert _sent_key(server) == "local-key"
    assert all("sk-openai-secret" not in str(r.headers) for r in server.received)


def test_a_key_env_that_is_not_set_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    from springtail.models import from_uri

    monkeypatch.delenv("NO_SUCH_KEY", raising=False)
    with pytest.raises(ModelUnavailableError) as caught:
        from_uri("openai-compatible:http://127.0.0.1:1/v1#m?key_env=NO_SUCH_KEY")
    assert str(caught.value) == (
        "The environment variable NO_SUCH_KEY (key_env=) is not set: "
        "set it to the API key of the server at http://127.0.0.1:1/v1."
    )


def test_a_rejected_key_names_where_the_key_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPRINGTAIL_OPENAI_COMPATIBLE_API_KEY", "wrong")
    server = ReplayServer([Reply(status=401, json={"error": {"message": "bad key"}})])
    with server, pytest.raises(ModelUnavailableError) as caught:
        model_for(server).call(Prompt("hi"))
    assert str(caught.value).endswith("check SPRINGTAIL_OPENAI_COMPATIBLE_API_KEY.")


def test_credentials_in_the_url_are_masked_in_repr_and_errors() -> None:
    url = f"http://admin:hunter2@127.0.0.1:{closed_port()}/v1?api_key=sk-in-query"
    model = OpenAIChatModel("m", base_url=url, max_retries=0)
    assert "hunter2" not in repr(model)
    assert "sk-in-query" not in repr(model)
    assert "admin:***@" in repr(model)
    with pytest.raises(ModelUnavailableError) as caught:
        model.call(Prompt("hi"))
    assert "hunter2" not in str(caught.value)
    assert "sk-in-query" not in str(caught.value)
    assert "api_key=***" in str(caught.value)


# -- timeout is a deadline for the whole attempt --------------------------------


def test_keep_alives_cannot_stretch_a_streamed_answer_past_the_timeout() -> None:
    events: list[dict[str, Any]] = [{"data": chunk({"content": "late"}, "stop")}]
    trickle = Reply(sse=events, keepalive_every=0.2, keepalive_for=8.0)
    server = ReplayServer([trickle])
    started = time.monotonic()
    with server, pytest.raises(ModelError) as caught:
        list(model_for(server, timeout=1).stream(Prompt("hi")))
    assert time.monotonic() - started < 4.0  # the server would have taken 8 s
    assert str(caught.value) == (
        f"The server at {server.url}/v1 did not finish its streamed answer within 1 s: "
        "check the server, or raise timeout=."
    )


def test_a_trickled_body_times_out_and_a_retry_gets_a_deadline_of_its_own() -> None:
    trickle = Reply(json=completion("late"), keepalive_every=0.2, keepalive_for=8.0)
    server = ReplayServer([trickle, Reply(json=completion("on time"))])
    started = time.monotonic()
    with server:
        assert model_for(server, timeout=1, max_retries=1).call(Prompt("hi")).text == "on time"
    assert time.monotonic() - started < 5.0
    server = ReplayServer([trickle])
    with server, pytest.raises(ModelError, match=r"did not answer within 1 s \(0 retries\)"):
        model_for(server, timeout=1).call(Prompt("hi"))


# -- a stream that just stops is not an answer ----------------------------------


def test_a_stream_closed_without_finish_reason_or_done_is_a_truncation_error() -> None:
    events: list[dict[str, Any]] = [
        {"data": chunk({"content": "Hello"})},
        {"data": chunk({"content": " wor"})},
    ]
    pieces: list[str] = []
    server = ReplayServer([Reply(sse=events)])
    with server, pytest.raises(ModelError) as caught:
        pieces.extend(c.text for c in model_for(server).stream(Prompt("hi")))
    assert pieces == ["Hello", " wor"]
    assert str(caught.value) == (
        f"The server at {server.url}/v1 ended its streamed answer before it was complete "
        "(no finish_reason after 9 characters): try again, and check the server's log "
        "if it keeps happening."
    )


def test_a_truncated_tool_call_never_reaches_the_tool_loop() -> None:
    from springtail import ChatClient, tool

    ran: list[str] = []

    @tool
    def weather(city: str) -> str:
        """Weather for a city."""
        ran.append(city)
        return "sunny"

    fragment = {"index": 0, "id": "call_1", "function": {"name": "weather", "arguments": '{"te'}}
    events: list[dict[str, Any]] = [{"data": chunk({"tool_calls": [fragment]})}]
    server = ReplayServer([Reply(sse=events), Reply(sse=events)])
    with server:
        model = model_for(server)
        with pytest.raises(ModelError, match=r"0 characters and 1 unfinished tool call\(s\)"):
            list(model.stream(Prompt("weather?")))
        client = ChatClient(model, tools=[weather])
        with pytest.raises(ModelError, match="ended its streamed answer before it was complete"):
            list(client.prompt("Weather in Oslo?").stream().content())
    assert ran == []
    assert len(server.received) == 2  # the loop did not go round again either


def test_an_html_page_for_a_streamed_request_says_to_check_the_base_url() -> None:
    page = Reply(body="<html><body>Sign in</body></html>", content_type="text/html")
    server = ReplayServer([page])
    with server, pytest.raises(ModelError) as caught:
        list(model_for(server).stream(Prompt("hi")))
    assert str(caught.value) == (
        f"The server at {server.url}/v1 answered a streamed request with text/html instead "
        "of an event stream: check that the base URL is the server's OpenAI-compatible API "
        "(…/v1)."
    )
