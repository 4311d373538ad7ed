"""OllamaChatModel through the official client, against recorded /api/chat exchanges on loopback."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from replay_server import (
    WEATHER,
    WEATHER_SCHEMA,
    ReplayServer,
    Reply,
    closed_port,
    load_recording,
    replies,
)
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
from springtail.models._ollama import OllamaChatModel


def model_for(server: ReplayServer, **kwargs: Any) -> OllamaChatModel:
    kwargs.setdefault("max_retries", 0)
    return OllamaChatModel(host=server.url, **kwargs)


async def test_tool_loop_exchange_sends_full_schemas_and_object_arguments() -> None:
    options = ChatOptions(
        temperature=0.0,
        max_tokens=64,
        seed=1,
        stop=("END",),
        tool_callbacks=(WEATHER,),
        extra={"num_ctx": 4096, "format": "json"},
    )
    first_prompt = Prompt([SystemMessage("Be brief."), UserMessage("Weather?")], options)
    with ReplayServer(replies(load_recording("ollama_tool_loop"))) as server:
        model = model_for(server, think=True, keep_alive="10m")
        first = await model.acall(first_prompt)
        assert first.result is not None
        calls = first.result.output.tool_calls
        answers = ToolResponseMessage(
            (
                ToolResponse(calls[0].id, "weather", "Rain"),
                ToolResponse(calls[1].id, "weather", "No such day", is_error=True),
            )
        )
        second = await model.acall(
            Prompt([*first_prompt.messages, first.result.output, answers], options)
        )

    # Object arguments become JSON text; a call without an id gets one.
    assert [(c.name, json.loads(c.arguments)) for c in calls] == [
        ("weather", {"city": "Oslo", "when": {"day": "today"}}),
        ("weather", {"city": "Rome"}),
    ]
    assert calls[0].id.startswith("call_")
    assert calls[1].id == "call_k2"
    assert first.result.metadata.extra["thinking"] == "The user wants the weather; call the tool."
    assert first.result.output.text == ""
    assert first.metadata.usage.total_tokens == 151
    assert second.text == "Rain in Oslo, sun in Rome."

    sent = server.received[0]
    assert sent.path == "/api/chat"
    assert sent.body["model"] == "qwen3.5:4b"
    assert sent.body["stream"] is False
    assert sent.body["think"] is True
    assert sent.body["keep_alive"] == "10m"
    assert sent.body["format"] == "json"
    assert sent.body["options"] == {
        "temperature": 0.0,
        "seed": 1,
        "num_predict": 64,
        "stop": ["END"],
        "num_ctx": 4096,
    }
    # The whole schema reaches Ollama: nested properties and additionalProperties too.
    assert sent.body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "Weather for a city.",
                "parameters": WEATHER_SCHEMA,
            },
        }
    ]
    assert sent.body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather?"},
    ]
    # Back to Ollama: arguments as objects again, one tool message per result.
    history = server.received[1].body["messages"]
    assert history[2]["role"] == "assistant"
    assert [c["function"] for c in history[2]["tool_calls"]] == [
        {"name": "weather", "arguments": {"city": "Oslo", "when": {"day": "today"}}},
        {"name": "weather", "arguments": {"city": "Rome"}},
    ]
    assert [(m["role"], m["tool_name"], m["content"]) for m in history[3:]] == [
        ("tool", "weather", "Rain"),
        ("tool", "weather", "No such day"),
    ]


async def test_stream_yields_text_deltas_and_the_tool_call_once() -> None:
    with ReplayServer(replies(load_recording("ollama_stream"))) as server:
        chunks = [c async for c in model_for(server).astream(Prompt("Weather?"))]
    assert server.received[0].body["stream"] is True
    assert "".join(c.text for c in chunks) == "Checking now."
    calls = [call for c in chunks for call in c.results[0].output.tool_calls]
    assert [(c.name, c.arguments) for c in calls] == [("weather", '{"city": "Oslo"}')]
    assert chunks[-1].has_tool_calls()
    assert chunks[-1].metadata.usage.total_tokens == 52
    assert chunks[-1].results[0].metadata.finish_reason == "stop"
    thinking = [c.results[0].metadata.extra.get("thinking") for c in chunks]
    assert "Need the tool." in thinking


def test_errors_a_missing_model_a_busy_server_and_a_broken_stream() -> None:
    with ReplayServer(replies(load_recording("ollama_errors"))) as server:
        model = model_for(server, max_retries=1)
        with pytest.raises(ModelUnavailableError) as missing:
            model.call(Prompt("hi"))
        # 503 is retried (once, with backoff) and then succeeds.
        assert model.call(Prompt("hi")).text == "Hello."
        with pytest.raises(ModelError, match="unexpected EOF"):
            list(model.stream(Prompt("hi")))
    assert str(missing.value) == (
        f"Ollama at {server.url} does not have the model 'qwen3.5:4b': "
        "run `ollama pull qwen3.5:4b` and try again."
    )
    assert len(server.received) == 4


def test_a_busy_server_past_the_retries_is_a_model_error() -> None:
    busy = Reply(status=503, json={"error": "server busy"})
    server = ReplayServer([busy, busy])
    with server, pytest.raises(ModelError, match="answered 503: server busy"):
        model_for(server, max_retries=1).call(Prompt("hi"))
    assert len(server.received) == 2


def test_connection_refused_says_to_start_and_pull(monkeypatch: pytest.MonkeyPatch) -> None:
    host = f"http://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("OLLAMA_HOST", host)
    model = OllamaChatModel()
    with pytest.raises(ModelUnavailableError) as caught:
        model.call(Prompt("hi"))
    assert str(caught.value) == (
        f"Cannot reach Ollama at {host}: start it with `ollama serve` "
        "(and `ollama pull qwen3.5:4b`), or point OLLAMA_HOST at a running server."
    )
    with pytest.raises(ModelUnavailableError, match="ollama serve"):
        list(model.stream(Prompt("hi")))


def test_malformed_arguments_from_earlier_turns_are_sent_back_as_empty_objects() -> None:
    reply = Reply(
        json={"model": "m", "message": {"role": "assistant", "content": "ok"}, "done": True}
    )
    history: list[Message] = [
        UserMessage("hi"),
        AssistantMessage(tool_calls=(ToolCall("c1", "weather", '{"city": '),)),
        ToolResponseMessage((ToolResponse("c1", "weather", "Invalid JSON", is_error=True),)),
    ]
    with ReplayServer([reply]) as server:
        model_for(server).call(Prompt(history))
    sent = server.received[0].body["messages"]
    assert sent[1]["tool_calls"][0]["function"] == {"name": "weather", "arguments": {}}
    assert sent[2]["content"] == "Invalid JSON"


def test_a_response_schema_is_sent_natively_as_format() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    reply = Reply(
        json={"model": "m", "message": {"role": "assistant", "content": "{}"}, "done": True}
    )
    lines = [
        {"model": "m", "message": {"role": "assistant", "content": '{"name": "Bob"}'}},
        {"model": "m", "message": {"role": "assistant", "content": ""}, "done": True},
    ]
    by_hand = Reply(json=reply.json)
    with ReplayServer([reply, Reply(ndjson=lines), by_hand]) as server:
        model = model_for(server)
        model.call(Prompt("Who?", ChatOptions(response_schema=schema)))
        streamed = list(model.stream(Prompt("Who?", ChatOptions(response_schema=schema))))
        model.call(Prompt("Who?", ChatOptions(response_schema=schema, extra={"format": "json"})))
    assert server.received[0].body["format"] == schema
    assert server.received[1].body["format"] == schema
    assert "".join(c.text for c in streamed) == '{"name": "Bob"}'
    assert server.received[2].body["format"] == "json"  # a format given by hand wins


_LINE = {"model": "m", "message": {"role": "assistant", "content": "Hel"}}


@pytest.mark.parametrize(
    ("reply", "stream", "expected"),
    [
        (Reply(body="{not json"), False, "answered with a body that is not valid JSON"),
        (
            Reply(body="<html>login</html>", content_type="text/html"),
            True,
            "answered with a body that is not valid JSON (Expecting value at line 1 column 1)",
        ),
        (
            Reply(json=[1]),
            False,
            "answered with something other than an /api/chat reply "
            "(a reply that is not a JSON object)",
        ),
        (
            Reply(json={"message": "nope", "done": True}),
            False,
            "answered with something other than an /api/chat reply "
            "(a reply whose 'message' is a string)",
        ),
        (
            Reply(json={"message": {"content": "a long answer cut short"}}, cut=True),
            False,
            "dropped the connection before its answer was complete: try again",
        ),
        (
            Reply(ndjson=[_LINE], cut=True),
            True,
            "dropped the connection while streaming its answer: try again",
        ),
        (
            Reply(ndjson=[_LINE, "{bad"]),
            True,
            "sent something other than an /api/chat reply while streaming "
            "(a stream line that is not a JSON object)",
        ),
    ],
)
def test_every_fault_is_a_model_error_with_one_true_sentence(
    reply: Reply, stream: bool, expected: str
) -> None:
    server = ReplayServer([reply])
    model = model_for(server)

    def ask() -> None:
        if stream:
            list(model.stream(Prompt("hi")))
        else:
            model.call(Prompt("hi"))

    with server, pytest.raises(ModelError) as caught:
        ask()
    assert str(caught.value).startswith(f"Ollama at {server.url} {expected}")
    assert not isinstance(caught.value, ModelUnavailableError)


def test_keep_alives_cannot_stretch_an_answer_past_the_timeout() -> None:
    answer = {"model": "m", "message": {"role": "assistant", "content": "late"}, "done": True}
    trickle = Reply(json=answer, keepalive_every=0.2, keepalive_for=8.0)
    server = ReplayServer([trickle])
    started = time.monotonic()
    with server, pytest.raises(ModelError, match=r"did not answer within 1 s \(0 retries\)"):
        model_for(server, timeout=1).call(Prompt("hi"))
    assert time.monotonic() - started < 4.0


def test_a_stream_without_its_done_line_is_a_truncation_error() -> None:
    lines = [
        {"model": "m", "message": {"role": "assistant", "content": "Hello wor"}, "done": False}
    ]
    server = ReplayServer([Reply(ndjson=lines)])
    with server, pytest.raises(ModelError) as caught:
        list(model_for(server).stream(Prompt("hi")))
    assert str(caught.value) == (
        f"Ollama at {server.url} ended its streamed answer before it was complete "
        "(no line with done: true after 9 characters): try again, and check the server's "
        "log if it keeps happening."
    )
