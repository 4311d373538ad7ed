"""@tool: forms, names, descriptions and the metadata it records."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from springtail.tools import ToolMetadata, tool, tool_callbacks


def only(source: object) -> Any:  # a Function- or MethodToolCallback, flags read as such
    (callback,) = tool_callbacks(source)
    return callback


def test_bare_decorator_keeps_the_function_callable_as_before() -> None:
    @tool
    def double(x: int) -> int:
        """Double a number."""
        return 2 * x

    assert double(21) == 42
    assert double.__name__ == "double"
    assert only(double).call('{"x": 4}') == "8"


def test_decorator_with_arguments_records_every_option() -> None:
    def shout(result: object, return_type: object) -> str:
        return str(result).upper()

    @tool(
        name="greet",
        description="Say hello.",
        return_direct=True,
        result_converter=shout,
        timeout=2.5,
        requires_approval=True,
    )
    def hello(who: str) -> str:
        return f"hello {who}"

    assert hello("x") == "hello x"
    callback = only(hello)
    assert callback.tool_definition.name == "greet"
    assert callback.tool_definition.description == "Say hello."
    assert callback.tool_metadata == ToolMetadata(
        return_direct=True, timeout=2.5, requires_approval=True, is_async=False
    )
    assert callback.timeout == 2.5
    assert callback.requires_approval is True
    assert callback.call('{"who": "ann"}') == "HELLO ANN"


def test_fn_may_be_passed_by_keyword() -> None:
    def triple(x: int) -> int:
        return 3 * x

    assert tool(fn=triple) is triple
    assert only(triple).call('{"x": 2}') == "6"


def test_defaults_are_not_return_direct_no_timeout_no_approval() -> None:
    @tool
    def f() -> str:
        return "x"

    callback = only(f)
    assert callback.tool_metadata == ToolMetadata(is_async=False)
    assert callback.timeout is None
    assert callback.requires_approval is False


def test_name_defaults_to_the_function_name() -> None:
    @tool
    def lookup_order() -> str:
        return ""

    assert only(lookup_order).tool_definition.name == "lookup_order"


def test_description_precedence_explicit_then_docstring_then_name() -> None:
    @tool(description="Explicit.")
    def a() -> None:
        """Docstring."""

    @tool
    def b() -> None:
        """Docstring summary.

        More detail for the model.

        Args:
            nothing: not a parameter.
        """

    @tool
    def check_stock_level() -> None:
        pass

    assert only(a).tool_definition.description == "Explicit."
    assert only(b).tool_definition.description == "Docstring summary.\n\nMore detail for the model."
    assert only(check_stock_level).tool_definition.description == "check stock level"


def test_empty_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        tool(name="")
    with pytest.raises(ValueError, match="non-empty"):
        tool(name="   ")


def test_blank_description_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="blank"):
        tool(description=" ")


def test_non_positive_timeout_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="timeout"):
        tool(timeout=0)


@pytest.mark.parametrize("name", ["has space", "x" * 65, "naïve", "日本語ツール", "a/b"])
def test_unportable_name_is_accepted_with_a_warning(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="springtail.tools"):

        @tool(name=name)
        def f() -> str:
            return "ok"

    assert name in caplog.text
    callback = only(f)
    assert callback.tool_definition.name == name
    assert callback.call("{}") == "ok"


@pytest.mark.parametrize("name", ["get_weather", "a.b-c_D9", "x" * 64])
def test_portable_name_logs_nothing(name: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="springtail.tools"):
        tool(name=name)(lambda: None)
    assert caplog.text == ""


def test_decorating_a_class_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="functions and methods"):
        tool(type("Thing", (), {}))


def test_methods_static_and_class_methods_stay_callable() -> None:
    class Tools:
        factor = 3

        @tool
        def times(self, x: int) -> int:
            return self.factor * x

        @tool
        @staticmethod
        def plus_one(x: int) -> int:
            return x + 1

        @staticmethod
        @tool
        def minus_one(x: int) -> int:
            return x - 1

        @tool
        @classmethod
        def class_times(cls, x: int) -> int:
            return cls.factor * x

    tools = Tools()
    assert tools.times(2) == 6
    assert Tools.plus_one(1) == 2
    assert tools.minus_one(1) == 0
    assert Tools.class_times(2) == 6
    by_name = {cb.tool_definition.name: cb for cb in tool_callbacks(tools)}
    assert set(by_name) == {"times", "plus_one", "minus_one", "class_times"}
    assert by_name["times"].call('{"x": 2}') == "6"
    assert by_name["plus_one"].call('{"x": 2}') == "3"
    assert by_name["minus_one"].call('{"x": 2}') == "1"
    assert by_name["class_times"].call('{"x": 2}') == "6"
    for callback in by_name.values():
        assert "self" not in callback.tool_definition.input_schema["properties"]
        assert "cls" not in callback.tool_definition.input_schema["properties"]


async def test_async_function_stays_awaitable_and_is_marked_async() -> None:
    @tool
    async def ping() -> str:
        """Answer pong."""
        return "pong"

    assert await ping() == "pong"
    callback = only(ping)
    assert callback.is_async is True
    assert await callback.acall("{}") == "pong"


def test_sync_function_is_not_async() -> None:
    @tool
    def ping() -> str:
        return "pong"

    assert only(ping).is_async is False


def test_definition_is_built_once_and_shared_by_instances() -> None:
    class Tools:
        @tool
        def echo(self, text: str) -> str:
            return text

    first = only(Tools())
    second = only(Tools())
    assert first.tool_definition is second.tool_definition
    assert first.tool_definition.input_schema is second.tool_definition.input_schema


def test_idempotent_is_tool_metadata_and_off_by_default() -> None:
    @tool
    def plain(x: int) -> int:
        """Plain."""
        return x

    @tool(idempotent=True)
    def lookup(x: int) -> int:
        """Looks up."""
        return x

    plain_cb, lookup_cb = tool_callbacks(plain, lookup)
    assert plain_cb.tool_metadata.idempotent is False
    assert lookup_cb.tool_metadata.idempotent is True
    assert ToolMetadata(idempotent=True).idempotent is True
