"""tool_callbacks(): collecting tools from objects, functions and callbacks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import pytest

from springtail.tools import (
    FunctionToolCallback,
    MethodToolCallback,
    ToolCallback,
    ToolDefinition,
    tool,
    tool_callbacks,
)


class BaseTools:
    @tool
    def shared(self) -> str:
        return f"base:{type(self).__name__}"

    @tool
    def overridden(self) -> str:
        return "base"

    @tool
    def hidden(self) -> str:
        return "base"


class ChildTools(BaseTools):
    @tool
    def overridden(self) -> str:
        return "child"

    def hidden(self) -> str:  # an override without @tool is not a tool
        return "child"

    @tool
    def own(self) -> str:
        return "own"


class Unrelated:
    def helper(self) -> None:
        pass


@tool
def standalone() -> str:
    return "alone"


def names(callbacks: Sequence[ToolCallback]) -> list[str]:
    return [cb.tool_definition.name for cb in callbacks]


def test_object_tools_include_inherited_ones_once_bound_to_the_object() -> None:
    callbacks = tool_callbacks(ChildTools())
    assert sorted(names(callbacks)) == ["overridden", "own", "shared"]
    by_name = {cb.tool_definition.name: cb for cb in callbacks}
    assert by_name["shared"].call("{}") == "base:ChildTools"
    assert by_name["overridden"].call("{}") == "child"


def test_methods_are_bound_to_each_object() -> None:
    class Counter:
        def __init__(self, start: int) -> None:
            self.value = start

        @tool
        def bump(self) -> int:
            self.value += 1
            return self.value

    a, b = Counter(0), Counter(100)
    (bump_a,) = tool_callbacks(a)
    (bump_b,) = tool_callbacks(b)
    assert bump_a.call("{}") == "1"
    assert bump_b.call("{}") == "101"
    assert (a.value, b.value) == (1, 101)


def test_functions_callbacks_and_objects_mix_and_keep_order() -> None:
    hand = FunctionToolCallback("by_hand", lambda: "h")
    callbacks = tool_callbacks(standalone, hand, [BaseTools()])
    assert names(callbacks)[:2] == ["standalone", "by_hand"]
    assert callbacks[1] is hand
    assert sorted(names(callbacks)[2:]) == ["hidden", "overridden", "shared"]


def test_bound_tool_method_is_a_source() -> None:
    tools = ChildTools()
    (callback,) = tool_callbacks(tools.own)
    assert isinstance(callback, MethodToolCallback)
    assert callback.tool_object is tools
    assert callback.call("{}") == "own"


def test_class_with_static_and_class_method_tools() -> None:
    class Static:
        prefix = "cls"

        @tool
        @staticmethod
        def s() -> str:
            return "static"

        @tool
        @classmethod
        def c(cls) -> str:
            return cls.prefix

    by_name = {cb.tool_definition.name: cb for cb in tool_callbacks(Static)}
    assert by_name["s"].call("{}") == "static"
    assert by_name["c"].call("{}") == "cls"


def test_class_with_instance_method_tools_asks_for_an_instance() -> None:
    with pytest.raises(ValueError, match="pass an instance of BaseTools"):
        tool_callbacks(BaseTools)


def test_unbound_method_is_reported_instead_of_asking_the_model_for_self() -> None:
    with pytest.raises(ValueError, match="'own' is a method taken from its class"):
        tool_callbacks(ChildTools.own)


def test_object_without_tools_is_named() -> None:
    with pytest.raises(ValueError, match="object of type Unrelated has no @tool methods"):
        tool_callbacks(standalone, Unrelated())


def test_plain_function_and_non_sources_are_named() -> None:
    def not_a_tool() -> None:
        pass

    with pytest.raises(ValueError, match=r"not_a_tool.*decorate it with @tool") as info:
        tool_callbacks(not_a_tool, "calculator")
    assert "'calculator' is not a tool source" in str(info.value)


def test_duplicate_names_are_a_value_error_naming_the_culprits() -> None:
    @tool(name="shared")
    def impostor() -> str:
        return ""

    with pytest.raises(ValueError, match="'shared' is used more than once") as info:
        tool_callbacks(BaseTools(), impostor)
    message = str(info.value)
    assert "BaseTools.shared" in message
    assert "impostor" in message


def test_same_object_twice_is_a_duplicate() -> None:
    tools = BaseTools()
    with pytest.raises(ValueError, match="used more than once"):
        tool_callbacks(tools, tools)


def test_every_problem_is_reported_at_once() -> None:
    @tool(name="standalone")
    def again() -> str:
        return ""

    with pytest.raises(ValueError, match="Cannot collect tools: ") as info:
        tool_callbacks(Unrelated(), standalone, again, 3)
    message = str(info.value)
    assert "Unrelated has no @tool methods" in message
    assert "'standalone' is used more than once" in message
    assert "3 is not a tool source" in message


def test_any_object_following_the_protocol_is_accepted() -> None:
    class Custom:
        tool_definition = ToolDefinition("custom", "A custom tool.", {"type": "object"})
        tool_metadata = None

        def call(self, tool_input: str, tool_context: object = None) -> str:
            return "custom"

        async def acall(self, tool_input: str, tool_context: object = None) -> str:
            return "custom"

    custom = Custom()
    assert tool_callbacks(custom) == [cast(ToolCallback, custom)]


def test_no_sources_is_an_empty_list() -> None:
    assert tool_callbacks() == []
