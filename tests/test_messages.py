"""The §3 value types of springtail.messages."""

from __future__ import annotations

import dataclasses

import pytest

from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    ChatResponseMetadata,
    Generation,
    GenerationMetadata,
    Prompt,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    Usage,
    UserMessage,
)
from springtail.tools import FunctionToolCallback

CALL = ToolCall("call_1", "calculate", '{"left": 1}')


@pytest.mark.parametrize(
    ("value", "field"),
    [
        (SystemMessage("s"), "text"),
        (UserMessage("u"), "text"),
        (AssistantMessage("a"), "text"),
        (CALL, "arguments"),
        (ToolResponse("call_1", "calculate", "2"), "response_data"),
        (ToolResponseMessage((ToolResponse("i", "n", "d"),)), "responses"),
        (Prompt("hi"), "messages"),
        (ChatResponse(()), "results"),
        (ChatResponseMetadata(), "id"),
        (Generation(AssistantMessage()), "output"),
        (GenerationMetadata(), "finish_reason"),
        (Usage(), "total_tokens"),
        (ChatOptions(), "temperature"),
    ],
)
def test_every_value_type_is_frozen(value: object, field: str) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, None)


def test_message_fields_and_roles() -> None:
    assert SystemMessage("be brief").text == "be brief"
    assert SystemMessage.role == "system"
    assert UserMessage("hi").role == "user"
    assistant = AssistantMessage()
    assert (assistant.text, assistant.tool_calls, assistant.role) == ("", (), "assistant")
    assert not assistant.has_tool_calls()
    assert ToolResponseMessage(()).role == "tool"


def test_sequences_are_stored_as_tuples() -> None:
    message = AssistantMessage("x", [CALL])  # type: ignore[arg-type]
    assert message.tool_calls == (CALL,)
    assert message.has_tool_calls()
    responses = ToolResponseMessage([ToolResponse("i", "n", "d")])  # type: ignore[arg-type]
    assert isinstance(responses.responses, tuple)
    response = ChatResponse([Generation(AssistantMessage("a"))])  # type: ignore[arg-type]
    assert isinstance(response.results, tuple)


def test_tool_call_and_response_values() -> None:
    assert (CALL.id, CALL.name, CALL.arguments) == ("call_1", "calculate", '{"left": 1}')
    ok = ToolResponse("call_1", "calculate", "2")
    assert ok.is_error is False
    failed = ToolResponse("call_1", "calculate", "boom", is_error=True)
    assert failed.is_error is True
    assert ok == ToolResponse("call_1", "calculate", "2")


def test_prompt_accepts_text_one_message_or_many() -> None:
    assert Prompt("hi").messages == (UserMessage("hi"),)
    assert Prompt(SystemMessage("s")).messages == (SystemMessage("s"),)
    many = Prompt([SystemMessage("s"), UserMessage("u")], ChatOptions(temperature=0.1))
    assert many.messages == (SystemMessage("s"), UserMessage("u"))
    assert many.options == ChatOptions(temperature=0.1)
    assert Prompt("x").options is None
    assert many.system_message == SystemMessage("s")
    assert many.last_user_message == UserMessage("u")


def test_chat_response_result_text_and_tool_calls() -> None:
    empty = ChatResponse(())
    assert empty.result is None
    assert empty.text == ""
    assert not empty.has_tool_calls()
    first = Generation(AssistantMessage("first"))
    second = Generation(AssistantMessage("", (CALL,)))
    response = ChatResponse((first, second))
    assert response.result is first
    assert response.text == "first"
    assert response.has_tool_calls()  # any generation counts
    assert response.metadata == ChatResponseMetadata()


def test_metadata_defaults() -> None:
    assert ChatResponseMetadata() == ChatResponseMetadata(id=None, model=None, usage=Usage())
    assert GenerationMetadata().finish_reason is None
    assert GenerationMetadata().extra == {}
    assert Generation(AssistantMessage()).metadata == GenerationMetadata()


def test_usage_adds_up() -> None:
    total = Usage(10, 5, 15) + Usage(1, 2, 3)
    assert total == Usage(prompt_tokens=11, completion_tokens=7, total_tokens=18)
    assert Usage() == Usage(0, 0, 0)
    with pytest.raises(TypeError):
        Usage() + 1  # type: ignore[operator]


def test_chat_options_defaults() -> None:
    options = ChatOptions()
    assert options.model is None
    assert options.temperature is None
    assert options.tool_callbacks == ()
    assert options.tool_names == ()
    assert options.tool_context == {}
    assert options.extra == {}


def test_merge_set_scalars_win_and_unset_ones_keep_the_base() -> None:
    base = ChatOptions(model="base", temperature=0.5, max_tokens=100, seed=1)
    merged = base.merge(ChatOptions(temperature=0.0, stop=("END",)))
    assert merged.model == "base"
    assert merged.temperature == 0.0  # a falsy value set on purpose still wins
    assert merged.max_tokens == 100
    assert merged.seed == 1
    assert merged.stop == ("END",)
    assert base.merge(None) is base


def test_merge_request_tools_replace_defaults_contexts_merge() -> None:
    default_tool = FunctionToolCallback("a", lambda: "a")
    request_tool = FunctionToolCallback("b", lambda: "b")
    base = ChatOptions(
        tool_callbacks=(default_tool,),
        tool_names=("x",),
        tool_context={"user": "ann", "tenant": "t1"},
        extra={"k": 1},
    )
    merged = base.merge(
        ChatOptions(
            tool_callbacks=(request_tool,),
            tool_context={"user": "bob"},
            extra={"j": 2},
        )
    )
    assert merged.tool_callbacks == (request_tool,)
    assert merged.tool_names == ("x",)  # not given in the request: kept
    assert merged.tool_context == {"user": "bob", "tenant": "t1"}
    assert merged.extra == {"k": 1, "j": 2}
    assert base.merge(ChatOptions()).tool_callbacks == (default_tool,)


def test_stop_and_tool_sequences_are_normalised() -> None:
    assert ChatOptions(stop="END").stop == ("END",)  # type: ignore[arg-type]
    assert ChatOptions(stop=["a", "b"]).stop == ("a", "b")  # type: ignore[arg-type]
    assert ChatOptions(tool_names=["x"]).tool_names == ("x",)  # type: ignore[arg-type]


def test_chat_response_of_builds_one_generation() -> None:
    response = ChatResponse.of("hello", finish_reason="stop", usage=Usage(1, 1, 2))
    assert response.text == "hello"
    assert response.result is not None
    assert response.result.metadata.finish_reason == "stop"
    assert response.metadata.usage == Usage(1, 1, 2)


def test_response_schema_is_unset_by_default_and_an_override_wins_whole() -> None:
    assert ChatOptions().response_schema is None
    person = {"type": "object", "properties": {"name": {"type": "string"}}}
    city = {"type": "object", "properties": {"city": {"type": "string"}}}
    base = ChatOptions(temperature=0.2, response_schema=person)
    assert base.merge(ChatOptions()).response_schema == person  # not set: kept
    merged = base.merge(ChatOptions(response_schema=city))
    assert merged.response_schema == city  # replaced whole, never merged key by key
    assert merged.temperature == 0.2
    assert ChatOptions().merge(base).response_schema == person
    assert base.copy_with(response_schema=None).response_schema is None
    assert base.to_dict() == {"temperature": 0.2, "response_schema": person}
