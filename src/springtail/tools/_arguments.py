"""Explain invalid tool arguments in words a model can act on.

A model that sent bad arguments gets one more chance, and all it has is the
error text. So the message names every bad field with what was expected,
described from the same JSON Schema the model was given, rather than
pydantic's developer-facing wording (``Input should be a valid integer,
unable to parse string as an integer [type=int_parsing...]``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from springtail.tools._errors import ToolArgumentsError

if TYPE_CHECKING:
    from pydantic_core import ValidationError

    from springtail.tools._definition import ToolDefinition

__all__ = [
    "arguments_error",
    "not_an_object_error",
    "not_valid_json_error",
    "unexpected_fields_error",
]

_REF_PREFIX = "#/$defs/"
_MAX_SHOWN = 60
# Error types that mean "wrong kind of value": described from the schema.
_TYPE_ERRORS = frozenset(
    {
        "literal_error",
        "enum",
        "int_from_float",
        "union_tag_invalid",
        "union_tag_not_found",
        "is_instance_of",
        "none_required",
        "decimal_parsing",
        "decimal_type",
        "date_from_datetime_inexact",
        "date_from_datetime_parsing",
        "datetime_from_date_parsing",
    }
)
_SHOULD = re.compile(
    r"^(?:Input|String|Value|List|Dictionary|Tuple|Set|Object|Decimal|Data)\s+should\s+"
)


def arguments_error(
    definition: ToolDefinition,
    error: ValidationError | None,
    *,
    schema: Mapping[str, Any] | None = None,
    extra_fields: Mapping[str, Any] | None = None,
) -> ToolArgumentsError:
    """Build the ``ToolArgumentsError`` for a pydantic ``ValidationError``.

    ``extra_fields`` are unknown top-level fields found outside pydantic (for
    input types whose own configuration ignores them).
    """
    schema = definition.input_schema if schema is None else schema
    problems: list[str] = []
    seen: set[tuple[str, str]] = set()
    items: list[Any] = list(error.errors(include_url=False)) if error is not None else []
    for field_name, value in (extra_fields or {}).items():
        items.append({"type": "extra_forbidden", "loc": (field_name,), "input": value})
    for item in items:
        problem, key = _describe(item, schema)
        if key in seen:
            continue
        seen.add(key)
        problems.append(problem)
    cause: BaseException = error if error is not None else ValueError("; ".join(problems))
    return _error(definition, problems, cause)


def not_valid_json_error(
    definition: ToolDefinition, error: BaseException, schema: Mapping[str, Any]
) -> ToolArgumentsError:
    """The arguments are not JSON at all."""
    hint = _fields_hint(schema, ", expected an object")
    problem = f"the arguments are not valid JSON ({error}){hint}"
    return _error(definition, [problem], error)


def unexpected_fields_error(definition: ToolDefinition, names: Sequence[str]) -> ToolArgumentsError:
    """A tool that takes no arguments was sent some."""
    problems = [f"unexpected field '{n}' (this tool takes no arguments; send {{}})" for n in names]
    return _error(definition, problems, ValueError("; ".join(problems)))


def not_an_object_error(definition: ToolDefinition, value: Any) -> ToolArgumentsError:
    """The arguments parsed as JSON but are not an object."""
    problem = f"the arguments must be a JSON object{_fields_hint(definition.input_schema)}" + (
        f", not {_json_kind(value)}"
    )
    return _error(definition, [problem], ValueError(problem))


def _error(
    definition: ToolDefinition, problems: Sequence[str], cause: BaseException
) -> ToolArgumentsError:
    name = definition.name
    message = (
        f"Invalid arguments for tool '{name}': {'; '.join(problems)}. "
        f"Call '{name}' again with corrected arguments."
    )
    return ToolArgumentsError(definition, message, errors=tuple(problems), cause=cause)


def _describe(item: Any, schema: Mapping[str, Any]) -> tuple[str, tuple[str, str]]:
    kind: str = item["type"]
    loc: tuple[Any, ...] = tuple(item["loc"])
    if kind == "json_invalid":
        detail = (item.get("ctx") or {}).get("error", "")
        text = "the arguments are not valid JSON" + (f" ({detail})" if detail else "")
        return text + _fields_hint(schema, ", expected an object"), ("", kind)
    path, node, parent = _resolve(schema, loc)
    if not path and (kind.endswith("_type") or kind.endswith("_parsing")):
        text = f"the arguments must be a JSON object{_fields_hint(schema)}"
        return f"{text}, not {_json_kind(item.get('input'))}", ("", "root")
    if kind == "missing":
        return f"'{path}' is required but missing", (path, kind)
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):
        allowed = list((_deref(schema, parent) or {}).get("properties", {}))
        hint = f"allowed: {', '.join(allowed)}" if allowed else "this takes no fields"
        return f"unexpected field '{path}' ({hint})", (path, kind)
    got = _shown(item.get("input"))
    if kind in _TYPE_ERRORS or kind.endswith("_type") or kind.endswith("_parsing"):
        expected = _expected(schema, node) if node is not None else None
        if expected:
            return f"'{path}' must be {expected} (got {got})", (path, "type")
    msg: str = item.get("msg", "is invalid")
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            return f"'{path}' is invalid: {msg[len(prefix) :]} (got {got})", (path, msg)
    rewritten = _SHOULD.sub("must ", msg)
    if rewritten == msg:
        rewritten = "is invalid: " + msg[:1].lower() + msg[1:]
    return f"'{path}' {rewritten} (got {got})", (path, msg)


def _resolve(schema: Mapping[str, Any], loc: tuple[Any, ...]) -> tuple[str, Any, Any]:
    """Follow an error location through the schema.

    Returns the field path as the model knows it ("items[0].sku"), the schema
    node at that path (``None`` when unknown) and its parent object node.
    Union member tags that pydantic adds to locations ("int", "Item") name no
    field and are dropped from the path.
    """
    path = ""
    node: Any = schema
    parent: Any = None
    for element in loc:
        current = _deref(schema, node)
        if isinstance(element, int):
            path += f"[{element}]"
            parent = current
            node = current.get("items") if isinstance(current, dict) else None
            continue
        name = str(element)
        target = _property(schema, current, name)
        if target is not None:
            parent, node = target
            path = f"{path}.{name}" if path else name
        elif isinstance(current, dict) and isinstance(current.get("additionalProperties"), dict):
            parent, node = current, current["additionalProperties"]
            path = f"{path}.{name}" if path else name
        elif isinstance(current, dict) and "properties" in current:
            parent, node = current, None  # a field the schema does not know
            path = f"{path}.{name}" if path else name
        # else: a union member tag; the path stays where it is
    return path, node, parent


def _property(schema: Mapping[str, Any], node: Any, name: str) -> tuple[Any, Any] | None:
    if not isinstance(node, dict):
        return None
    props = node.get("properties")
    if isinstance(props, dict) and name in props:
        return node, props[name]
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in node.get(key, ()):
            found = _property(schema, _deref(schema, branch), name)
            if found is not None:
                return found
    return None


def _deref(schema: Mapping[str, Any], node: Any) -> Any:
    for _ in range(32):
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if not (isinstance(ref, str) and ref.startswith(_REF_PREFIX)):
            return node
        node = schema.get("$defs", {}).get(ref[len(_REF_PREFIX) :])
    return node


def _expected(schema: Mapping[str, Any], node: Any, depth: int = 0) -> str | None:
    node = _deref(schema, node)
    if not isinstance(node, dict):
        return None
    if "enum" in node:
        return "one of " + ", ".join(_shown(v) for v in node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            types = {b.get("type") for b in node[key] if isinstance(b, dict)}
            if types == {"number", "string"}:
                return "a number or a numeric string"
            parts = [_expected(schema, b, depth + 1) for b in node[key]]
            unique = list(dict.fromkeys(p for p in parts if p))
            return " or ".join(unique) or None
    kind = node.get("type")
    if isinstance(kind, list):
        parts = [_expected(schema, {**node, "type": k}, depth + 1) for k in kind]
        return " or ".join(p for p in parts if p) or None
    if kind == "string":
        fmt = node.get("format")
        if fmt == "date":
            return "a date string like '2025-01-31'"
        if fmt == "date-time":
            return "a date-time string like '2025-01-31T14:30:00'"
        if fmt == "time":
            return "a time string like '14:30:00'"
        if fmt == "duration":
            return "an ISO 8601 duration string like 'PT1H30M'"
        if fmt == "uuid":
            return "a UUID string"
        return "a string"
    if kind == "integer":
        return "an integer"
    if kind == "number":
        return "a number"
    if kind == "boolean":
        return "true or false"
    if kind == "null":
        return "null"
    if kind == "array":
        items = node.get("items")
        inner = _expected(schema, items, depth + 1) if items and depth < 2 else None
        return f"an array of {_plural(inner)}" if inner else "an array"
    if kind == "object" or "properties" in node:
        return "an object" + _fields_hint(node)
    return None


_PLURALS = {
    "an integer": "integers",
    "a number": "numbers",
    "a string": "strings",
    "true or false": "booleans (true or false)",
    "an object": "objects",
}


def _plural(text: str) -> str:
    if text in _PLURALS:
        return _PLURALS[text]
    if text.startswith("an object "):
        return "objects " + text[len("an object ") :]
    return f"items that are each {text}"


def _fields_hint(schema: Mapping[str, Any], lead: str = "") -> str:
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not props:
        return lead
    return f"{lead} with fields {', '.join(props)}"


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    return "a " + type(value).__name__


def _shown(value: Any) -> str:
    if isinstance(value, str):
        text = value if len(value) <= _MAX_SHOWN else value[:_MAX_SHOWN] + "…"
        return f"'{text}'"
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # a circular structure, an int too long to print
        text = f"a {type(value).__name__} value"
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "…"
