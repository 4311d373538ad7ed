"""Tools as Python function stubs: how the embedded coder model reads what it may call.

A coder model has read far more Python than JSON Schema: shown
``def convert_units(value: float, from_unit: Literal["km", "mi"], ...) -> str``
with the description as its docstring, it writes a request's calls as a
short program (``r1 = ...`` then ``r2 = other(x=r1)``), which is what the
plan is made of (``_plan.py``). A stub is also about half the tokens of the
tool's JSON schema, so the first prompt is evaluated twice as fast.

The stubs carry what the schema says that a caller needs: parameter names in
schema order, their types (``Literal`` for enums, ``X | None = None`` for
optional ones, ``list[...]``, a ``TypedDict`` for a nested object), defaults,
and every description (in the docstring, after the tool's, in parentheses);
limits such as ``maximum`` stay in the grammar, which enforces them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from springtail.tools._definition import ToolDefinition

__all__ = ["id_example", "parameter_example", "tool_example", "tool_stubs"]

_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def tool_stubs(definitions: Sequence[ToolDefinition]) -> str:
    """The stubs of ``definitions``, in their order, one blank line apart."""
    return "\n\n".join(_Stub(d).text() for d in definitions)


class _Stub:
    """One tool's stub, with the ``TypedDict`` classes its nested objects need."""

    def __init__(self, definition: ToolDefinition) -> None:
        self.definition = definition
        self.schema: Mapping[str, Any] = definition.input_schema
        self.classes: list[str] = []
        self._class_names: set[str] = set()

    def text(self) -> str:
        properties: Mapping[str, Any] = self.schema.get("properties") or {}
        required = set(self.schema.get("required") or ())
        params: list[str] = []
        docs: list[str] = []
        for name, spec in properties.items():
            spec = self._resolved(spec)
            annotation = self.annotation(spec, name)
            if name in required:
                params.append(f"{name}: {annotation}")
            else:
                params.append(f"{name}: {annotation} = {_default(spec)}")
            description = _description(spec)
            if description:
                docs.append(f"{name}: {description}")
        doc = _one_line(self.definition.description)
        if docs:
            # Inline, in parentheses: the form measured (an Args section costs more tokens).
            doc += " (" + "; ".join(docs) + ")"
        head = f"def {self.definition.name}({', '.join(params)}) -> str:"
        body = f'    """{doc}"""'
        return "\n".join([*self.classes, f"{head}\n{body}"])

    def annotation(self, spec: Mapping[str, Any], name: str) -> str:
        """The Python type of a JSON schema, as a stub writes it."""
        spec = self._resolved(spec)
        if "enum" in spec:
            return "Literal[" + ", ".join(_literal(v) for v in spec["enum"]) + "]"
        if "const" in spec:
            return f"Literal[{_literal(spec['const'])}]"
        union = spec.get("anyOf") or spec.get("oneOf")
        if union:
            options = [self._resolved(s) for s in union]
            concrete = [s for s in options if s.get("type") != "null"]
            # Decimal is "a number or a numeric string": a caller writes a number.
            if {s.get("type") for s in concrete} == {"number", "string"}:
                concrete = [s for s in concrete if s.get("type") == "number"]
            parts = _unique(self.annotation(s, name) for s in concrete)
            if any(s.get("type") == "null" for s in options):
                parts.append("None")
            return " | ".join(parts) or "Any"
        kind = spec.get("type")
        if isinstance(kind, list):
            return " | ".join(_unique(self.annotation({**spec, "type": k}, name) for k in kind))
        if kind == "array":
            items = spec.get("items")
            return f"list[{self.annotation(items, name) if items else 'Any'}]"
        if kind == "object":
            if spec.get("properties"):
                return self._typed_dict(spec, name)
            values = spec.get("additionalProperties")
            if isinstance(values, Mapping):
                return f"dict[str, {self.annotation(values, name)}]"
            return "dict[str, Any]"
        return _SCALARS.get(str(kind), "Any")

    def _typed_dict(self, spec: Mapping[str, Any], name: str) -> str:
        base = "".join(p.capitalize() for p in re.split(r"[^A-Za-z0-9]+", name) if p) or "Item"
        class_name, n = base, 2
        while class_name in self._class_names:
            class_name, n = f"{base}{n}", n + 1
        self._class_names.add(class_name)
        required = set(spec.get("required") or ())
        lines = [f"class {class_name}(TypedDict):"]
        description = _description(spec)
        if description:
            lines.append(f'    """{description}"""')
        for field, field_spec in (spec.get("properties") or {}).items():
            field_spec = self._resolved(field_spec)
            annotation = self.annotation(field_spec, field)
            if field not in required:
                annotation = f"NotRequired[{annotation}]"
            comment = _description(field_spec)
            lines.append(f"    {field}: {annotation}" + (f"  # {comment}" if comment else ""))
        self.classes.append("\n".join(lines))
        return class_name

    def _resolved(self, spec: Any) -> Mapping[str, Any]:
        """``spec`` with a local ``$ref`` followed (nested models live under ``$defs``)."""
        if not isinstance(spec, Mapping):
            return {}
        ref = spec.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            node: Any = self.schema
            for part in ref[2:].split("/"):
                node = node.get(part) if isinstance(node, Mapping) else None
            if isinstance(node, Mapping):
                return {**node, **{k: v for k, v in spec.items() if k != "$ref"}}
        return spec


