"""The repair rules every server provider shares: fragments, ids, names, arguments."""

from __future__ import annotations

import logging

import pytest

from replay_server import WEATHER
from springtail.messages import ChatOptions, Prompt, ToolCall
from springtail.models._wire import (
    MISSING_TOOL_NAME,
    ToolCallAssembler,
    arguments_to_object,
    effective_options,
    object_to_arguments,
    repair_tool_call,
    tool_definitions,
)


def test_fragments_join_by_key_in_the_order_calls_started() -> None:
    calls = ToolCallAssembler()
    calls.add(1, call_id="b", name="second", arguments='{"x"')
    calls.add(0, call_id="a", name="first", arguments="{}")
    calls.add(1, arguments=": 1}")
    assert calls.finish() == [
        ToolCall("b", "second", '{"x": 1}'),
        ToolCall("a", "first", "{}"),
    ]
    assert not calls


def test_a_new_id_under_a_known_key_starts_a_new_call() -> None:
    # Some servers number every call 0 and tell them apart only by id.
    calls = ToolCallAssembler()
    calls.add(0, call_id="a", name="one", arguments='{"n": 1}')
    calls.add(0, call_id="b", name="two", arguments='{"n": ')
    calls.add(0, arguments="2}")
    assert calls.finish() == [ToolCall("a", "one", '{"n": 1}'), ToolCall("b", "two", '{"n": 2}')]


def test_fragments_without_a_key_follow_their_id_or_the_last_call() -> None:
    calls = ToolCallAssembler()
    calls.add(None, call_id="a", name="one", arguments='{"a": ')
    calls.add(None, call_id="b", name="two", arguments="{}")
    calls.add(None, call_id="a", arguments="1")
    calls.add(None, arguments="}")  # continues the most recent call, "a"
    assert calls.finish() == [ToolCall("a", "one", '{"a": 1}'), ToolCall("b", "two", "{}")]


def test_a_repeated_name_is_not_doubled() -> None:
    calls = ToolCallAssembler()
    calls.add(0, call_id="a", name="weather", arguments='{"city":')
    calls.add(0, name="weather", arguments='"Oslo"}')
    assert calls.finish() == [ToolCall("a", "weather", '{"city":"Oslo"}')]


def test_pop_finishes_one_block_and_leaves_the_others_open() -> None:
    calls = ToolCallAssembler()
    calls.add(1, call_id="t1", name="weather")
    calls.add(2, call_id="t2", name="weather", arguments='{"city": "Rome"}')
    assert calls.pop(1) == ToolCall("t1", "weather", "{}")
    assert calls.pop(1) is None
    assert calls.finish() == [ToolCall("t2", "weather", '{"city": "Rome"}')]


def test_stray_fragments_are_dropped_and_nameless_calls_renamed_with_warnings(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls = ToolCallAssembler()
    calls.add(0, arguments="  ")
    calls.add(1, call_id="x", arguments='{"city": "Bern"}')
    with caplog.at_level(logging.WARNING, logger="springtail.models"):
        finished = calls.finish()
    assert finished == [ToolCall("x", MISSING_TOOL_NAME, '{"city": "Bern"}')]
    assert "no name and no arguments" in caplog.text
    assert "without a tool name" in caplog.text


def test_repair_generates_unique_ids_and_keeps_invalid_json_text() -> None:
    first = repair_tool_call(None, "weather", '{"city": ')
    second = repair_tool_call("", " weather ", "")
    assert first.id.startswith("call_")
    assert first.id != second.id
    assert first.arguments == '{"city": '
    assert (second.name, second.arguments) == ("weather", "{}")


def test_arguments_convert_between_objects_and_text() -> None:
    assert object_to_arguments({"city": "Zürich"}) == '{"city": "Zürich"}'
    assert object_to_arguments(None) == "{}"
    assert object_to_arguments('{"a": 1}') == '{"a": 1}'
    assert arguments_to_object('{"a": [1, 2]}') == {"a": [1, 2]}
    assert arguments_to_object("") == {}
    assert arguments_to_object("not json") == {}
    assert arguments_to_object("[1, 2]") == {}


def test_options_merge_and_tool_definitions_are_unique_by_name() -> None:
    defaults = ChatOptions(temperature=0.5, max_tokens=10, tool_callbacks=(WEATHER,))
    merged = effective_options(defaults, Prompt("hi", ChatOptions(temperature=0.0)))
    assert (merged.temperature, merged.max_tokens) == (0.0, 10)
    twice = ChatOptions(tool_callbacks=(WEATHER, WEATHER))
    assert [d.name for d in tool_definitions(twice)] == ["weather"]


def test_function_tools_is_the_shape_openai_and_ollama_read() -> None:
    from springtail.models._wire import function_tools
    from springtail.tools import ToolDefinition

    schema = {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}
    [payload] = function_tools([ToolDefinition("lookup", "Find a product.", schema)])
    assert payload == {
        "type": "function",
        "function": {"name": "lookup", "description": "Find a product.", "parameters": schema},
    }


def test_function_tools_turn_read_only_schemas_into_json_all_the_way_down() -> None:
    import json
    from types import MappingProxyType

    from springtail.models._wire import function_tools
    from springtail.tools import ToolDefinition

    frozen = MappingProxyType(
        {
            "type": "object",
            "properties": MappingProxyType({"sku": MappingProxyType({"type": "string"})}),
            "required": ("sku",),
        }
    )
    [payload] = function_tools([ToolDefinition("lookup", "Find a product.", frozen)])
    assert json.loads(json.dumps(payload))["function"]["parameters"] == {
        "type": "object",
        "properties": {"sku": {"type": "string"}},
        "required": ["sku"],
    }
