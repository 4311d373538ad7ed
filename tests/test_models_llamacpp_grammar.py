"""The tool-call grammar, checked by llama.cpp's own grammar engine on the model's vocabulary.

Only the tokenizer is loaded (``vocab_only``), so these run in about a second.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator
from typing import Any

import pytest

from springtail.models._llamacpp._grammar import (
    build_grammar,
    continuation_grammar,
    text_only_grammar,
)
from springtail.tools._definition import ToolDefinition

llama_cpp = pytest.importorskip("llama_cpp")

pytestmark = pytest.mark.model


def _object(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props) if required is None else required,
        "additionalProperties": False,
    }


CALCULATE = ToolDefinition(
    "calculate",
    "Apply an operation to two numbers.",
    _object(
        {
            "operation": {"type": "string", "enum": ["add", "subtract", "multiply", "divide"]},
            "left": {"type": "number"},
            "right": {"type": "number"},
        }
    ),
)
TODO_ADD = ToolDefinition("todo_add", "Add a to-do.", _object({"title": {"type": "string"}}))
TODO_LIST = ToolDefinition("todo_list", "List the to-dos.", _object({}))
RESERVE = ToolDefinition(
    "product_reserve",
    "Reserve stock.",
    _object({"sku": {"type": "string"}, "quantity": {"type": "integer"}}),
)
TOOLS = [CALCULATE, TODO_ADD, TODO_LIST, RESERVE]


@pytest.fixture(scope="module")
def vocab() -> Iterator[Any]:
    from springtail.models._llamacpp import ensure_model_file

    llama = llama_cpp.Llama(str(ensure_model_file()), vocab_only=True, verbose=False)
    yield llama
    llama.close()


def accepts(llama: Any, grammar: str, text: str) -> bool:
    """Whether llama.cpp's grammar sampler lets the model write exactly ``text`` and stop."""
    sampler = llama_cpp.llama_sampler_init_grammar(llama._model.vocab, grammar.encode(), b"root")
    assert sampler, "llama.cpp could not parse the grammar"
    try:
        tokens = llama.tokenize(text.encode(), add_bos=False, special=True)
        for token in [*tokens, llama.token_eos()]:
            data = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 0.0, 0.0))
            array = llama_cpp.llama_token_data_array(data, 1, -1, False)
            llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))
            if math.isinf(data[0].logit):
                return False
            if token != llama.token_eos():
                llama_cpp.llama_sampler_accept(sampler, token)
        return True
    finally:
        llama_cpp.llama_sampler_free(sampler)


CALL = '{"name": "calculate", "arguments": {"operation": "multiply", "left": 128, "right": 32}}'


@pytest.mark.parametrize(
    "body",
    [
        f"\n{CALL}\n",
        CALL,
        '{"name": "todo_add", "arguments": {"title": "Call back\\nC-101"}}',
        '{"name": "todo_list", "arguments": {}}',
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
    ],
)
def test_the_grammar_admits_valid_calls_and_unknown_tools(vocab: Any, body: str) -> None:
    assert accepts(vocab, build_grammar(TOOLS), body)


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        (
            '{"name": "calculate", "arguments": {"operation": "power", "left": 2, "right": 8}}',
            "an operation outside the enum",
        ),
        (
            '{"name": "calculate", "arguments": {"operation": "add", "left": "2", "right": 8}}',
            "a string where the schema says number",
        ),
        (
            '{"name": "calculate", "arguments": {"operation": "add", "left": 2}}',
            "a required argument left out",
        ),
        (
            '{"name": "todo_add", "arguments": {"title": "x", "due": "today"}}',
            "an argument the schema does not have",
        ),
        (
            '{"name": "todo_add", "arguments": {"title": "line one\nline two"}}',
            "a raw newline inside a JSON string",
        ),
        (
            '{"name": "product_reserve", "arguments": {"sku": "SKU-100", "quantity": 1.5}}',
            "a fraction where the schema says integer",
        ),
        (
            '{"name": "calculate", "arguments": {"left": 1, "operation": "add", "right": 2}',
            "an unclosed call",
        ),
        ("Hello", "prose instead of a call"),
        ("<|im_start|>assistant", "a chat-control token"),
        (f"<tool_call>\n{CALL}\n</tool_call>", "the tags, which the generator places itself"),
        (
            '{"name": "todo_add", "arguments": "{\\"title\\": \\"x\\"}"}',
            "arguments encoded as a JSON string",
        ),
    ],
)
def test_the_grammar_refuses_calls_that_break_the_schema(vocab: Any, reply: str, why: str) -> None:
    assert not accepts(vocab, build_grammar(TOOLS), reply), why


