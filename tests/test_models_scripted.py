"""ScriptedChatModel replies in order, records prompts and streams like a provider."""

import threading

import pytest

from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    Prompt,
    ToolCall,
    Usage,
)
from springtail.models import ChatModel, ModelError, ScriptedChatModel, ScriptExhaustedError

CALL = ToolCall("c1", "lookup", '{"sku": "SKU-1"}')


def test_replies_in_order_with_every_item_kind() -> None:
    model = ScriptedChatModel(
        [
            "plain text",
            AssistantMessage("", (CALL,)),
            ChatResponse.of("full", finish_reason="stop", usage=Usage(1, 2, 3)),
            lambda prompt: f"you said {prompt.messages[-1].text}",  # type: ignore[union-attr]
        ]
    )
    assert isinstance(model, ChatModel)
    assert model.call(Prompt("a")).text == "plain text"
    assert model.call(Prompt("b")).result.output.tool_calls == (CALL,)  # type: ignore[union-attr]
    third = model.call(Prompt("c"))
    assert third.metadata.usage == Usage(1, 2, 3)
    assert model.call(Prompt("echo")).text == "you said echo"
    assert [p.messages[0].text for p in model.prompts] == ["a", "b", "c", "echo"]  # type: ignore[union-attr]
    assert model.remaining == 0


def test_running_past_the_end_says_how_many_replies_were_used() -> None:
    model = ScriptedChatModel(["one", "two"])
    model.call(Prompt("x"))
    model.call(Prompt("y"))
    with pytest.raises(ScriptExhaustedError, match="ran out of script after 2 replies") as info:
        model.call(Prompt("z"))
    assert isinstance(info.value, ModelError)
    assert len(model.prompts) == 2  # the failed call consumed nothing


async def test_acall_and_astream_consume_items_too() -> None:
    model = ScriptedChatModel(["first", "second words here"])
    assert (await model.acall(Prompt("a"))).text == "first"
    chunks = [c async for c in model.astream(Prompt("b"))]
    assert "".join(c.text for c in chunks) == "second words here"
    with pytest.raises(ScriptExhaustedError):
        await model.acall(Prompt("c"))


def test_stream_splits_text_and_puts_tool_calls_and_usage_last() -> None:
    reply = ChatResponse.of(
        AssistantMessage("Let me look that up.", (CALL,)),
        finish_reason="tool_calls",
        usage=Usage(10, 5, 15),
    )
    chunks = list(ScriptedChatModel([reply]).stream(Prompt("q")))
    assert len(chunks) > 2
    assert "".join(c.text for c in chunks) == "Let me look that up."
    assert all(not c.has_tool_calls() for c in chunks[:-1])
    assert chunks[-1].result.output.tool_calls == (CALL,)  # type: ignore[union-attr]
    assert chunks[-1].result.metadata.finish_reason == "tool_calls"  # type: ignore[union-attr]
    assert [c.metadata.usage for c in chunks[:-1]] == [Usage()] * (len(chunks) - 1)
    assert chunks[-1].metadata.usage == Usage(10, 5, 15)


def test_stream_keeps_the_message_metadata_in_the_last_chunk() -> None:
    for message in (
        AssistantMessage("", (CALL,), {"plan": 1}),
        AssistantMessage("hi", (), {"k": 2}),
    ):
        chunks = list(ScriptedChatModel([message]).stream(Prompt("q")))
        assert chunks[-1].result.output.metadata == message.metadata  # type: ignore[union-attr]


def test_stream_of_plain_text_ends_with_usage_on_the_last_word() -> None:
    reply = ChatResponse.of("two words", finish_reason="stop", usage=Usage(1, 1, 2))
    chunks = list(ScriptedChatModel([reply]).stream(Prompt("q")))
    assert [c.text for c in chunks] == ["two ", "words"]
    assert chunks[-1].metadata.usage == Usage(1, 1, 2)
    assert chunks[-1].result.metadata.finish_reason == "stop"  # type: ignore[union-attr]


def test_an_exception_item_is_raised_so_error_paths_can_be_tested() -> None:
    model = ScriptedChatModel([ModelError("server down"), "recovered"])
    with pytest.raises(ModelError, match="server down"):
        model.call(Prompt("a"))
    assert model.call(Prompt("b")).text == "recovered"


def test_a_bad_item_is_a_clear_type_error() -> None:
    model = ScriptedChatModel([42])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"must be a ChatResponse.*got int"):
        model.call(Prompt("a"))


def test_several_threads_each_get_a_distinct_reply() -> None:
    model = ScriptedChatModel([str(i) for i in range(40)])
    seen: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(10):
            text = model.call(Prompt("q")).text
            with lock:
                seen.append(text)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen, key=int) == [str(i) for i in range(40)]
