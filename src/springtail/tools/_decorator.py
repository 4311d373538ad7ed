"""``@tool``: mark a function or method as something the model may call.

The decorator only records what it was told and returns the function
unchanged, so decorated code stays plain Python: callable, testable and
picklable as before. The schema and validator are built on first use and
cached on the record, shared by every instance of a class.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, TypeVar, overload

from springtail.tools._converter import ToolCallResultConverter
from springtail.tools._definition import ToolDefinition, ToolMetadata
from springtail.tools._signature import CompiledSignature, compile_signature

__all__ = ["TOOL_ATTRIBUTE", "ToolSpec", "check_tool_name", "spec_of", "tool"]

TOOL_ATTRIBUTE = "__springtail_tool__"
_PORTABLE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")

F = TypeVar("F", bound=Callable[..., Any])


def check_tool_name(name: str) -> str:
    """Reject an empty name; warn about one some providers will refuse."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a tool name must be a non-empty string, got {name!r}")
    if not _PORTABLE_NAME.match(name):
        import logging  # deferred: only an odd name needs it

        logging.getLogger("springtail.tools").warning(
            "Tool name %r is outside ^[A-Za-z0-9_.-]{1,64}$; some model providers reject such "
            "names. Pass @tool(name=...) to choose a portable one.",
            name,
        )
    return name


class ToolSpec:
    """What ``@tool`` recorded about one function, plus its cached compiled forms.

    ``skip_first`` tells a method (whose ``self``/``cls`` is not an argument)
    from a plain or static function; a function may be used both ways, so
    each form is cached separately.
    """

    __slots__ = (
        "_compiled",
        "_definitions",
        "description",
        "fn",
        "localns",
        "metadata",
        "name",
        "result_converter",
        "shared_callback",
    )

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str,
        description: str | None,
        metadata: ToolMetadata,
        result_converter: ToolCallResultConverter | None,
        localns: dict[str, Any] | None = None,
    ) -> None:
        self.fn = fn
        self.localns = localns
        self.name = name
        self.description = description
        self.metadata = metadata
        self.result_converter = result_converter
        self._compiled: dict[bool, CompiledSignature] = {}
        self._definitions: dict[bool, ToolDefinition] = {}
        self.shared_callback: Any = None  # the one callback of a plain function, see _collect

    def compiled(self, skip_first: bool) -> CompiledSignature:
        """Schema and validator for this use of the function, built once."""
        compiled = self._compiled.get(skip_first)
        if compiled is None:
            compiled = compile_signature(
                self.fn, name=self.name, skip_first=skip_first, localns=self.localns
            )
            self._compiled[skip_first] = compiled
        return compiled

    def definition(self, skip_first: bool) -> ToolDefinition:
        """The definition sent to the model, built once."""
        definition = self._definitions.get(skip_first)
        if definition is None:
            compiled = self.compiled(skip_first)
            description = (
                self.description or compiled.doc.description or self.name.replace("_", " ")
            )
            definition = ToolDefinition(self.name, description, compiled.input_schema)
            self._definitions[skip_first] = definition
        return definition

    def __repr__(self) -> str:
        return f"ToolSpec(name={self.name!r})"


def spec_of(obj: Any) -> ToolSpec | None:
    """The ``@tool`` record of a function, method, static or class method."""
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    spec = getattr(obj, TOOL_ATTRIBUTE, None)
    return spec if isinstance(spec, ToolSpec) else None


@overload
def tool(fn: F) -> F: ...


@overload
def tool(
    fn: None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    return_direct: bool = False,
    result_converter: ToolCallResultConverter | None = None,
    timeout: float | None = None,
    requires_approval: bool = False,
    idempotent: bool = False,
) -> Callable[[F], F]: ...


def tool(
    fn: Any = None,
    *,
    name: str | None = None,
    description: str | None = None,
    return_direct: bool = False,
    result_converter: ToolCallResultConverter | None = None,
    timeout: float | None = None,
    requires_approval: bool = False,
    idempotent: bool = False,
) -> Any:
    """Declare a function, method, static method or ``async def`` as a tool.

    Use it bare (``@tool``) or with arguments (``@tool(name=...)``). The
    function is returned unchanged, with the tool's facts attached, so it
    stays callable as before; hand it (or an object whose methods carry it)
    to ``tool_callbacks()``, a ``ChatClient`` or a request.

    Args:
        fn: The function, when used bare.
        name: The tool's name; default the function's ``__name__``.
        description: What the model is told the tool does; default the
            docstring, else the name with underscores as spaces.
        return_direct: Hand the result to the caller instead of the model.
        result_converter: ``(result, return_type) -> str``; default
            [`DefaultToolCallResultConverter`][].
        timeout: Seconds one run may take; ``None`` uses the manager's default.
        requires_approval: Ask the manager's approver before each run.
        idempotent: Running the tool twice with the same arguments does no
            more than running it once; a durable turn may then retry a call
            that a crash interrupted (see ``springtail.durable``).
    """
    if name is not None:
        check_tool_name(name)
    if description is not None and not description.strip():
        raise ValueError(
            "@tool(description=...) must not be blank; leave it out to use the docstring"
        )
    if result_converter is not None and not callable(result_converter):
        raise TypeError(f"result_converter must be callable, got {result_converter!r}")
    metadata = ToolMetadata(
        return_direct=bool(return_direct),
        timeout=timeout,
        requires_approval=bool(requires_approval),
        idempotent=bool(idempotent),
    )

    def decorate(target: Any, depth: int = 1) -> Any:
        func = target.__func__ if isinstance(target, staticmethod | classmethod) else target
        if isinstance(func, type) or not callable(func):
            raise TypeError(f"@tool decorates functions and methods, not {target!r}")
        tool_name = name if name is not None else check_tool_name(getattr(func, "__name__", ""))
        spec = ToolSpec(
            func,
            name=tool_name,
            description=description,
            metadata=metadata,
            result_converter=result_converter,
            localns=_caller_locals(depth),
        )
        setattr(func, TOOL_ATTRIBUTE, spec)
        return target

    if fn is not None:
        return decorate(fn, depth=2)
    return decorate


def _caller_locals(depth: int) -> dict[str, Any] | None:
    """The local names where ``@tool`` was applied, when that is not module level.

    With ``from __future__ import annotations`` a tool defined inside a
    function or class body may name types that exist only there; they are
    gone from any namespace once the schema is built lazily, so the
    decorator keeps a reference, as pydantic does for models.
    """
    try:
        frame = sys._getframe(depth + 1)  # + 1: the decorate() frame
    except ValueError:
        return None
    if frame.f_locals is frame.f_globals:
        return None
    return dict(frame.f_locals)
