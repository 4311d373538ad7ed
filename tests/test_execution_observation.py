"""Listeners and OpenTelemetry spans around every tool call."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from springtail.execution import ToolCallingManager, ToolExecutionListener
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Prompt,
    ToolCall,
    ToolResponse,
)
from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition, ToolMetadata


class Tool:
    def __init__(self, name: str, answer: str | Exception, *, is_async: bool = False) -> None:
        self.tool_definition = ToolDefinition(name, f"Describes {name}.", {"type": "object"})
        self.tool_metadata = ToolMetadata(is_async=is_async)
        self.answer = answer

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return self.call(tool_input, tool_context)


PROMPT = Prompt(
    "go",
    ChatOptions(
        tool_callbacks=(
            Tool("weather", "sunny, 21 °C"),
            Tool("fail", ValueError("city not found"), is_async=True),
        )
    ),
)
RESPONSE = ChatResponse.of(
    AssistantMessage(
        "",
        (
            ToolCall("c1", "weather", '{"city": "Seoul"}'),
            ToolCall("c2", "fail", '{"city": "Atlantis"}'),
            ToolCall("c3", "nope", "{}"),
        ),
    )
)


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


def provider_for(exporter: InMemorySpanExporter) -> TracerProvider:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider


async def test_each_call_is_one_span_with_the_genai_attributes(
    exporter: InMemorySpanExporter,
) -> None:
    manager = ToolCallingManager(tracer_provider=provider_for(exporter))
    await manager.aexecute_tool_calls(PROMPT, RESPONSE)
    spans = {span.name: span for span in exporter.get_finished_spans()}
    assert set(spans) == {"execute_tool weather", "execute_tool fail", "execute_tool nope"}

    ok = spans["execute_tool weather"].attributes
    assert ok is not None
    assert ok["gen_ai.operation.name"] == "execute_tool"
    assert ok["gen_ai.tool.name"] == "weather"
    assert ok["gen_ai.tool.call.id"] == "c1"
    assert ok["gen_ai.tool.description"] == "Describes weather."
    assert "error.type" not in ok
    assert "gen_ai.tool.call.arguments" not in ok
    assert "gen_ai.tool.call.result" not in ok

    failed = spans["execute_tool fail"]
    assert failed.attributes is not None
    assert failed.attributes["error.type"] == "ValueError"
    assert failed.status.status_code is StatusCode.ERROR

    unknown = spans["execute_tool nope"].attributes
    assert unknown is not None
    assert unknown["error.type"] == "UnknownToolError"
    assert "gen_ai.tool.description" not in unknown


async def test_arguments_and_results_are_recorded_only_when_asked(
    exporter: InMemorySpanExporter,
) -> None:
    manager = ToolCallingManager(tracer_provider=provider_for(exporter), include_content=True)
    await manager.aexecute_tool_calls(PROMPT, RESPONSE)
    spans = {span.name: span for span in exporter.get_finished_spans()}
    ok = spans["execute_tool weather"].attributes
    assert ok is not None
    assert ok["gen_ai.tool.call.arguments"] == '{"city": "Seoul"}'
    assert ok["gen_ai.tool.call.result"] == "sunny, 21 °C"


async def test_tool_spans_are_children_of_the_current_span_and_parents_of_tool_spans(
    exporter: InMemorySpanExporter,
) -> None:
    provider = provider_for(exporter)
    tracer = provider.get_tracer("test")

    class Traced(Tool):
        def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
            with tracer.start_as_current_span("inside the tool"):
                return "done"

    manager = ToolCallingManager(tracer_provider=provider)
    prompt = Prompt("go", ChatOptions(tool_callbacks=(Traced("traced", ""),)))
    with tracer.start_as_current_span("chat"):
        await manager.aexecute_tool_calls(
            prompt, ChatResponse.of(AssistantMessage("", (ToolCall("1", "traced", "{}"),)))
        )
    spans = {span.name: span for span in exporter.get_finished_spans()}
    tool_span, inner, outer = (
        spans["execute_tool traced"],
        spans["inside the tool"],
        spans["chat"],
    )
    assert tool_span.parent is not None
    assert tool_span.parent.span_id == outer.context.span_id
    # The sync tool ran on a worker thread, yet saw the tool span as current.
    assert inner.parent is not None
    assert inner.parent.span_id == tool_span.context.span_id


def test_no_opentelemetry_import_when_the_application_does_not_use_it() -> None:
    code = textwrap.dedent(
        """
        import sys
        from springtail.execution import ToolCallingManager
        from springtail.messages import (
            AssistantMessage, ChatOptions, ChatResponse, Prompt, ToolCall
        )
        from springtail.tools._definition import ToolDefinition, ToolMetadata

        class T:
            tool_definition = ToolDefinition("t", "T.", {"type": "object"})
            tool_metadata = ToolMetadata(is_async=False)
            def call(self, tool_input, tool_context=None):
                return "ok"
            async def acall(self, tool_input, tool_context=None):
                return "ok"

        result = ToolCallingManager().execute_tool_calls(
            Prompt("go", ChatOptions(tool_callbacks=(T(),))),
            ChatResponse.of(AssistantMessage("", (ToolCall("1", "t", "{}"),))),
        )
        assert result.conversation_history[-1].responses[0].response_data == "ok"
        print(sorted(m for m in sys.modules if m.startswith("opentelemetry")))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_the_global_tracer_provider_is_used_when_the_application_set_one() -> None:
    code = textwrap.dedent(
        """
        from opentelemetry import trace
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
        from springtail.execution import ToolCallingManager
        from springtail.messages import (
            AssistantMessage, ChatOptions, ChatResponse, Prompt, ToolCall
        )
        from springtail.tools._definition import ToolDefinition, ToolMetadata

        class T:
            tool_definition = ToolDefinition("t", "T.", {"type": "object"})
            tool_metadata = ToolMetadata()
            def call(self, tool_input, tool_context=None):
                return "ok"
            async def acall(self, tool_input, tool_context=None):
                return "ok"

        manager = ToolCallingManager()
        prompt = Prompt("go", ChatOptions(tool_callbacks=(T(),)))
        response = ChatResponse.of(AssistantMessage("", (ToolCall("1", "t", "{}"),)))
        manager.execute_tool_calls(prompt, response)  # before any provider is set: no span
        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        trace.set_tracer_provider(provider)
        manager.execute_tool_calls(prompt, response)
        print([span.name for span in exporter.get_finished_spans()])
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['execute_tool t']"


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def on_tool_start(self, call: ToolCall, definition: ToolDefinition | None) -> None:
        self.events.append(("start", call.id, definition.name if definition else None))

    def on_tool_end(
        self,
        call: ToolCall,
        definition: ToolDefinition | None,
        response: ToolResponse,
        duration_s: float,
    ) -> None:
        assert duration_s >= 0
        self.events.append(("end", call.id, response.is_error))


async def test_listeners_hear_start_and_end_of_every_call_with_its_outcome() -> None:
    recorder = Recorder()
    assert isinstance(recorder, ToolExecutionListener)
    await ToolCallingManager(listeners=[recorder]).aexecute_tool_calls(PROMPT, RESPONSE)
    starts = [e for e in recorder.events if e[0] == "start"]
    ends = [e for e in recorder.events if e[0] == "end"]
    assert sorted(starts) == [
        ("start", "c1", "weather"),
        ("start", "c2", "fail"),
        ("start", "c3", None),
    ]
    assert sorted(ends) == [("end", "c1", False), ("end", "c2", True), ("end", "c3", True)]
    for call_id in ("c1", "c2", "c3"):
        positions = [i for i, e in enumerate(recorder.events) if e[1] == call_id]
        assert [recorder.events[i][0] for i in positions] == ["start", "end"]


async def test_a_listener_may_implement_one_hook_or_be_async() -> None:
    ended: list[str] = []

    class OnlyEnd:
        async def on_tool_end(
            self, call: ToolCall, definition: Any, response: Any, d: float
        ) -> None:
            await asyncio.sleep(0)
            ended.append(call.id)

    await ToolCallingManager(listeners=[OnlyEnd()]).aexecute_tool_calls(PROMPT, RESPONSE)
    assert sorted(ended) == ["c1", "c2", "c3"]


async def test_a_failing_listener_changes_nothing_the_model_sees(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Broken:
        def on_tool_start(self, call: ToolCall, definition: Any) -> None:
            raise RuntimeError("listener bug")

    result = await ToolCallingManager(listeners=[Broken()]).aexecute_tool_calls(PROMPT, RESPONSE)
    first = result.conversation_history[-1].responses[0]  # type: ignore[union-attr]
    assert first.response_data == "sunny, 21 °C"
    assert "listener bug" in caplog.text
