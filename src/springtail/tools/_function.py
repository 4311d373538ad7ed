"""A tool backed by a function that takes one input object (Spring's ``Function<I, O>``)."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any

from springtail.tools._context import ToolContext
from springtail.tools._converter import DefaultToolCallResultConverter, ToolCallResultConverter
from springtail.tools._decorator import check_tool_name
from springtail.tools._definition import ToolDefinition, ToolMetadata, with_is_async
from springtail.tools._errors import ToolExecutionError
from springtail.tools._invoke import (
    as_context,
    convert,
    is_async_callable,
    run_async,
    run_in_thread,
    run_sync,
)
from springtail.tools._signature import is_context_type

__all__ = ["FunctionToolCallback", "FunctionToolCallbackBuilder"]

_DEFAULT_CONVERTER = DefaultToolCallResultConverter()
_EMPTY_OBJECT: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {},
    "required": [],
    "additionalProperties": False,
}


class _Plan:
    """Built once on first use: validator, schema and how to call ``fn``."""

    __slots__ = (
        "allowed",
        "context_name",
        "context_positional",
        "input_schema",
        "return_type",
        "validate_json",
    )

    def __init__(
        self,
        *,
        input_schema: dict[str, Any],
        validate_json: Callable[[str], Any] | None,
        allowed: frozenset[str] | None,
        context_name: str | None,
        context_positional: bool,
        return_type: Any,
    ) -> None:
        self.input_schema = input_schema
        self.validate_json = validate_json
        self.allowed = allowed
        self.context_name = context_name
        self.context_positional = context_positional
        self.return_type = return_type


class FunctionToolCallback:
    """Expose ``fn(input)`` / ``fn(input, ctx)`` / ``fn()`` as a tool.

    The model's arguments are validated into one ``input_type`` instance (a
    pydantic model, dataclass or TypedDict); ``input_type`` defaults to the
    annotation of ``fn``'s first parameter. Use it for functions written
    around a request object; use ``@tool`` for functions with plain
    parameters.

    Args:
        name: The tool's name.
        fn: The function to run, sync or ``async def``.
        input_type: The type the arguments are validated into.
        description: What the model is told; default ``fn``'s docstring, else
            the name with underscores as spaces.
        input_schema: A hand-written JSON Schema (dict or JSON text) sent to
            the model instead of the generated one; validation still uses
            ``input_type``.
        tool_metadata: How the tool loop treats the tool.
        result_converter: ``(result, return_type) -> str``.
    """

    __slots__ = (
        "_converter",
        "_definition",
        "_description",
        "_explicit_schema",
        "_input_type",
        "_is_async",
        "_metadata",
        "_plan",
        "_positional",
        "fn",
        "name",
    )

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        *,
        input_type: Any = None,
        description: str | None = None,
        input_schema: Mapping[str, Any] | str | None = None,
        tool_metadata: ToolMetadata | None = None,
        result_converter: ToolCallResultConverter | None = None,
    ) -> None:
        check_tool_name(name)
        if not callable(fn):
            raise TypeError(f"FunctionToolCallback {name!r}: fn must be callable, got {fn!r}")
        if description is not None and not description.strip():
            raise ValueError(f"FunctionToolCallback {name!r}: description must not be blank")
        self.name = name
        self.fn = fn
        self._input_type = input_type
        self._description = description
        self._explicit_schema = _load_schema(name, input_schema)
        self._is_async = is_async_callable(fn)
        self._metadata = with_is_async(tool_metadata, self._is_async)
        self._converter = result_converter if result_converter is not None else _DEFAULT_CONVERTER
        self._positional = _positional_params(name, fn)
        self._definition: ToolDefinition | None = None
        self._plan: _Plan | None = None

    @staticmethod
    def builder(name: str, fn: Callable[..., Any]) -> FunctionToolCallbackBuilder:
        """Spring-style builder: ``.description(..).input_type(..)....build()``."""
        return FunctionToolCallbackBuilder(name, fn)

    @property
    def tool_definition(self) -> ToolDefinition:
        """The definition, built on first access and cached."""
        definition = self._definition
        if definition is None:
            plan = self._plan or self._load()
            description = (
                self._description or _doc_description(self.fn) or self.name.replace("_", " ")
            )
            definition = self._definition = ToolDefinition(
                self.name, description, self._explicit_schema or plan.input_schema
            )
        return definition

    @property
    def tool_metadata(self) -> ToolMetadata:
        """How the tool loop treats this tool."""
        return self._metadata

    @property
    def is_async(self) -> bool:
        """True when ``fn`` is ``async def``: the manager awaits it on the loop."""
        return self._is_async

    @property
    def timeout(self) -> float | None:
        """Seconds one run may take (``None``: the manager's default)."""
        return self._metadata.timeout

    @property
    def requires_approval(self) -> bool:
        """Whether the manager must ask its approver before each run."""
        return self._metadata.requires_approval

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        """Run the tool from sync code (an ``async def`` fn runs to completion)."""
        plan = self._plan or self._load()
        args, kwargs = self._arguments(plan, tool_input, tool_context)
        definition = self.tool_definition
        if self._is_async:
            from springtail._sync import run_sync as block_on  # deferred: loads asyncio

            result = block_on(run_async(definition, self.fn, args, kwargs))
        else:
            result = run_sync(definition, self.fn, args, kwargs)
        return convert(definition, self._converter, result, plan.return_type)

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        """Run the tool from async code; a sync fn runs in a worker thread."""
        plan = self._plan or self._load()
        args, kwargs = self._arguments(plan, tool_input, tool_context)
        definition = self.tool_definition
        if self._is_async:
            result = await run_async(definition, self.fn, args, kwargs)
        else:
            result = await run_in_thread(definition, self.fn, args, kwargs)
        return convert(definition, self._converter, result, plan.return_type)

    def _arguments(
        self, plan: _Plan, tool_input: str, tool_context: ToolContext | None
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        if not tool_input or tool_input.isspace():
            tool_input = "{}"
        args: tuple[Any, ...] = ()
        if plan.validate_json is not None:
            if plan.allowed is not None:
                self._check_fields(plan, tool_input)
            try:
                args = (plan.validate_json(tool_input),)
            except ValueError as exc:  # pydantic_core.ValidationError is a ValueError
                raise self._error(exc, plan) from exc
        else:
            self._check_no_input(plan, tool_input)
        if plan.context_name is None:
            return args, {}
        if plan.context_positional:
            return (*args, as_context(tool_context)), {}
        return args, {plan.context_name: as_context(tool_context)}

    def _check_fields(self, plan: _Plan, tool_input: str) -> None:
        # The input type ignores unknown fields by its own configuration; the
        # contract says they are an error, so they are looked for up front.
        from pydantic_core import ValidationError, from_json

        try:
            data = from_json(tool_input)
        except ValueError:
            return  # the validator reports the broken JSON
        if not isinstance(data, dict) or plan.allowed is None or data.keys() <= plan.allowed:
            return
        extra = {k: v for k, v in data.items() if k not in plan.allowed}
        error: ValidationError | None = None
        try:
            assert plan.validate_json is not None
            plan.validate_json(tool_input)
        except ValidationError as exc:
            error = exc
        from springtail.tools._arguments import arguments_error

        raise arguments_error(
            self.tool_definition, error, schema=plan.input_schema, extra_fields=extra
        )

    def _check_no_input(self, plan: _Plan, tool_input: str) -> None:
        from pydantic_core import from_json

        try:
            data = from_json(tool_input)
        except ValueError as exc:
            from springtail.tools._arguments import not_valid_json_error

            raise not_valid_json_error(self.tool_definition, exc, plan.input_schema) from exc
        if not isinstance(data, dict):
            from springtail.tools._arguments import not_an_object_error

            raise not_an_object_error(self.tool_definition, data)
        if data:
            from springtail.tools._arguments import unexpected_fields_error

            raise unexpected_fields_error(self.tool_definition, list(data))

    def _error(self, exc: ValueError, plan: _Plan) -> ToolExecutionError:
        from pydantic_core import ValidationError

        from springtail.tools._arguments import arguments_error

        if isinstance(exc, ValidationError):
            return arguments_error(self.tool_definition, exc, schema=plan.input_schema)
        return ToolExecutionError(self.tool_definition, exc)

    def _load(self) -> _Plan:
        plan = self._plan = _build_plan(self.name, self.fn, self._input_type, self._positional)
        return plan

    def __repr__(self) -> str:
        return f"FunctionToolCallback(name={self.name!r})"


def _positional_params(name: str, fn: Callable[..., Any]) -> list[inspect.Parameter]:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"FunctionToolCallback {name!r}: cannot read fn's signature: {exc}"
        ) from exc
    params = [
        p for p in signature.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    required = [p for p in params if p.default is p.empty]
    if len(required) > 2:
        raise TypeError(
            f"FunctionToolCallback {name!r}: fn must take (input), (input, context) or nothing, "
            f"but it requires {len(required)} arguments; use @tool for functions with several "
            "parameters"
        )
    return params


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    target: Any = inspect.unwrap(fn)
    if not (inspect.isfunction(target) or inspect.ismethod(target)):
        target = getattr(target, "__call__", target)  # noqa: B004 - a callable object
    try:
        return typing.get_type_hints(target, include_extras=True)
    except Exception:  # unannotated or unresolvable: fall back to what was passed
        return {}


def _build_plan(
    name: str, fn: Callable[..., Any], input_type: Any, params: list[inspect.Parameter]
) -> _Plan:
    from pydantic import TypeAdapter

    from springtail.tools._schema import clean_schema

    hints = _hints(fn)
    context = next((p for p in params if is_context_type(hints.get(p.name))), None)
    others = [p for p in params if p is not context]
    input_param: inspect.Parameter | None = None
    if (
        others
        and others[0].kind in (others[0].POSITIONAL_ONLY, others[0].POSITIONAL_OR_KEYWORD)
        and (others[0].default is others[0].empty or input_type is not None)
    ):
        input_param, others = others[0], others[1:]
    if (
        context is None
        and input_param is not None
        and others
        and others[0].default is others[0].empty
        and others[0].name not in hints
    ):
        context, others = others[0], others[1:]  # fn(input, ctx) without annotations
    leftover = [p.name for p in others if p.default is p.empty]
    if leftover:
        raise TypeError(
            f"FunctionToolCallback {name!r}: fn's parameter {leftover[0]!r} would get no value; "
            "fn must take (input), (input, context) or nothing"
        )
    if input_param is not None and input_type is None:
        input_type = hints.get(input_param.name)
        if input_type is None:
            raise TypeError(
                f"FunctionToolCallback {name!r}: cannot tell the input type; annotate fn's "
                "first parameter or pass input_type=..."
            )
    if input_type is not None and input_param is None:
        raise TypeError(
            f"FunctionToolCallback {name!r}: input_type was given but fn takes no input parameter"
        )
    context_name = context.name if context is not None else None
    context_positional = context is not None and context.kind is context.POSITIONAL_ONLY
    if input_type is None:
        return _Plan(
            input_schema=dict(_EMPTY_OBJECT),
            validate_json=None,
            allowed=None,
            context_name=context_name,
            context_positional=context_positional,
            return_type=hints.get("return"),
        )
    adapter: TypeAdapter[Any] = TypeAdapter(input_type)
    schema = clean_schema(adapter.json_schema())
    return _Plan(
        input_schema=schema,
        validate_json=adapter.validator.validate_json,
        allowed=None if _forbids_extra(input_type) else frozenset(schema.get("properties", {})),
        context_name=context_name,
        context_positional=context_positional,
        return_type=hints.get("return"),
    )


def _forbids_extra(input_type: Any) -> bool:
    config = getattr(input_type, "model_config", None) or getattr(
        input_type, "__pydantic_config__", None
    )
    return isinstance(config, Mapping) and config.get("extra") == "forbid"


def _load_schema(name: str, schema: Mapping[str, Any] | str | None) -> dict[str, Any] | None:
    if schema is None:
        return None
    if isinstance(schema, str):
        import json

        try:
            loaded = json.loads(schema)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"FunctionToolCallback {name!r}: input_schema is not valid JSON: {exc}"
            ) from exc
    else:
        loaded = dict(schema)
    if not isinstance(loaded, dict) or not loaded:
        raise ValueError(f"FunctionToolCallback {name!r}: input_schema must be a non-empty object")
    return loaded


def _doc_description(fn: Any) -> str | None:
    from springtail.tools._docstring import parse_docstring

    return parse_docstring(fn).description


class FunctionToolCallbackBuilder:
    """Collects the options of a ``FunctionToolCallback`` step by step."""

    __slots__ = ("_fn", "_name", "_options")

    def __init__(self, name: str, fn: Callable[..., Any]) -> None:
        self._name = name
        self._fn = fn
        self._options: dict[str, Any] = {}

    def description(self, description: str) -> FunctionToolCallbackBuilder:
        """What the model is told the tool does."""
        self._options["description"] = description
        return self

    def input_type(self, input_type: Any) -> FunctionToolCallbackBuilder:
        """The type the arguments are validated into."""
        self._options["input_type"] = input_type
        return self

    def input_schema(self, input_schema: Mapping[str, Any] | str) -> FunctionToolCallbackBuilder:
        """A hand-written JSON Schema sent to the model instead of the generated one."""
        self._options["input_schema"] = input_schema
        return self

    def tool_metadata(self, tool_metadata: ToolMetadata) -> FunctionToolCallbackBuilder:
        """How the tool loop treats the tool."""
        self._options["tool_metadata"] = tool_metadata
        return self

    def result_converter(self, converter: ToolCallResultConverter) -> FunctionToolCallbackBuilder:
        """How the result becomes text."""
        self._options["result_converter"] = converter
        return self

    def build(self) -> FunctionToolCallback:
        """The callback."""
        return FunctionToolCallback(self._name, self._fn, **self._options)