def _description(spec: Mapping[str, Any]) -> str:
    description = spec.get("description")
    if not isinstance(description, str) or not description.strip():
        return ""
    text = _one_line(description)
    if spec.get("format") == "date" and "YYYY" not in text:
        text += " (YYYY-MM-DD)"
    return text


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace('"""', "'''")


def _default(spec: Mapping[str, Any]) -> str:
    if "default" not in spec:
        return "None"
    return _literal(spec["default"])


def _literal(value: Any) -> str:
    """A JSON value as Python source (``True``, ``None``, strings in double quotes)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _unique(items: Any) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


_EXAMPLE = re.compile(r"e\.g\.\s*([^\s,;)]+)")


def parameter_example(spec: Mapping[str, Any]) -> str | None:
    """A parameter's example as text: the schema's ``examples``, or its description's ``e.g.``."""
    examples = spec.get("examples")
    if isinstance(examples, list) and examples and not isinstance(examples[0], Mapping | list):
        return str(examples[0])
    match = _EXAMPLE.search(str(spec.get("description") or ""))
    return match.group(1).rstrip(".") if match else None


def id_example(spec: Any) -> str | None:
    """A parameter's example when it has digits (``P-101``): the parameter takes an id."""
    example = parameter_example(spec) if isinstance(spec, Mapping) else None
    return example if example is not None and any(c.isdigit() for c in example) else None


def tool_example(definitions: Sequence[ToolDefinition]) -> str | None:
    """A two-line plan over two of ``definitions`` that passes a result on, or ``None``.

    A demonstration built from the application's own tools (the tools
    section's generic ``r1 = function_name(...)`` otherwise): a tool, then a
    second tool that shares one of its required parameters and takes the
    first one's result in another, each value taken from the schema (an
    enum's first value, or the ``e.g.`` of a description). No pair, or a
    value the schema does not give, means no example.
    """
    for first in definitions:
        first_values = _example_values(first)
        if not first_values:
            continue
        for second in definitions:
            if second is first:
                continue
            required = list(second.input_schema.get("required") or ())
            shared = [p for p in required if p in first_values]
            free = [p for p in required if p not in first_values]
            if not shared or len(free) != 1:
                continue
            first_line = ", ".join(f"{p}={v}" for p, v in first_values.items())
            arguments = [f"{p}={first_values[p]}" if p in shared else f"{p}=r1" for p in required]
            return f"r1 = {first.name}({first_line})\nr2 = {second.name}({', '.join(arguments)})"
    return None


def _example_values(definition: ToolDefinition) -> dict[str, str]:
    """An example value, as Python, for every required parameter of a tool, or ``{}``."""
    properties: Mapping[str, Any] = definition.input_schema.get("properties") or {}
    required = list(definition.input_schema.get("required") or ())
    values: dict[str, str] = {}
    for name in required:
        spec = properties.get(name) or {}
        if spec.get("enum"):
            values[name] = _literal(spec["enum"][0])
            continue
        text = parameter_example(spec)
        if text is None:
            return {}
        is_number = re.fullmatch(r"-?\d+(\.\d+)?", text) is not None
        kind = spec.get("type")
        values[name] = text if is_number and kind in ("integer", "number", None) else _literal(text)
    return values if required else {}