def test_without_the_catch_all_only_the_offered_tools_can_be_called(vocab: Any) -> None:
    grammar = build_grammar(TOOLS, catch_all=False)
    reserve = '{"name": "product_reserve", "arguments": {"sku": "SKU-100", "quantity": 2}}'
    assert accepts(vocab, grammar, reserve)
    assert not accepts(vocab, grammar, '{"name": "product_report", "arguments": {}}')
    assert accepts(vocab, build_grammar(TOOLS), '{"name": "product_report", "arguments": {}}')


def test_the_catch_all_never_admits_a_known_tool_with_free_arguments(vocab: Any) -> None:
    # If "calculate" could go through the catch-all, its schema would not bind.
    free = '{"name": "calculate", "arguments": {"expression": "128*32"}}'
    assert not accepts(vocab, build_grammar(TOOLS), free)


def test_the_text_only_grammar_refuses_every_call_shape(vocab: Any) -> None:
    grammar = text_only_grammar()
    assert accepts(vocab, grammar, "It is 4096.")
    assert not accepts(vocab, grammar, "```python\nprint(4096)\n```")
    assert not accepts(vocab, grammar, f"<tool_call>\n{CALL}\n</tool_call>")
    assert not accepts(vocab, grammar, f"```json\n{CALL}\n```")
    assert not accepts(vocab, grammar, CALL)
    # Nor a plan line: stopped from planning, the model wrote its next call as the answer.
    assert not accepts(vocab, grammar, 'r5 = order_status(order_id="O-1001")')
    assert not accepts(vocab, grammar, 'r = find_patient(name="P-103")')
    assert not accepts(vocab, grammar, 'r-5 = order_status(order_id="O-1001")')
    assert not accepts(vocab, grammar, 'r\n5 = order_status(order_id="O-1001")')
    # Nor a result echoed: "r: book_appointment returned: No doctor with that id".
    assert not accepts(vocab, grammar, "r: book_appointment returned: nothing was booked.")
    assert accepts(vocab, grammar, "ready: order O-1001 is placed.")


def test_an_answer_that_goes_on_must_write_one_of_the_values_it_left_out(vocab: Any) -> None:
    grammar = continuation_grammar(["31.50", "09:30"])
    assert accepts(vocab, grammar, " The 6 kg parcel costs 31.50 EUR.")
    assert accepts(vocab, grammar, "\n\nThe slot starts at 09:30.")
    assert not accepts(vocab, grammar, " The order status for r1 is pending.")
    assert not accepts(vocab, grammar, " It came from `quote(weight_kg=6)`: 31.50 EUR.")
    assert not accepts(vocab, grammar, " From <function-name>quote: 31.50 EUR.")
    assert not accepts(vocab, grammar, "The slot starts at 09:30.")  # no space: not a new sentence


def test_arguments_follow_the_schema_property_order(vocab: Any) -> None:
    reordered = '{"name": "product_reserve", "arguments": {"quantity": 2, "sku": "SKU-100"}}'
    ordered = '{"name": "product_reserve", "arguments": {"sku": "SKU-100", "quantity": 2}}'
    grammar = build_grammar(TOOLS)
    assert accepts(vocab, grammar, ordered)
    assert not accepts(vocab, grammar, reordered)


def test_grammars_are_built_once_per_tool_set() -> None:
    assert build_grammar(TOOLS) is build_grammar(list(TOOLS))
    assert build_grammar(TOOLS) is not build_grammar(TOOLS, catch_all=False)


def test_a_schema_the_converter_cannot_express_falls_back_to_any_object(
    vocab: Any, caplog: pytest.LogCaptureFixture
) -> None:
    remote = ToolDefinition(
        "remote",
        "Uses a remote schema.",
        {"type": "object", "properties": {"x": {"$ref": "https://example.com/x.json"}}},
    )
    grammar = build_grammar([remote])
    assert "cannot be expressed as a grammar" in caplog.text
    assert accepts(vocab, grammar, '{"name": "remote", "arguments": {"anything": [1, 2]}}')
