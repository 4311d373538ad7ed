"""A tool backed by a Python function or method, arguments by name."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from springtail.tools._context import ToolContext
from springtail.tools._converter import DefaultToolCallResultConverter, ToolCallResultConverter
from springtail.tools._decorator import spec_of
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
from springtail.tools._signature import CompiledSignature, compile_signature

__all__ = ["MethodToolCallback"]

_DEFAULT_CONVERTER = DefaultToolCallResultConverter()


class MethodToolCallback:
    """Expose a function or method as a tool, each parameter a field of the input.

    This is what ``@tool`` builds; construct it yourself to give a function a
    definition written by hand (the schema sent to the model) while springtail
    still validates the arguments against the function's signature.

    Args:
        tool_definition: What the model is told about the tool.
        tool_method: The function, method or bound method to run.
        tool_object: The instance (or class) to bind an unbound method to.
        tool_metadata: How the tool loop treats the tool.
        result_converter: How the result becomes text; default
            [`DefaultToolCallResultConverter`][].
    """

    __slots__ = (
        "_compile",
        "_compiled",
        "_converter",
        "_definition",
        "_definition_factory",
        "_is_async",
        "_metadata",
        "_target",
        "tool_method",
        "tool_object",
    )

    def __init__(
        self,
        *,
        tool_definition: ToolDefinition,
        tool_method: Callable[..., Any],
        tool_object: object | None = None,
        tool_metadata: ToolMetadata | None = None,
        result_converter: ToolCallResultConverter | None = None,
    ) -> None:
        if not isinstance(tool_definition, ToolDefinition):
            raise TypeError(
                f"tool_definition must be a ToolDefinition, got {type(tool_definition).__name__}"
            )
        fn: Any = tool_method
        if isinstance(fn, staticmethod | classmethod):
            fn = fn.__func__
        if not callable(fn):
            raise TypeError(f"tool_method must be callable, got {fn!r}")
        skip_first = False
        target = fn
        if inspect.ismethod(fn):
            tool_object = fn.__self__ if tool_object is None else tool_object
            fn = fn.__func__
            target = fn.__get__(tool_object)
            skip_first = True
        elif tool_object is not None:
            target = fn.__get__(tool_object) if hasattr(fn, "__get__") else fn
            skip_first = True
        spec = spec_of(fn)
        self._init(
            definition=tool_definition,
            definition_factory=None,
            compile_=(  # a @tool function's compiled signature is shared, not rebuilt
                (lambda: spec.compiled(skip_first))
                if spec is not None
                else (
                    lambda: compile_signature(fn, name=tool_definition.name, skip_first=skip_first)
                )
            ),
            fn=fn,
            target=target,
            tool_object=tool_object,
            metadata=tool_metadata,
            converter=result_converter,
        )

    @classmethod
    def _lazy(
        cls,
        *,
        definition_factory: Callable[[], ToolDefinition],
        compile_: Callable[[], CompiledSignature],
        fn: Callable[..., Any],
        target: Callable[..., Any],
        tool_object: object | None,
        metadata: ToolMetadata,
        converter: ToolCallResultConverter | None,
    ) -> MethodToolCallback:
        """A callback whose definition and schema are built on first use (``@tool``)."""
        self = cls.__new__(cls)
        self._init(
            definition=None,
            definition_factory=definition_factory,
            compile_=compile_,
            fn=fn,
            target=target,
            tool_object=tool_object,
            metadata=metadata,
            converter=converter,
        )
        return self

    def _init(
        self,
        *,
        definition: ToolDefinition | None,
        definition_factory: Callable[[], ToolDefinition] | None,
        compile_: Callable[[], CompiledSignature],
        fn: Callable[..., Any],
        target: Callable[..., Any],
        tool_object: object | None,
        metadata: ToolMetadata | None,
        converter: ToolCallResultConverter | None,
    ) -> None:
        self._definition = definition
        self._definition_factory = definition_factory
        self._compile = compile_
        self._compiled: CompiledSignature | None = None
        self._target = target
        self._is_async = is_async_callable(fn)
        self._metadata = with_is_async(metadata, self._is_async)
        self._converter = converter if converter is not None else _DEFAULT_CONVERTER
        self.tool_method = fn
        self.tool_object = tool_object

    @property
    def tool_definition(self) -> ToolDefinition:
        """The definition; for ``@tool`` tools built on first access, then cached."""
        definition = self._definition
        if definition is None:
            assert self._definition_factory is not None
            definition = self._definition = self._definition_factory()
        return definition

    @property
    def tool_metadata(self) -> ToolMetadata:
        """How the tool loop treats this tool."""
        return self._metadata

    @property
    def is_async(self) -> bool:
        """True when the function is ``async def``: the manager awaits it on the loop."""
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
        """Run the tool from sync code (an ``async def`` tool runs to completion)."""
        compiled = self._compiled or self._load()
        kwargs = self._arguments(compiled, tool_input, tool_context)
        definition = self.tool_definition
        if self._is_async:
            from springtail._sync import run_sync as block_on  # deferred: loads asyncio

            result = block_on(run_async(definition, self._target, (), kwargs))
        else:
            result = run_sync(definition, self._target, (), kwargs)
        return convert(definition, self._converter, result, compiled.return_type)

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        """Run the tool from async code; a sync tool runs in a worker thread."""
        compiled = self._compiled or self._load()
        kwargs = self._arguments(compiled, tool_input, tool_context)
        definition = self.tool_definition
        if self._is_async:
            result = await run_async(definition, self._target, (), kwargs)
        else:
            result = await run_in_thread(definition, self._target, (), kwargs)
        return convert(definition, self._converter, result, compiled.return_type)

    def _load(self) -> CompiledSignature:
        compiled = self._compiled = self._compile()
        return compiled

    def _arguments(
        self, compiled: CompiledSignature, tool_input: str, tool_context: ToolContext | None
    ) -> dict[str, Any]:
        if not tool_input or tool_input.isspace():
            tool_input = "{}"
        try:
            kwargs: dict[str, Any] = compiled.validate_json(tool_input)
        except ValueError as exc:  # pydantic_core.ValidationError is a ValueError
            raise _arguments_error(self.tool_definition, exc, compiled.input_schema) from exc
        for name, value in compiled.fill:
            if name not in kwargs:
                kwargs[name] = value
        if compiled.context_param is not None:
            kwargs[compiled.context_param] = as_context(tool_context)
        return kwargs

    def __repr__(self) -> str:
        name = (
            self._definition.name
            if self._definition
            else getattr(self.tool_method, "__name__", "?")
        )
        return f"MethodToolCallback(name={name!r})"


def _arguments_error(
    definition: ToolDefinition, exc: ValueError, schema: dict[str, Any]
) -> ToolExecutionError:
    from pydantic_core import ValidationError

    from springtail.tools._arguments import arguments_error

    if isinstance(exc, ValidationError):
        return arguments_error(definition, exc, schema=schema)
    return ToolExecutionError(definition, exc)
