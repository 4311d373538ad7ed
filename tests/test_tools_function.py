"""FunctionToolCallback: one input object, keyword form and builder."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from springtail.tools import (
    FunctionToolCallback,
    ToolArgumentsError,
    ToolCallback,
    ToolContext,
    ToolExecutionError,
    ToolMetadata,
)


class DiscountRequest(BaseModel):
    """What to discount."""

    price: float = Field(description="List price")
    percent: float = 10.0


@dataclass
class Greeting:
    name: str
    formal: bool = False


class Lookup(TypedDict):
    sku: str


def discount(request: DiscountRequest) -> float:
    """Apply a percentage discount to a price."""
    return round(request.price * (1 - request.percent / 100), 2)


def test_input_type_defaults_to_the_first_parameter_annotation() -> None:
    callback = FunctionToolCallback("discount", discount)
    assert isinstance(callback, ToolCallback)
    definition = callback.tool_definition
    assert definition.description == "Apply a percentage discount to a price."
    assert definition.input_schema["properties"]["price"] == {
        "type": "number",
        "description": "List price",
    }
    assert definition.input_schema["required"] == ["price"]
    assert definition.input_schema["additionalProperties"] is False
    assert callback.call('{"price": 200}') == "180.0"


def test_keyword_form_overrides() -> None:
    schema = {"type": "object", "properties": {"price": {"type": "number"}}, "required": []}

    def shout(result: Any, return_type: Any) -> str:
        return f"<{result}>"

    callback = FunctionToolCallback(
        "discount",
        lambda request: request.price,
        input_type=DiscountRequest,
        description="Explicit.",
        input_schema=schema,
        tool_metadata=ToolMetadata(return_direct=True, timeout=3),
        result_converter=shout,
    )
    assert callback.tool_definition.description == "Explicit."
    assert callback.tool_definition.input_schema == schema
    assert callback.tool_metadata.return_direct is True
    assert callback.timeout == 3
    assert callback.requires_approval is False
    assert callback.call('{"price": 5}') == "<5.0>"
    # the hand-written schema is what the model sees; validation uses the type
    with pytest.raises(ToolArgumentsError, match="'price' must be a number"):
        callback.call('{"price": "cheap"}')


def test_input_schema_may_be_json_text_and_must_be_valid() -> None:
    callback = FunctionToolCallback(
        "d", discount, input_schema='{"type": "object", "properties": {}}'
    )
    assert callback.tool_definition.input_schema == {"type": "object", "properties": {}}
    with pytest.raises(ValueError, match="not valid JSON"):
        FunctionToolCallback("d", discount, input_schema="{nope")


def test_builder_form() -> None:
    callback = (
        FunctionToolCallback.builder("greet", lambda g: f"{'Dear ' if g.formal else ''}{g.name}")
        .description("Greet someone.")
        .input_type(Greeting)
        .tool_metadata(ToolMetadata(requires_approval=True))
        .result_converter(lambda result, return_type: result.upper())
        .build()
    )
    assert isinstance(callback, FunctionToolCallback)
    assert callback.tool_definition.name == "greet"
    assert callback.tool_definition.description == "Greet someone."
    assert callback.requires_approval is True
    assert callback.call('{"name": "ann", "formal": true}') == "DEAR ANN"


def test_dataclass_and_typeddict_inputs() -> None:
    def greet(greeting: Greeting) -> str:
        return greeting.name

    def lookup(query: Lookup) -> dict[str, Any]:
        return {"sku": query["sku"], "stock": 3}

    assert FunctionToolCallback("greet", greet).call('{"name": "bo"}') == "bo"
    assert FunctionToolCallback("lookup", lookup).call('{"sku": "A1"}') == '{"sku":"A1","stock":3}'


def test_fn_with_context() -> None:
    def whoami(request: Greeting, ctx: ToolContext) -> str:
        return f"{request.name}/{ctx.get('user', '?')}"

    callback = FunctionToolCallback("whoami", whoami)
    assert callback.call('{"name": "x"}', ToolContext({"user": "ann"})) == "x/ann"
    assert callback.call('{"name": "x"}') == "x/?"
    assert list(callback.tool_definition.input_schema["properties"]) == ["name", "formal"]


def test_context_may_have_a_default_or_no_annotation() -> None:
    def with_default(request: Greeting, ctx: ToolContext | None = None) -> str:
        return f"{request.name}/{ctx['user'] if ctx else 'none'}"

    callback = FunctionToolCallback("a", with_default)
    assert callback.call('{"name": "x"}', ToolContext({"user": "ann"})) == "x/ann"
    untyped = FunctionToolCallback(
        "b", lambda g, ctx: f"{g.name}/{ctx['user']}", input_type=Greeting
    )
    assert untyped.call('{"name": "y"}', ToolContext({"user": "bo"})) == "y/bo"


def test_callable_object_input_type_comes_from_its_call_method() -> None:
    class Greeter:
        def __call__(self, greeting: Greeting) -> str:
            return f"hi {greeting.name}"

    assert FunctionToolCallback("greet", Greeter()).call('{"name": "z"}') == "hi z"


def test_zero_argument_fn_takes_no_input() -> None:
    callback = FunctionToolCallback("now", lambda: "12:00")
    schema = callback.tool_definition.input_schema
    assert schema["properties"] == {}
    assert schema["required"] == []
    assert schema["additionalProperties"] is False
    assert callback.tool_definition.description == "now"
    assert callback.call("") == "12:00"
    assert callback.call("{}") == "12:00"
    with pytest.raises(ToolArgumentsError, match="unexpected field 'x'"):
        callback.call('{"x": 1}')
    with pytest.raises(ToolArgumentsError, match="must be a JSON object"):
        callback.call("[]")
    with pytest.raises(ToolArgumentsError, match="not valid JSON"):
        callback.call("{")


def test_context_only_fn() -> None:
    def me(ctx: ToolContext) -> str:
        return str(ctx["user"])

    callback = FunctionToolCallback("me", me)
    assert callback.tool_definition.input_schema["properties"] == {}
    assert callback.call("{}", ToolContext({"user": "zed"})) == "zed"


def test_fn_returning_none_yields_done() -> None:
    def record(greeting: Greeting) -> None:
        pass

    assert FunctionToolCallback("record", record).call('{"name": "x"}') == "Done"


def test_extra_fields_are_rejected_even_when_the_model_ignores_them() -> None:
    callback = FunctionToolCallback("discount", discount)
    with pytest.raises(ToolArgumentsError) as info:
        callback.call('{"price": "x", "coupon": "FREE"}')
    assert info.value.errors == (
        "'price' must be a number (got 'x')",
        "unexpected field 'coupon' (allowed: price, percent)",
    )

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid")
        a: int

    strict = FunctionToolCallback("strict", lambda s: s.a, input_type=Strict)
    with pytest.raises(ToolArgumentsError, match=r"unexpected field 'b' \(allowed: a\)"):
        strict.call('{"a": 1, "b": 2}')


def test_invalid_json_and_non_objects() -> None:
    callback = FunctionToolCallback("discount", discount)
    with pytest.raises(ToolArgumentsError, match="not valid JSON"):
        callback.call('{"price": ')
    with pytest.raises(ToolArgumentsError, match="must be a JSON object"):
        callback.call("[1]")


async def test_async_fn_on_both_paths() -> None:
    async def slow_discount(request: DiscountRequest) -> float:
        return request.price / 2

    callback = FunctionToolCallback("half", slow_discount)
    assert callback.is_async is True
    assert await callback.acall('{"price": 10}') == "5.0"
    assert callback.call('{"price": 10}') == "5.0"
    assert FunctionToolCallback("d", discount).is_async is False
    assert await FunctionToolCallback("d", discount).acall('{"price": 10}') == "9.0"


async def test_exceptions_are_wrapped_and_base_exceptions_are_not() -> None:
    def fail(request: Greeting) -> str:
        raise LookupError(f"no {request.name}")

    def stop(request: Greeting) -> str:
        raise KeyboardInterrupt

    with pytest.raises(ToolExecutionError, match="no bob") as info:
        FunctionToolCallback("fail", fail).call('{"name": "bob"}')
    assert isinstance(info.value.cause, LookupError)
    with pytest.raises(ToolExecutionError, match="no bob"):
        await FunctionToolCallback("fail", fail).acall('{"name": "bob"}')
    with pytest.raises(KeyboardInterrupt):
        FunctionToolCallback("stop", stop).call('{"name": "bob"}')


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"name": "", "fn": discount}, ValueError, "non-empty"),
        ({"name": "x", "fn": 42}, TypeError, "callable"),
        ({"name": "x", "fn": discount, "description": " "}, ValueError, "blank"),
        ({"name": "x", "fn": lambda a, b, c: None}, TypeError, "use @tool"),
    ],
)
def test_bad_construction_is_reported(kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        FunctionToolCallback(**kwargs)


def test_unannotated_input_without_input_type_is_reported_on_first_use() -> None:
    callback = FunctionToolCallback("x", lambda value: value)
    with pytest.raises(TypeError, match="input_type"):
        _ = callback.tool_definition


def test_a_parameter_that_would_get_no_value_is_reported_on_first_use() -> None:
    def needs_more(request: Greeting, *, flag: bool) -> str:
        return ""

    with pytest.raises(TypeError, match="'flag' would get no value"):
        _ = FunctionToolCallback("x", needs_more).tool_definition


def test_schema_is_plain_json() -> None:
    schema = FunctionToolCallback("discount", discount).tool_definition.input_schema
    assert json.loads(json.dumps(schema)) == schema
