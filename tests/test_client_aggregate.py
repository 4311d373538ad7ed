"""Putting a streamed response back together."""

from springtail.client._aggregate import StreamAggregator
from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    ChatResponseMetadata,
    Generation,
    GenerationMetadata,
    ToolCall,
    Usage,
)


def chunk(text: str = "", calls: tuple[ToolCall, ...] = (), **meta: object) -> ChatResponse:
    finish = meta.pop("finish", None)
    return ChatResponse(
        (Generation(AssistantMessage(text, calls), GenerationMetadata(finish)),),  # type: ignore[arg-type]
        ChatResponseMetadata(**meta),  # type: ignore[arg-type]
    )


def test_texts_join_calls_collect_usage_sums() -> None:
    agg = StreamAggregator()
    a = ToolCall("1", "x", "{}")
    b = ToolCall("2", "y", "{}")
    agg.add(chunk("Hel", id="r1", model="m"))
    agg.add(chunk("lo", (a,)))
    agg.add(chunk("", (b,), finish="tool_calls", usage=Usage(3, 4, 7)))
    agg.add(ChatResponse((), ChatResponseMetadata(usage=Usage(1, 1, 2))))
    assert agg.has_tool_calls
    response = agg.response()
    assert response.text == "Hello"
    assert response.result is not None
    assert response.result.output.tool_calls == (a, b)
    assert response.result.metadata.finish_reason == "tool_calls"
    assert response.metadata == ChatResponseMetadata("r1", "m", Usage(4, 5, 9))


def test_message_metadata_is_carried_and_merged() -> None:
    agg = StreamAggregator()
    call = ToolCall("1", "x", "{}")
    agg.add(ChatResponse((Generation(AssistantMessage("", (), {"a": 1, "b": 1})),)))
    agg.add(ChatResponse((Generation(AssistantMessage("", (call,), {"b": 2})),)))
    assert agg.response().results[0].output.metadata == {"a": 1, "b": 2}


def test_empty_stream_gives_an_empty_response() -> None:
    response = StreamAggregator().response()
    assert response.results == ()
    assert response.text == ""
