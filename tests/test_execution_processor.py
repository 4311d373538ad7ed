"""DefaultToolExecutionExceptionProcessor: answer the model, or raise to the caller."""

from __future__ import annotations

import pytest

from springtail.execution import (
    DefaultToolExecutionExceptionProcessor,
    ToolCallingManager,
    ToolExecutionExceptionProcessor,
    UnknownToolError,
)
from springtail.messages import AssistantMessage, ChatOptions, ChatResponse, Prompt, ToolCall
from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition, ToolMetadata
from springtail.tools._errors import ToolExecutionError

ENV = "SPRINGTAIL_TOOLS_THROW_EXCEPTION_ON_ERROR"
DEFINITION = ToolDefinition("lookup", "Look something up.", {"type": "object"})


def error(cause: BaseException) -> ToolExecutionError:
    return ToolExecutionError(DEFINITION, cause)


@pytest.fixture(autouse=True)
def no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)


def test_the_answer_is_the_cause_message() -> None:
    processor = DefaultToolExecutionExceptionProcessor()
    assert processor(error(ValueError("customer C-9 not found"))) == "customer C-9 not found"
    assert processor.process(error(ValueError("same"))) == "same"


def test_a_blank_message_names_the_tool_and_the_exception_type() -> None:
    processor = DefaultToolExecutionExceptionProcessor()
    assert processor(error(KeyError())) == "Exception occurred in tool: lookup (KeyError)"
    assert (
        processor(ToolExecutionError(DEFINITION, RuntimeError("  ")))
        == "Exception occurred in tool: lookup (RuntimeError)"
    )


def test_a_blank_unknown_tool_answer_uses_the_called_name() -> None:
    unknown = UnknownToolError("ghost")
    assert "ghost" in DefaultToolExecutionExceptionProcessor()(unknown)


def test_rethrow_raises_the_raw_cause_subclasses_included() -> None:
    processor = DefaultToolExecutionExceptionProcessor(rethrow=(OSError,))
    cause = ConnectionResetError("database connection lost")
    with pytest.raises(ConnectionResetError) as caught:
        processor(error(cause))
    assert caught.value is cause
    assert processor(error(ValueError("other"))) == "other"


def test_always_throw_raises_the_tool_execution_error() -> None:
    failure = error(ValueError("nope"))
    with pytest.raises(ToolExecutionError) as caught:
        DefaultToolExecutionExceptionProcessor(always_throw=True)(failure)
    assert caught.value is failure


@pytest.mark.parametrize("value", ["true", "1", "TRUE", " True "])
def test_the_environment_variable_turns_on_always_throw(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(ENV, value)
    processor = DefaultToolExecutionExceptionProcessor()
    assert processor.always_throw is True
    with pytest.raises(ToolExecutionError):
        processor(error(ValueError("x")))


@pytest.mark.parametrize("value", ["false", "0", "", "yes-please"])
def test_other_environment_values_leave_it_off(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(ENV, value)
    assert DefaultToolExecutionExceptionProcessor().always_throw is False


def test_the_environment_is_read_when_the_processor_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    processor = DefaultToolExecutionExceptionProcessor()
    monkeypatch.setenv(ENV, "true")
    assert processor(error(ValueError("still answered"))) == "still answered"


def test_an_explicit_choice_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "true")
    assert DefaultToolExecutionExceptionProcessor(always_throw=False).always_throw is False


def test_rethrow_must_list_exception_types() -> None:
    with pytest.raises(TypeError, match="exception classes"):
        DefaultToolExecutionExceptionProcessor(rethrow=("ValueError",))  # type: ignore[arg-type]


class Failing:
    tool_definition = DEFINITION
    tool_metadata = ToolMetadata()
    is_async = True

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        raise NotImplementedError

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        raise LookupError("no such order")


async def test_any_callable_is_a_processor_for_the_manager() -> None:
    processor: ToolExecutionExceptionProcessor = lambda e: f"sorry: {e.cause}"  # noqa: E731
    manager = ToolCallingManager(exception_processor=processor)
    result = await manager.aexecute_tool_calls(
        Prompt("hi", ChatOptions(tool_callbacks=(Failing(),))),
        ChatResponse.of(AssistantMessage("", (ToolCall("1", "lookup", "{}"),))),
    )
    answer = result.conversation_history[-1].responses[0]  # type: ignore[union-attr]
    assert answer.response_data == "sorry: no such order"
    assert answer.is_error


async def test_the_default_processor_reads_the_environment_for_the_manager(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENV, "1")
    manager = ToolCallingManager()
    with pytest.raises(ToolExecutionError, match="no such order"):
        await manager.aexecute_tool_calls(
            Prompt("hi", ChatOptions(tool_callbacks=(Failing(),))),
            ChatResponse.of(AssistantMessage("", (ToolCall("1", "lookup", "{}"),))),
        )
