"""The ChatModel base class: two abstract methods, the sync twins and error translation."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from springtail.messages import ChatResponse, Prompt
from springtail.models import ChatModel, ModelError, ModelUnavailableError
from springtail.models._anthropic import AnthropicChatModel
from springtail.models._ollama import OllamaChatModel
from springtail.models._openai import OpenAIChatModel
from springtail.models._scripted import ScriptedChatModel


class Echo(ChatModel):
    """Only the two async methods: everything else comes from the base."""

    def __init__(self, fail: Exception | None = None) -> None:
        self.fail = fail

    async def acall(self, prompt: Prompt) -> ChatResponse:
        with self.translating_errors(model="echo-1"):
            if self.fail is not None:
                raise self.fail
            await asyncio.sleep(0)
            return ChatResponse.of(f"echo: {prompt.messages[-1].text}")  # type: ignore[union-attr]

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        with self.translating_errors(model="echo-1"):
            for word in ("one ", "two"):
                await asyncio.sleep(0)
                yield ChatResponse.of(word)
            if self.fail is not None:
                raise self.fail

    def __repr__(self) -> str:
        return "Echo()"


def test_a_model_needs_only_acall_and_astream_for_call_and_stream() -> None:
    model = Echo()
    assert model.call(Prompt("hi")).text == "echo: hi"
    assert [c.text for c in model.stream(Prompt("hi"))] == ["one ", "two"]


async def test_the_sync_twins_work_inside_a_running_event_loop() -> None:
    model = Echo()
    assert model.call(Prompt("hi")).text == "echo: hi"
    assert "".join(c.text for c in model.stream(Prompt("hi"))) == "one two"


def test_a_model_without_the_async_methods_cannot_be_built() -> None:
    class Half(ChatModel):
        async def acall(self, prompt: Prompt) -> ChatResponse:
            return ChatResponse.of("x")

    with pytest.raises(TypeError, match="astream"):
        Half()  # type: ignore[abstract]


def test_a_foreign_exception_becomes_a_model_error_with_one_sentence() -> None:
    model = Echo(fail=KeyError("choices"))
    with pytest.raises(ModelError) as caught:
        model.call(Prompt("hi"))
    assert str(caught.value) == "The model 'echo-1' of Echo() failed with KeyError: 'choices'"
    assert isinstance(caught.value.__cause__, KeyError)
    pieces: list[str] = []
    with pytest.raises(ModelError, match="failed with KeyError"):
        pieces.extend(c.text for c in model.stream(Prompt("hi")))
    assert pieces == ["one ", "two"]  # what was streamed before the fault stays delivered


def test_model_errors_and_cancellation_pass_through_unchanged() -> None:
    unavailable = ModelUnavailableError("start it")
    with pytest.raises(ModelUnavailableError) as caught:
        Echo(fail=unavailable).call(Prompt("hi"))
    assert caught.value is unavailable

    async def cancelled() -> None:
        with Echo().translating_errors():
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(cancelled())


def test_a_class_written_against_the_old_protocol_still_counts_as_a_chat_model() -> None:
    class Legacy:
        def call(self, prompt: Prompt) -> ChatResponse:
            return ChatResponse.of("x")

        async def acall(self, prompt: Prompt) -> ChatResponse:
            return ChatResponse.of("x")

        def stream(self, prompt: Prompt) -> Iterator[ChatResponse]:
            return iter(())

        async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
            yield ChatResponse.of("x")

    assert isinstance(Legacy(), ChatModel)
    assert not isinstance(object(), ChatModel)
    assert not isinstance(Echo, ChatModel)  # the class itself is not a model


@pytest.mark.parametrize(
    "provider", [ScriptedChatModel, OpenAIChatModel, OllamaChatModel, AnthropicChatModel]
)
def test_providers_inherit_the_sync_twins_instead_of_repeating_them(
    provider: type[ChatModel],
) -> None:
    assert issubclass(provider, ChatModel)
    for name in ("call", "stream", "translating_errors"):
        assert name not in vars(provider), f"{provider.__name__} repeats {name}"
        assert getattr(provider, name) is getattr(ChatModel, name)


def test_only_providers_that_enforce_a_schema_say_so() -> None:
    assert OpenAIChatModel.native_response_schema is True
    assert OllamaChatModel.native_response_schema is True
    assert AnthropicChatModel.native_response_schema is False
    assert ScriptedChatModel.native_response_schema is False
