"""AnthropicChatModel through the official SDK, against recorded Messages API exchanges."""

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
from springtail.models._anthropic import AnthropicChatModel


def model_for(server: ReplayServer, **kwargs: Any) -> AnthropicChatModel:
    kwargs.setdefault("max_retries", 0)
    return AnthropicChatModel(
        "claude-sonnet-5-5", api_key="sk-ant-test", base_url=server.url, **kwargs
    )


async def test_tool_loop_exchange_places_system_tools_and_results_as_the_api_wants() -> None:
    options = ChatOptions(
        temperature=0.0,
        stop=("END",),
        parallel_tool_calls=False,
        tool_callbacks=(WEATHER,),
    )
    first_prompt = Prompt(
        [SystemMessage("Be brief."), SystemMessage("Use tools."), UserMessage("Weather?")], options
    )
    with ReplayServer(replies(load_recording("anthropic_tool_loop"))) as server:
        model = model_for(server, max_tokens=300)
        first = await model.acall(first_prompt)
        assert first.result is not None
        answers = ToolResponseMessage(
            (
                ToolResponse("toolu_01", "weather", "Rain"),
                ToolResponse("toolu_02", "weather", "Service down", is_error=True),
            )
        )
        second = await model.acall(
            Prompt([*first_prompt.messages, first.result.output, answers], options)
        )

    output = first.result.output
    assert output.text == "I'll check both cities."
    assert [(c.id, c.name, json.loads(c.arguments)) for c in output.tool_calls] == [
        ("toolu_01", "weather", {"city": "Oslo", "when": {"day": "today"}}),
        ("toolu_02", "weather", {"city": "Rome"}),
    ]
    assert first.result.metadata.finish_reason == "tool_use"
    assert first.metadata.usage.total_tokens == 508
    assert second.text == "Rain in Oslo; I could not get Rome."

    sent = server.received[0]
    assert sent.path == "/v1/messages"
    credentials = f"{sent.headers.get('x-api-key')} {sent.headers.get('authorization')}"
    assert "sk-ant-test" in credentials
    assert sent.body["system"] == "Be brief.\n\nUse tools."
    assert sent.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Weather?"}]}
    ]
    assert sent.body["max_tokens"] == 300
    assert sent.body["temperature"] == 0.0
    assert sent.body["stop_sequences"] == ["END"]
    assert sent.body["tools"] == [
        {"name": "weather", "description": "Weather for a city.", "input_schema": WEATHER_SCHEMA}
    ]
    assert sent.body["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}

    history = server.received[1].body["messages"]
    assert [m["role"] for m in history] == ["user", "assistant", "user"]
    assert history[1]["content"] == [
        {"type": "text", "text": "I'll check both cities."},
        {
            "type": "tool_use",
            "id": "toolu_01",
            "name": "weather",
            "input": {"city": "Oslo", "when": {"day": "today"}},
        },
        {"type": "tool_use", "id": "toolu_02", "name": "weather", "input": {"city": "Rome"}},
    ]
    # Both results in one user turn; is_error passed through.
    assert history[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_01", "content": "Rain"},
        {
            "type": "tool_result",
            "tool_use_id": "toolu_02",
            "content": "Service down",
            "is_error": True,
        },
    ]


async def test_stream_assembles_input_json_deltas_into_one_call_each() -> None:
    with ReplayServer(replies(load_recording("anthropic_stream"))) as server:
        model = model_for(server)
        prompt = Prompt("Weather?", ChatOptions(tool_callbacks=(WEATHER,)))
        chunks = [c async for c in model.astream(prompt)]
    assert server.received[0].body["stream"] is True
    assert "tool_choice" not in server.received[0].body
    assert "".join(c.text for c in chunks) == "Let me check."
    calls = [call for c in chunks for call in c.results[0].output.tool_calls]
    assert calls == [
        ToolCall("toolu_01S", "weather", '{"city": "Oslo"}'),
        ToolCall("toolu_02S", "weather", "{}"),
    ]
    assert chunks[-1].results[0].metadata.finish_reason == "tool_use"
    assert chunks[-1].metadata.usage == chunks[-1].metadata.usage.__class__(472, 89, 561)


def test_overload_and_rate_limit_are_retried_then_errors_are_clear_sentences() -> None:
    with ReplayServer(replies(load_recording("anthropic_errors"))) as server:
        model = model_for(server, max_retries=2)
        assert model.call(Prompt("hi")).text == "Hello."
        with pytest.raises(ModelUnavailableError, match="check ANTHROPIC_API_KEY"):
            model.call(Prompt("hi"))
        pieces: list[str] = []

        def consume() -> None:
            pieces.extend(chunk.text for chunk in model.stream(Prompt("hi")))

        with pytest.raises(ModelError, match="Overloaded"):
            consume()
    assert pieces == ["Hel"]
    assert len(server.received) == 5


def test_forced_tool_and_any_choice_translate_to_tool_choice() -> None:
    answer = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-5-5",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    with ReplayServer([Reply(json=answer), Reply(json=answer)]) as server:
        model = model_for(server)
        for choice in ("weather", "required"):
            options = ChatOptions(tool_callbacks=(WEATHER,), extra={"tool_choice": choice})
            model.call(Prompt("hi", options))
    assert server.received[0].body["tool_choice"] == {"type": "tool", "name": "weather"}
    assert server.received[1].body["tool_choice"] == {"type": "any"}


def test_turns_alternate_even_when_a_user_message_follows_tool_results() -> None:
    answer = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "content": [],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 0},
    }
    history: list[Message] = [
        UserMessage("hi"),
        AssistantMessage(tool_calls=(ToolCall("t1", "weather", "not json"),)),
        ToolResponseMessage((ToolResponse("t1", "weather", "Invalid JSON", is_error=True),)),
        UserMessage("try again"),
    ]
    with ReplayServer([Reply(json=answer)]) as server:
        response = model_for(server).call(Prompt(history))
    assert response.text == ""
    sent = server.received[0].body["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[1]["content"][0]["input"] == {}
    assert [block["type"] for block in sent[2]["content"]] == ["tool_result", "text"]


def test_unreachable_api_and_missing_key_are_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    model = AnthropicChatModel(api_key="k", base_url=url, max_retries=0)
    with pytest.raises(ModelUnavailableError, match=f"Cannot reach the Anthropic API at {url}"):
        model.call(Prompt("hi"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ModelUnavailableError, match="set ANTHROPIC_API_KEY"):
        AnthropicChatModel()


def test_a_response_schema_is_left_to_the_prompt_since_the_api_has_no_native_one() -> None:
    answer = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "content": [{"type": "text", "text": '{"name": "Bob"}'}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    with ReplayServer([Reply(json=answer)]) as server:
        response = model_for(server).call(Prompt("Who?", ChatOptions(response_schema=schema)))
    assert response.text == '{"name": "Bob"}'
    body = server.received[0].body
    assert set(body) == {"model", "max_tokens", "messages"}
    assert AnthropicChatModel.native_response_schema is False


def _event(kind: str, **data: Any) -> dict[str, Any]:
    return {"event": kind, "data": {"type": kind, **data}}


_OPENING = [
    _event(
        "message_start",
        message={
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "c",
            "content": [],
            "stop_reason": None,
            "usage": {"input_tokens": 1, "output_tokens": 0},
        },
    ),
    _event("content_block_start", index=0, content_block={"type": "text", "text": ""}),
    _event("content_block_delta", index=0, delta={"type": "text_delta", "text": "Hel"}),
]


@pytest.mark.parametrize(
    ("reply", "stream", "expected"),
    [
        (Reply(body="{not json"), False, "answered with a body that is not valid JSON"),
        (
            Reply(body="<html>login</html>", content_type="text/html"),
            False,
            "answered with something other than a Messages API reply "
            "(a text reply starting '<html>login</html>')",
        ),
        (
            Reply(json={"content": "nope"}),
            False,
            "answered with something other than a Messages API reply "
            "(a reply whose 'content' is a string, not a list)",
        ),
        (
            Reply(json={"content": []}, cut=True),
            False,
            "dropped the connection before its answer was complete: try again",
        ),
        (
            Reply(sse=_OPENING, cut=True),
            True,
            "dropped the connection while streaming its answer: try again",
        ),
        (
            Reply(sse=[*_OPENING, {"raw": "event: content_block_delta\ndata: {bad\n\n"}]),
            True,
            "sent a stream line that is not valid JSON",
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
    assert str(caught.value).startswith(f"The Anthropic API at {server.url} {expected}")
    assert not isinstance(caught.value, ModelUnavailableError)


def test_keep_alives_cannot_stretch_a_streamed_answer_past_the_timeout() -> None:
    trickle = Reply(sse=_OPENING, keepalive_every=0.2, keepalive_for=8.0)
    server = ReplayServer([trickle])
    started = time.monotonic()
    with server, pytest.raises(ModelError, match="did not finish its streamed answer within 1 s"):
        list(model_for(server, timeout=1).stream(Prompt("hi")))
    assert time.monotonic() - started < 4.0


def test_a_stream_without_a_stop_reason_is_a_truncation_error() -> None:
    call_start = _event(
        "content_block_start",
        index=1,
        content_block={"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}},
    )
    partial = _event(
        "content_block_delta", index=1, delta={"type": "input_json_delta", "partial_json": '{"te'}
    )
    server = ReplayServer([Reply(sse=[*_OPENING, call_start, partial])])
    chunks: list[Any] = []
    with server, pytest.raises(ModelError) as caught:
        chunks.extend(model_for(server).stream(Prompt("hi")))
    assert str(caught.value) == (
        f"The Anthropic API at {server.url} ended its streamed answer before it was complete "
        "(no stop_reason after 3 characters and 1 unfinished tool call(s)): try again."
    )
    assert not any(c.has_tool_calls() for c in chunks)
