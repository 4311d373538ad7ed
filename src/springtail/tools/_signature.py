"""Compile a Python signature into a tool's schema and argument validator.

Everything a call needs is worked out here, once per tool: the JSON Schema,
a pydantic validator that turns the model's JSON straight into keyword
arguments, which parameters receive ``None`` when left out, and which one
receives the ``ToolContext``. The per-call path then does no reflection.

The arguments are described to pydantic as a ``TypedDict`` rather than a
model: validation then yields a plain dict of exactly the fields the model
sent (so the function's own defaults apply to the rest), and parameter names
such as ``json``, ``copy`` or ``model_config`` cannot clash with
``BaseModel`` attributes.
"""

from __future__ import annotations

import contextlib
import inspect
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Union

from springtail.tools._context import ToolContext
from springtail.tools._docstring import DocInfo, parse_docstring
from springtail.tools._param import Param

__all__ = ["CompiledSignature", "compile_signature", "is_context_type"]


@dataclass(frozen=True, slots=True)
class CompiledSignature:
    """What the per-call path needs, computed once."""

    input_schema: dict[str, Any]
    validate_json: Any  # pydantic SchemaValidator.validate_json
    fill: tuple[tuple[str, Any], ...]  # (name, value) for fields the model may leave out
    context_param: str | None
    return_type: Any
    doc: DocInfo


def is_context_type(annotation: Any) -> bool:
    """Whether a parameter annotated like this receives the ``ToolContext``.

    ``ToolContext | None`` counts too: a context is always passed.
    """
    base = _strip_annotated(annotation)
    origin = typing.get_origin(base)
    if origin is Union or origin is types.UnionType:
        members = [a for a in typing.get_args(base) if a is not type(None)]
        return len(members) == 1 and is_context_type(members[0])
    return isinstance(base, type) and issubclass(base, ToolContext)


def compile_signature(
    fn: Any, *, name: str, skip_first: bool, localns: dict[str, Any] | None = None
) -> CompiledSignature:
    """Compile ``fn``'s parameters (minus ``self``/``cls`` when ``skip_first``).

    Raises:
        TypeError: the signature cannot be a tool (``*args``/``**kwargs``,
            positional-only parameters, unresolvable type hints).
    """
    from typing import NotRequired, Required

    from pydantic import ConfigDict, Field, TypeAdapter
    from pydantic.fields import FieldInfo
    from pydantic_core import PydanticUndefined, to_jsonable_python
    from typing_extensions import TypedDict

    target = inspect.unwrap(fn)
    signature = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(target, localns=localns, include_extras=True)
    except Exception as exc:  # NameError for unknown names, TypeError for bad ones
        raise TypeError(f"tool {name!r}: cannot resolve the type hints of {fn!r}: {exc}") from exc
    params = list(signature.parameters.values())
    if skip_first:
        params = params[1:]

    doc = parse_docstring(target)
    fields: dict[str, Any] = {}
    defaults: dict[str, Any] = {}
    fill: list[tuple[str, Any]] = []
    context_param: str | None = None
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(
                f"tool {name!r}: parameter {p.name!r} is *args/**kwargs; a tool's parameters "
                "must be named so the model knows what to send"
            )
        if p.kind is p.POSITIONAL_ONLY:
            raise TypeError(
                f"tool {name!r}: parameter {p.name!r} is positional-only; tool arguments are "
                "passed by name"
            )
        annotation = hints.get(p.name, Any)
        if is_context_type(annotation):
            context_param = p.name
            continue
        base, metadata = _split_annotated(annotation)
        param = next((m for m in metadata if isinstance(m, Param)), None)
        text = next((m for m in metadata if isinstance(m, str)), None)
        kept = [m for m in metadata if not isinstance(m, Param | str)]
        default = p.default
        default_field: str | None = None
        if isinstance(default, FieldInfo):  # `x: int = Field(3, description=..., gt=0)`
            kept.extend(default.metadata)  # its constraints
            default_field = default.description
            default = default.get_default(call_default_factory=True)
            if default is PydanticUndefined:
                default = p.empty
            else:
                fill.append((p.name, default))  # Python would pass the FieldInfo itself
        description = (
            (param.description if param else None)
            or text
            or _field_description(kept)
            or default_field
            or doc.params.get(p.name)
        )
        has_default = default is not p.empty
        if param is not None and param.required is not None:
            required = param.required
        else:
            required = not has_default and not _admits_none(base)
        if not required and not has_default:
            fill.append((p.name, None))
        if has_default and not required:
            # A default the model cannot be shown is simply not shown.
            with contextlib.suppress(Exception):
                defaults[p.name] = to_jsonable_python(default)
        if description:
            kept.append(Field(description=description))
        typ = Annotated[(base, *kept)] if kept else base
        fields[p.name] = Required[typ] if required else NotRequired[typ]

    make_typed_dict: Any = TypedDict  # built at run time from the signature
    arguments: Any = make_typed_dict(f"{_safe(name)}_arguments", fields)
    arguments.__pydantic_config__ = ConfigDict(extra="forbid")
    adapter = TypeAdapter(arguments)
    from springtail.tools._schema import clean_schema

    schema = clean_schema(adapter.json_schema())
    for pname, value in defaults.items():
        prop = schema["properties"].get(pname)
        if isinstance(prop, dict):
            prop["default"] = value
    return CompiledSignature(
        input_schema=schema,
        validate_json=adapter.validator.validate_json,
        fill=tuple((n, v) for n, v in fill if v is not inspect.Parameter.empty),
        context_param=context_param,
        return_type=hints.get("return"),
        doc=doc,
    )


def _safe(name: str) -> str:
    cleaned = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return cleaned if cleaned.isidentifier() else f"tool_{cleaned}"


def _strip_annotated(annotation: Any) -> Any:
    while typing.get_origin(annotation) is Annotated:
        annotation = annotation.__origin__
    return annotation


def _split_annotated(annotation: Any) -> tuple[Any, list[Any]]:
    metadata: list[Any] = []
    while typing.get_origin(annotation) is Annotated:
        metadata = [*annotation.__metadata__, *metadata]
        annotation = annotation.__origin__
    return annotation, metadata


def _field_description(metadata: list[Any]) -> str | None:
    for item in reversed(metadata):
        description = getattr(item, "description", None)
        if isinstance(description, str) and description and type(item).__name__ == "FieldInfo":
            return description
    return None


def _admits_none(annotation: Any) -> bool:
    """Whether ``None`` is a valid value of the type (``Any`` deliberately is not)."""
    if annotation is None or annotation is type(None):
        return True
    origin = typing.get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        return any(_admits_none(_strip_annotated(a)) for a in typing.get_args(annotation))
    if origin is typing.Literal:
        return None in typing.get_args(annotation)
    return False
