"""``tool_callbacks()``: turn objects, functions and callbacks into one tool list."""

from __future__ import annotations

import contextlib
import inspect
import weakref
from typing import Any

from springtail.tools._callback import ToolCallback
from springtail.tools._decorator import ToolSpec, spec_of
from springtail.tools._function import FunctionToolCallback
from springtail.tools._method import MethodToolCallback

__all__ = ["tool_callbacks"]

# kind of member: "instance" (binds to the object), "class" (binds to its
# class) or "static" (no binding).
_ClassTools = tuple[tuple[str, ToolSpec, str], ...]
_class_tools: weakref.WeakKeyDictionary[type, _ClassTools] = weakref.WeakKeyDictionary()


def tool_callbacks(*sources: Any) -> list[ToolCallback]:
    """Collect the tools of ``sources`` into a list of callbacks.

    A source is an object (its ``@tool`` methods, inherited ones included,
    each once, bound to it), a class (its ``@tool`` static and class
    methods), a ``@tool`` function or bound method, a ``ToolCallback``, or a
    list/tuple of these.

    Raises:
        ValueError: a source holds no tools, or two tools share a name; the
            message names every culprit.
    """
    callbacks: list[ToolCallback] = []
    owners: dict[str, list[str]] = {}
    problems: list[str] = []
    for source in _flatten(sources):
        for callback, where in _callbacks_of(source, problems):
            owners.setdefault(callback.tool_definition.name, []).append(where)
            callbacks.append(callback)
    for tool_name, places in owners.items():
        if len(places) > 1:
            problems.append(
                f"tool name {tool_name!r} is used more than once (by {', '.join(places)})"
            )
    if problems:
        raise ValueError("Cannot collect tools: " + "; ".join(problems) + ".")
    return callbacks


def _flatten(sources: tuple[Any, ...]) -> list[Any]:
    flat: list[Any] = []
    for source in sources:
        if isinstance(source, list | tuple):
            flat.extend(_flatten(tuple(source)))
        else:
            flat.append(source)
    return flat


def _callbacks_of(source: Any, problems: list[str]) -> list[tuple[ToolCallback, str]]:
    if isinstance(source, MethodToolCallback | FunctionToolCallback):  # the common, fast case
        return [(source, _describe(source))]
    spec = spec_of(source)
    if spec is not None:
        if inspect.ismethod(source):  # a bound @tool method
            bound = _bind(spec, source, source.__self__, skip_first=True)
            return [(bound, _describe(source))]
        code = getattr(spec.fn, "__code__", None)
        if code is not None and code.co_argcount and code.co_varnames[0] == "self":
            problems.append(
                f"tool {spec.name!r} is a method taken from its class; pass the object "
                f"(or the bound method) so that it has a 'self'"
            )
            return []
        return [(_function_callback(spec), _describe(source))]
    if isinstance(source, str | bytes | int | float | bool) or source is None:
        problems.append(
            f"{source!r} is not a tool source (pass objects with @tool methods, @tool "
            "functions or ToolCallbacks)"
        )
        return []
    if inspect.isfunction(source) or inspect.ismethod(source) or inspect.isbuiltin(source):
        problems.append(
            f"function {getattr(source, '__qualname__', source)!r} is not a tool (decorate it "
            "with @tool or wrap it in FunctionToolCallback)"
        )
        return []
    is_class = isinstance(source, type)
    members = _tools_of_class(source if is_class else type(source))
    if not members:
        # Checked after the @tool members: a runtime Protocol check is slow.
        if not is_class and isinstance(source, ToolCallback):
            return [(source, _describe(source))]
        problems.append(f"{_describe(source)} has no @tool methods")
        return []
    found: list[tuple[ToolCallback, str]] = []
    owner_name = source.__qualname__ if is_class else type(source).__qualname__
    for attr, spec, kind in members:
        if is_class and kind == "instance":
            problems.append(
                f"tool {spec.name!r} of class {source.__qualname__} is an instance method; "
                f"pass an instance of {source.__qualname__}, not the class"
            )
            continue
        target = getattr(source, attr)
        callback = _bind(spec, target, source, skip_first=kind != "static")
        found.append((callback, f"{owner_name}.{attr}"))
    return found


def _tools_of_class(cls: type) -> _ClassTools:
    cached = _class_tools.get(cls)
    if cached is not None:
        return cached
    seen: set[str] = set()
    members: list[tuple[str, ToolSpec, str]] = []
    for klass in cls.__mro__:
        for attr, value in vars(klass).items():
            if attr in seen:
                continue
            seen.add(attr)  # the most derived definition decides, @tool or not
            spec = spec_of(value)
            if spec is None:
                continue
            if isinstance(value, staticmethod):
                kind = "static"
            elif isinstance(value, classmethod):
                kind = "class"
            else:
                kind = "instance"
            members.append((attr, spec, kind))
    result = tuple(members)
    with contextlib.suppress(TypeError):  # a class without weak references: not cached
        _class_tools[cls] = result
    return result


def _bind(spec: ToolSpec, target: Any, owner: object, *, skip_first: bool) -> MethodToolCallback:
    return MethodToolCallback._lazy(
        definition_factory=lambda: spec.definition(skip_first),
        compile_=lambda: spec.compiled(skip_first),
        fn=spec.fn,
        target=target,
        tool_object=owner if skip_first else None,
        metadata=spec.metadata,
        converter=spec.result_converter,
    )


def _function_callback(spec: ToolSpec) -> MethodToolCallback:
    # A plain @tool function's callback holds no per-use state: one is shared.
    callback = spec.shared_callback
    if not isinstance(callback, MethodToolCallback):
        callback = spec.shared_callback = _bind(spec, spec.fn, None, skip_first=False)
    return callback


def _describe(source: Any) -> str:
    if isinstance(source, type):
        return f"class {source.__qualname__}"
    if inspect.isfunction(source) or inspect.ismethod(source):
        return f"function {source.__qualname__}"
    if isinstance(source, ToolCallback):
        return f"{type(source).__name__} {source.tool_definition.name!r}"
    return f"object of type {type(source).__qualname__}"
