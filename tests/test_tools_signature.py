"""Signature rules: which parameters are required, described, injected."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import pytest
from pydantic import Field

from springtail.tools import Param, ToolArgumentsError, ToolContext, tool, tool_callbacks
from springtail.tools._signature import compile_signature


def schema_of(fn: Any) -> dict[str, Any]:
    (callback,) = tool_callbacks(fn)
    return dict(callback.tool_definition.input_schema)


def test_required_unless_default_none_type_or_param_false() -> None:
    @tool
    def f(
        plain: int,
        *,
        with_default: int = 3,
        optional: int | None = None,
        optional_no_default: Optional[str],  # noqa: UP045 - both spellings admit None
        union_no_default: int | None,
        forced_optional: Annotated[int, Param(required=False)],
        forced_required: Annotated[int | None, Param(required=True)] = None,
    ) -> str:
        return ""

    schema = schema_of(f)
    assert schema["required"] == ["plain", "forced_required"]
    assert list(schema["properties"]) == [
        "plain",
        "with_default",
        "optional",
        "optional_no_default",
        "union_no_default",
        "forced_optional",
        "forced_required",
    ]


def test_param_required_true_wins_and_is_enforced() -> None:
    @tool
    def f(x: Annotated[int, Param(required=True)] = 5) -> int:
        return x

    (callback,) = tool_callbacks(f)
    with pytest.raises(ToolArgumentsError, match="'x' is required but missing"):
        callback.call("{}")
    assert callback.call('{"x": 7}') == "7"


def test_left_out_optional_parameters_get_their_default_or_none() -> None:
    seen: dict[str, Any] = {}

    @tool
    def f(
        *,
        c: int = 42,
        a: Annotated[int, Param(required=False)],
        b: str | None,
    ) -> str:
        seen.update(a=a, b=b, c=c)
        return "ok"

    (callback,) = tool_callbacks(f)
    callback.call("{}")
    assert seen == {"a": None, "b": None, "c": 42}  # keyword-only parameters work too
    callback.call('{"a": 1, "b": "x", "c": 2}')
    assert seen == {"a": 1, "b": "x", "c": 2}


def test_any_is_an_empty_schema_and_required() -> None:
    received: list[Any] = []

    @tool
    def f(value: Any, untyped) -> str:  # type: ignore[no-untyped-def]
        received.append((value, untyped))
        return "ok"

    schema = schema_of(f)
    assert schema["properties"] == {"value": {}, "untyped": {}}
    assert schema["required"] == ["value", "untyped"]
    (callback,) = tool_callbacks(f)
    callback.call('{"value": {"deep": [1, "x", null]}, "untyped": 3}')
    assert received == [({"deep": [1, "x", None]}, 3)]


def test_description_precedence_param_annotated_field_docstring() -> None:
    @tool
    def f(
        a: Annotated[
            Annotated[int, Field(description="from Field")], "from Annotated", Param("from Param")
        ],
        b: Annotated[Annotated[int, Field(description="from Field")], "from Annotated"],
        c: Annotated[int, Field(description="from Field")],
        d: int,
        e: Annotated[int, Param(required=False)],
    ) -> None:
        """Do it.

        Args:
            a: from docstring
            b: from docstring
            c: from docstring
            d: from docstring
            e: from docstring
        """

    props = schema_of(f)["properties"]
    assert props["a"]["description"] == "from Param"
    assert props["b"]["description"] == "from Annotated"
    assert props["c"]["description"] == "from Field"
    assert props["d"]["description"] == "from docstring"
    assert props["e"]["description"] == "from docstring"


def test_field_constraints_survive_a_description_override() -> None:
    @tool
    def f(qty: Annotated[int, Field(gt=0, description="x"), Param("How many.")]) -> int:
        return qty

    prop = schema_of(f)["properties"]["qty"]
    assert prop["description"] == "How many."
    assert prop["exclusiveMinimum"] == 0
    (callback,) = tool_callbacks(f)
    with pytest.raises(ToolArgumentsError, match="'qty' must be greater than 0"):
        callback.call('{"qty": 0}')


def test_pydantic_field_as_default_value() -> None:
    seen: list[int] = []

    @tool
    def f(
        qty: int = Field(3, description="How many.", gt=0),
        size: int = Field(description="Size."),
    ) -> str:
        seen.append(qty)
        return str(size)

    schema = schema_of(f)
    assert schema["required"] == ["size"]
    assert schema["properties"]["qty"] == {
        "type": "integer",
        "description": "How many.",
        "exclusiveMinimum": 0,
        "default": 3,
    }
    (callback,) = tool_callbacks(f)
    assert callback.call('{"size": 1}') == "1"
    assert seen == [3]  # the default value, not the Field object
    with pytest.raises(ToolArgumentsError, match="'qty' must be greater than 0"):
        callback.call('{"size": 1, "qty": 0}')


def test_undocumented_parameter_has_no_description() -> None:
    @tool
    def f(x: int) -> None:
        pass

    assert schema_of(f)["properties"]["x"] == {"type": "integer"}


def test_tool_context_is_injected_and_never_in_the_schema() -> None:
    seen: list[ToolContext] = []

    @tool
    def f(topic: str, ctx: ToolContext) -> str:
        seen.append(ctx)
        return topic

    schema = schema_of(f)
    assert list(schema["properties"]) == ["topic"]
    assert schema["required"] == ["topic"]
    (callback,) = tool_callbacks(f)
    callback.call('{"topic": "t"}', ToolContext({"user": "ann"}))
    callback.call('{"topic": "t"}')
    assert seen[0]["user"] == "ann"
    assert isinstance(seen[1], ToolContext)
    assert len(seen[1]) == 0


def test_optional_context_annotation_is_injected_too() -> None:
    @tool
    def f(ctx: ToolContext | None = None) -> str:
        return "none" if ctx is None else str(len(ctx))

    assert schema_of(f)["properties"] == {}
    (callback,) = tool_callbacks(f)
    assert callback.call("{}", ToolContext({"a": 1})) == "1"


def test_model_cannot_set_the_context_parameter() -> None:
    @tool
    def f(ctx: ToolContext) -> str:
        return str(dict(ctx))

    (callback,) = tool_callbacks(f)
    with pytest.raises(ToolArgumentsError, match="unexpected field 'ctx'"):
        callback.call('{"ctx": {"user": "root"}}', ToolContext({"user": "ann"}))


def test_default_values_are_shown_to_the_model() -> None:
    @tool
    def f(limit: int = 10, mode: str = "fast", marker: object = object()) -> None:
        pass

    props = schema_of(f)["properties"]
    assert props["limit"]["default"] == 10
    assert props["mode"]["default"] == "fast"
    assert "default" not in props["marker"]


def test_parameter_names_that_clash_with_basemodel_attributes_work() -> None:
    @tool
    def f(json: str, copy: int, model_config: bool, schema: str = "s") -> str:
        return f"{json}{copy}{model_config}{schema}"

    (callback,) = tool_callbacks(f)
    assert callback.call('{"json": "j", "copy": 1, "model_config": true}') == "j1Trues"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def f(*args: int) -> None: ...", "args"),
        ("def f(**kwargs: int) -> None: ...", "kwargs"),
        ("def f(x: int, /) -> None: ...", "positional-only"),
        ("def f(x: 'NoSuchType') -> None: ...", "type hints"),
    ],
)
def test_signatures_that_cannot_be_tools_are_type_errors(source: str, message: str) -> None:
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    with pytest.raises(TypeError, match=message):
        compile_signature(namespace["f"], name="f", skip_first=False)


def test_compiled_signature_records_the_return_type() -> None:
    def f(x: int) -> list[int]:
        return [x]

    assert compile_signature(f, name="f", skip_first=False).return_type == list[int]
