"""Turn pydantic's JSON Schema into the exact shape tools promise.

Pydantic writes good schemas for validation, but model providers read them
too, and several reject or mis-handle what pydantic adds: ``title`` on every
node, every nested model behind a ``$ref`` (small local models follow inline
objects far better), ``const`` instead of ``enum``, objects without
``required``. This module is pure dict work, run once per tool.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["DRAFT_2020_12", "clean_schema"]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

_REF_PREFIX = "#/$defs/"
# Keys whose value is one schema, a list of schemas, or a name -> schema map.
_SCHEMA_KEYS = ("items", "additionalProperties", "not", "contains", "if", "then", "else")
_LIST_KEYS = ("anyOf", "oneOf", "allOf", "prefixItems")
_MAP_KEYS = ("properties", "patternProperties", "dependentSchemas")
# The order a person (and a model) reads an object schema best in.
_FIRST_KEYS = (
    "$schema",
    "$ref",
    "type",
    "description",
    "enum",
    "format",
    "properties",
    "required",
    "additionalProperties",
    "items",
)


def clean_schema(raw: dict[str, Any]) -> dict[str, Any]:
    """Return ``raw`` rewritten to springtail's tool-schema shape.

    Definitions used once and not recursive are inlined; shared or recursive
    ones stay under the root ``$defs``. ``raw`` is not modified; leaf values
    (``enum`` lists, defaults) are shared with it.
    """
    defs: dict[str, Any] = raw.get("$defs") or {}
    raw = {k: v for k, v in raw.items() if k != "$defs"}
    counts: dict[str, int] = {}
    for node in [raw, *defs.values()]:
        _count_refs(node, counts)
    recursive = _recursive_defs(defs)
    keep = {name for name in defs if counts.get(name, 0) > 1 or name in recursive}

    cleaner = _Cleaner(defs, keep)
    ref = raw.get("$ref")
    if isinstance(ref, str) and ref.startswith(_REF_PREFIX):
        # A root that is itself a reference (a model given as input type):
        # the root must be the object, so its definition is copied there.
        siblings = {k: v for k, v in raw.items() if k != "$ref"}
        raw = {**defs[ref[len(_REF_PREFIX) :]], **siblings}
    result: dict[str, Any] = cleaner.clean(raw)
    if result.get("type") != "object" and "properties" not in result:
        raise ValueError(
            "a tool's input schema must describe a JSON object, got "
            f"{result.get('type', 'a schema without a type')!r}"
        )
    result["type"] = "object"
    result.setdefault("properties", {})
    result.setdefault("required", [])
    result["additionalProperties"] = False
    if keep:
        result["$defs"] = {name: cleaner.clean(defs[name]) for name in defs if name in keep}
    result["$schema"] = DRAFT_2020_12
    return _ordered(result)


class _Cleaner:
    __slots__ = ("defs", "keep")

    def __init__(self, defs: dict[str, Any], keep: set[str]) -> None:
        self.defs = defs
        self.keep = keep

    def clean(self, node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_REF_PREFIX):
            name = ref[len(_REF_PREFIX) :]
            if name not in self.keep and name in self.defs:
                siblings = {k: v for k, v in node.items() if k != "$ref"}
                node = {**self.defs[name], **siblings}
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "title" and not isinstance(value, dict):
                continue
            if key in _MAP_KEYS and isinstance(value, dict):
                out[key] = {k: self.clean(v) for k, v in value.items()}
            elif key in _LIST_KEYS and isinstance(value, list):
                out[key] = [self.clean(v) for v in value]
            elif key in _SCHEMA_KEYS and isinstance(value, dict):
                out[key] = self.clean(value)
            else:
                out[key] = value
        if "const" in out and "enum" not in out:
            out["enum"] = [out.pop("const")]
        if "properties" in out:
            out.setdefault("type", "object")
            out.setdefault("required", [])
            out["additionalProperties"] = False
        return _ordered(out)


def _ordered(node: dict[str, Any]) -> dict[str, Any]:
    first = {k: node[k] for k in _FIRST_KEYS if k in node}
    if len(first) == len(node):
        return first
    first.update((k, v) for k, v in node.items() if k not in first)
    return first


def _count_refs(node: Any, counts: dict[str, int]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(_REF_PREFIX):
                name = value[len(_REF_PREFIX) :]
                counts[name] = counts.get(name, 0) + 1
            elif key == "mapping" and isinstance(value, dict):
                # A discriminator names its targets by reference: they must
                # stay addressable, so each mention counts as a use.
                for target in value.values():
                    if isinstance(target, str) and target.startswith(_REF_PREFIX):
                        name = target[len(_REF_PREFIX) :]
                        counts[name] = counts.get(name, 0) + 2
            elif key not in ("enum", "const", "default", "examples"):
                _count_refs(value, counts)
    elif isinstance(node, list):
        for item in node:
            _count_refs(item, counts)


def _refs_in(node: Any) -> Iterable[str]:
    local: dict[str, int] = {}
    _count_refs(node, local)
    return local.keys()


def _recursive_defs(defs: dict[str, Any]) -> set[str]:
    graph = {name: set(_refs_in(schema)) for name, schema in defs.items()}
    recursive: set[str] = set()
    for start in graph:
        stack = list(graph[start])
        seen: set[str] = set()
        while stack:
            current = stack.pop()
            if current == start:
                recursive.add(start)
                break
            if current in seen:
                continue
            seen.add(current)
            stack.extend(graph.get(current, ()))
    return recursive
