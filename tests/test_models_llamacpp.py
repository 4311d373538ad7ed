"""LlamaCppChatModel: output parsing and prompt rendering (fast), then the real embedded model."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from described_tool import DescribedTool
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Prompt,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models import ModelUnavailableError
from springtail.models._llamacpp import LlamaCppChatModel
from springtail.models._llamacpp._parse import ReplyKind, classify, parse_output
from springtail.models._llamacpp._policy import SmallModelPolicy
from springtail.models._llamacpp._template import template_messages
from springtail.tools._definition import ToolDefinition

KNOWN = {"calculate", "todo_add"}
CALL = '{"name": "calculate", "arguments": {"operation": "multiply", "left": 128, "right": 32}}'


# -- parsing -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "output",
    [f"<tool_call>\n{CALL}\n</tool_call>", f"```json\n{CALL}\n```", CALL],
)
def test_every_call_shape_parses_to_the_same_call(output: str) -> None:
    parsed = parse_output(output, KNOWN)
    assert [(c.name, c.arguments) for c in parsed.calls] == [
        ("calculate", {"operation": "multiply", "left": 128, "right": 32})
    ]
    assert parsed.text == ""


def test_several_tagged_calls_parse_in_order() -> None:
    second = '{"name": "todo_add", "arguments": {"title": "Reserved 2"}}'
    parsed = parse_output(
        f"<tool_call>\n{CALL}\n</tool_call>\n<tool_call>\n{second}\n</tool_call>", KNOWN
    )
    assert [c.name for c in parsed.calls] == ["calculate", "todo_add"]


def test_prose_is_text_even_when_it_mentions_json() -> None:
    parsed = parse_output('The call would be {"name": "x"}.', KNOWN)
    assert parsed.kind is ReplyKind.TEXT
    assert parsed.text == 'The call would be {"name": "x"}.'
    assert parsed.calls == ()


def test_a_call_to_a_tool_that_does_not_exist_is_reported_apart() -> None:
    parsed = parse_output('{"name": "get_weather", "arguments": {"city": "Paris"}}', KNOWN)
    assert parsed.calls == ()
    assert [c.name for c in parsed.unknown] == ["get_weather"]


def test_a_call_cut_short_is_truncated_text_not_a_guess() -> None:
    parsed = parse_output('<tool_call>\n{"name": "calculate", "arguments": {"oper', KNOWN)
    assert parsed.truncated
    assert parsed.calls == ()
    assert parsed.text.startswith("<tool_call>")


def test_calls_written_in_full_stand_when_a_later_one_is_cut_short() -> None:
    cut = f'<tool_call>\n{CALL}\n</tool_call>\n<tool_call>\n{{"name": "todo_add", "argu'
    parsed = parse_output(cut, KNOWN)
    assert [c.name for c in parsed.calls] == ["calculate"]
    assert parsed.truncated


@pytest.mark.parametrize(
    ("start", "kind"),
    [
        ("", ReplyKind.UNDECIDED),
        ("<", ReplyKind.UNDECIDED),
        ("``", ReplyKind.UNDECIDED),
        ("```js", ReplyKind.UNDECIDED),
        ("<tool_call>", ReplyKind.CALLS),
        ("```json", ReplyKind.CALLS),
        ("{", ReplyKind.CALLS),
        ("<b>", ReplyKind.TEXT),
        ("```python", ReplyKind.TEXT),
        ("Hello", ReplyKind.TEXT),
    ],
)
def test_a_reply_is_classified_from_its_first_characters(start: str, kind: ReplyKind) -> None:
    assert classify(start) is kind


# -- prompt rendering ----------------------------------------------------------------


def _conversation() -> list[Any]:
    return [
        SystemMessage("You are a support assistant."),
        UserMessage("Reserve 2 of SKU-100"),
        AssistantMessage(
            "",
            (ToolCall("call_1", "product_reserve", '{"sku": "SKU-100", "quantity": 2}'),),
        ),
        ToolResponseMessage((ToolResponse("call_1", "product_reserve", "Reserved 2."),)),
    ]


def test_earlier_call_arguments_reach_the_template_as_objects_not_json_text() -> None:
    rendered = template_messages(_conversation())
    arguments = rendered[2]["tool_calls"][0]["function"]["arguments"]
    assert arguments == {"sku": "SKU-100", "quantity": 2}


def test_tool_results_read_as_the_policy_writes_them() -> None:
    rendered = template_messages(
        _conversation(), result_text=SmallModelPolicy().profile.result_text
    )
    assert rendered[3] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "name": "product_reserve",
        "content": "product_reserve returned: Reserved 2.",
    }
    assert template_messages(_conversation())[3]["content"] == "Reserved 2."


def test_guidance_is_added_to_the_system_message_or_becomes_one() -> None:
    with_system = template_messages(_conversation(), "Call tools only when needed.")
    assert with_system[0]["content"] == (
        "You are a support assistant.\n\nCall tools only when needed."
    )
    without = template_messages([UserMessage("hi")], "Call tools only when needed.")
    assert without[0] == {"role": "system", "content": "Call tools only when needed."}


# -- construction ----------------------------------------------------------------------


def test_nothing_is_loaded_when_the_model_is_built() -> None:
    model = LlamaCppChatModel("/nonexistent/model.gguf", n_threads=1)
    assert model.model == "/nonexistent/model.gguf"
    assert model.n_threads == 1


def test_threads_default_to_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPRINGTAIL_THREADS", "3")
    assert LlamaCppChatModel().n_threads == 3
    monkeypatch.setenv("SPRINGTAIL_THREADS", "many")
    with pytest.raises(ValueError, match="SPRINGTAIL_THREADS='many'"):
        LlamaCppChatModel()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_ctx": 16}, "n_ctx=16"),
        ({"n_threads": 0}, "n_threads=0"),
    ],
)
def test_bad_settings_are_refused_up_front(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LlamaCppChatModel(**kwargs)


def test_a_missing_model_file_says_what_to_pass() -> None:
    model = LlamaCppChatModel("/nonexistent/model.gguf", n_threads=1)
    with pytest.raises(ModelUnavailableError, match=r"No model file at /nonexistent/model\.gguf"):
        model.call(Prompt("hi"))


def test_without_llama_cpp_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    model_file = tmp_path / "model.gguf"
    model_file.write_bytes(b"GGUF")
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    model = LlamaCppChatModel(str(model_file), n_threads=1)
    with pytest.raises(ModelUnavailableError, match=r"pip install 'springtail\[embedded\]'"):
        model.call(Prompt("hi"))


@pytest.mark.model
def test_a_corrupt_model_file_is_rejected_with_a_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    corrupt = tmp_path / "corrupt.gguf"
    corrupt.write_bytes(b"GGUF" + b"\x00" * 4096)
    model = LlamaCppChatModel(str(corrupt), n_threads=1)
    with pytest.raises(ModelUnavailableError, match="not a valid GGUF model file"):
        model.call(Prompt("hi"))


# -- the real embedded model -----------------------------------------------------------


def _schema(props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


TOOLS = ChatOptions(
    tool_callbacks=tuple(
        DescribedTool(d)
        for d in (
            ToolDefinition(
                "calculate",
                "Apply add, subtract, multiply or divide to two numbers.",
                _schema(
                    {
                        "operation": {
                            "type": "string",
                            "enum": ["add", "subtract", "multiply", "divide"],
                        },
                        "left": {"type": "number"},
                        "right": {"type": "number"},
                    }
                ),
            ),
            ToolDefinition(
                "product_reserve",
                "Reserve units of a product from stock.",
                _schema({"sku": {"type": "string"}, "quantity": {"type": "integer"}}),
            ),
            ToolDefinition("todo_add", "Add a to-do item.", _schema({"title": {"type": "string"}})),
        )
    ),
    temperature=0.0,
    seed=7,
)
SYSTEM = SystemMessage("You are a helpful support assistant for a small business.")


@pytest.mark.model
async def test_a_request_that_needs_a_tool_gets_a_call_with_the_right_arguments(
    embedded_model: LlamaCppChatModel,
) -> None:
    chunks = [
        chunk
        async for chunk in embedded_model.astream(
            Prompt([SYSTEM, UserMessage("What is 128 times 32?")], TOOLS)
        )
    ]
    # The call's JSON never shows up as text; the call comes whole, once.
    assert "".join(c.text for c in chunks) == ""
    calls = [call for c in chunks for g in c.results for call in g.output.tool_calls]
    assert len(calls) == 1
    assert calls[0].name == "calculate"
    assert json.loads(calls[0].arguments) == {"operation": "multiply", "left": 128, "right": 32}
    assert calls[0].id.startswith("call_")
    assert chunks[-1].metadata.usage.completion_tokens > 0


@pytest.mark.model
def test_a_greeting_gets_a_plain_answer_even_with_tools(
    embedded_model: LlamaCppChatModel,
) -> None:
    options = TOOLS.copy_with(max_tokens=24)
    response = embedded_model.call(Prompt([SYSTEM, UserMessage("Hi! Who are you?")], options))
    assert not response.has_tool_calls()
    assert response.text.strip()
    assert response.metadata.usage.prompt_tokens > 0


@pytest.mark.model
def test_a_two_step_request_calls_both_tools_then_answers(
    embedded_model: LlamaCppChatModel,
) -> None:
    results = {
        "product_reserve": "Reserved 2 units of SKU-100 (Spring AI Starter Workbook); 10 left.",
        "todo_add": "Added to-do #1.",
    }
    messages: list[Any] = [
        SYSTEM,
        UserMessage("Reserve 2 units of SKU-100 and add that as a to-do"),
    ]
    called: list[tuple[str, dict[str, Any]]] = []
    for _ in range(4):
        response = embedded_model.call(Prompt(messages, TOOLS.copy_with(max_tokens=80)))
        output = response.results[0].output
        if not output.tool_calls:
            break
        called += [(c.name, json.loads(c.arguments)) for c in output.tool_calls]
        messages += [
            output,
            ToolResponseMessage(
                tuple(ToolResponse(c.id, c.name, results[c.name]) for c in output.tool_calls)
            ),
        ]
    assert called[0] == ("product_reserve", {"sku": "SKU-100", "quantity": 2})
    assert [name for name, _ in called] == ["product_reserve", "todo_add"]
    assert output.text.strip()
    assert not output.tool_calls


@pytest.mark.model
def test_the_same_tool_twice_is_called_twice_in_one_reply_and_both_results_are_stated(
    embedded_model: LlamaCppChatModel,
) -> None:
    request = UserMessage("What is 12 times 7, and what is 300 divided by 4?")
    response = embedded_model.call(Prompt([SYSTEM, request], TOOLS.copy_with(max_tokens=80)))
    output = response.results[0].output
    calls = [json.loads(c.arguments) for c in output.tool_calls]
    # Numbers may come as JSON numbers or numeric strings; the tool's schema coerces both.
    assert [(c["operation"], float(c["left"]), float(c["right"])) for c in calls] == [
        ("multiply", 12, 7),
        ("divide", 300, 4),
    ]
    results = ToolResponseMessage(
        tuple(
            ToolResponse(c.id, c.name, value)
            for c, value in zip(output.tool_calls, ("84", "75"), strict=True)
        )
    )
    answer = embedded_model.call(
        Prompt([SYSTEM, request, output, results], TOOLS.copy_with(max_tokens=80))
    )
    assert not answer.has_tool_calls()
    assert "84" in answer.text
    assert "75" in answer.text


@pytest.mark.model
def test_a_streamed_answer_arrives_in_pieces_that_add_up(
    embedded_model: LlamaCppChatModel,
) -> None:
    prompt = Prompt(
        [UserMessage("Name three colours of the rainbow, comma-separated.")],
        ChatOptions(max_tokens=16, temperature=0.0),
    )
    chunks: list[ChatResponse] = list(embedded_model.stream(prompt))
    deltas = [c.text for c in chunks if c.text]
    assert len(deltas) > 1
    whole = embedded_model.call(prompt)
    assert "".join(deltas) == whole.text
    assert chunks[-1].metadata.usage.completion_tokens > 0


def test_prepare_evaluates_the_prompt_ahead_and_cancelling_stops_it() -> None:
    import time
    from collections.abc import Sequence

    from fake_llama import FakeRuntime, replies

    class SlowRuntime(FakeRuntime):
        def evaluate_long(self, tokens: Sequence[int]) -> None:
            time.sleep(0.02)  # about 100 batches for this prompt: 2 s in all
            super().evaluate_long(tokens)

    prompt = Prompt([SystemMessage("You are helpful. " * 350), UserMessage("hi")])
    runtime = FakeRuntime(replies("Hello!"))
    model = LlamaCppChatModel._over(runtime)
    evaluated = model.prepare(prompt).result(timeout=30)
    assert evaluated == len(runtime.cached()) > 5000
    slow = SlowRuntime(replies("Hello!"))
    model = LlamaCppChatModel._over(slow)
    started = time.perf_counter()
    future = model.prepare(prompt)
    time.sleep(0.2)
    future.cancel()
    # The running evaluation stops at its next batch: far fewer tokens, far sooner.
    model.call(Prompt([UserMessage("hi")]))  # waits behind the stopped warm-up
    assert time.perf_counter() - started < 1.5
    assert len(slow.cached()) < evaluated
