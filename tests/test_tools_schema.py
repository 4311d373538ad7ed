"""The input schema shape promised by API.md section 1."""

from __future__ import annotations

import datetime as dt
import enum
import json
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from springtail.tools import FunctionToolCallback, Param, tool, tool_callbacks
from springtail.tools._schema import DRAFT_2020_12, clean_schema


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Item(BaseModel):
    """A line of an order."""

    sku: str = Field(description="Stock keeping unit")
    title: str = ""  # a field named "title" must survive title removal
    qty: int = 1


@dataclass
class Address:
    street: str
    city: str


class Contact(TypedDict):
    email: str
    phone: str


class Node(BaseModel):
    value: int
    children: list[Node] = []


class Empty(BaseModel):
    pass


def schema_of(fn: Any) -> dict[str, Any]:
    (callback,) = tool_callbacks(fn)
    return dict(callback.tool_definition.input_schema)


def walk(node: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (path, schema node) for every schema node (not data like enum/default)."""
    if not isinstance(node, dict):
        return
    yield path, node
    for key in ("properties", "$defs"):
        for name, sub in node.get(key, {}).items():
            yield from walk(sub, f"{path}.{key}.{name}")
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            yield from walk(node[key], f"{path}.{key}")
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(node.get(key, [])):
            yield from walk(sub, f"{path}.{key}[{i}]")


@tool
def order(
    item: Annotated[Item, Param("What to order")],
    color: Color,
    shape: Literal["round", "square"],
    note: str | None = None,
    extras: list[Item] | None = None,
    ship_to: Address | None = None,
    contact: Contact | None = None,
    when: dt.date | None = None,
    at: dt.datetime | None = None,
    price: Decimal | None = None,
    tags: dict[str, int] | None = None,
    tree: Node | None = None,
    nothing: Empty | None = None,
) -> str:
    return "ok"


SCHEMA = schema_of(order)


def test_root_is_a_draft_2020_12_object() -> None:
    assert SCHEMA["$schema"] == DRAFT_2020_12
    assert SCHEMA["type"] == "object"
    assert SCHEMA["required"] == ["item", "color", "shape"]
    assert SCHEMA["additionalProperties"] is False


def test_no_title_anywhere_but_a_property_named_title_survives() -> None:
    for path, node in walk(SCHEMA):
        assert "title" not in node or isinstance(node.get("title"), dict), path
    item = SCHEMA["$defs"]["Item"]
    assert item["properties"]["title"] == {"type": "string", "default": ""}


def test_every_object_with_properties_has_required_and_no_additional_properties() -> None:
    objects = [(p, n) for p, n in walk(SCHEMA) if "properties" in n]
    assert len(objects) >= 6
    for path, node in objects:
        assert node["additionalProperties"] is False, path
        assert isinstance(node["required"], list), path


def test_empty_model_gets_additional_properties_false() -> None:
    nothing = SCHEMA["properties"]["nothing"]["anyOf"][0]
    assert nothing == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def test_dict_values_are_not_closed_objects() -> None:
    tags = SCHEMA["properties"]["tags"]["anyOf"][0]
    assert tags == {"type": "object", "additionalProperties": {"type": "integer"}}


def test_nested_model_dataclass_and_typeddict_are_inline_objects() -> None:
    @tool
    def f(item: Annotated[Item, Param("What to order")]) -> None:
        pass

    item = schema_of(f)["properties"]["item"]
    assert item["type"] == "object"
    assert item["description"] == "What to order"  # the parameter's, not the model docstring
    assert item["required"] == ["sku"]
    assert item["properties"]["sku"]["description"] == "Stock keeping unit"
    address = SCHEMA["properties"]["ship_to"]["anyOf"][0]
    assert address["properties"].keys() == {"street", "city"}
    assert address["required"] == ["street", "city"]
    contact = SCHEMA["properties"]["contact"]["anyOf"][0]
    assert contact["required"] == ["email", "phone"]


def test_shared_and_recursive_definitions_live_under_root_defs() -> None:
    # Item is used twice (item and extras), Node refers to itself.
    assert set(SCHEMA["$defs"]) == {"Item", "Node"}
    assert SCHEMA["properties"]["item"] == {"$ref": "#/$defs/Item", "description": "What to order"}
    assert SCHEMA["properties"]["extras"]["anyOf"][0] == {
        "type": "array",
        "items": {"$ref": "#/$defs/Item"},
    }
    node = SCHEMA["$defs"]["Node"]
    assert node["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert SCHEMA["properties"]["tree"]["anyOf"][0] == {"$ref": "#/$defs/Node"}
    for _, sub in walk(SCHEMA):
        ref = sub.get("$ref")
        if ref:
            assert ref.removeprefix("#/$defs/") in SCHEMA["$defs"]


def test_single_use_definition_is_inlined_not_referenced() -> None:
    @tool
    def f(item: Item) -> None:
        pass

    schema = schema_of(f)
    assert "$defs" not in schema
    assert schema["properties"]["item"]["type"] == "object"
    assert schema["properties"]["item"]["description"] == "A line of an order."


def test_enum_and_literal_become_enum() -> None:
    assert SCHEMA["properties"]["color"] == {"type": "string", "enum": ["red", "green"]}
    assert SCHEMA["properties"]["shape"] == {"type": "string", "enum": ["round", "square"]}


def test_single_literal_is_an_enum_not_a_const() -> None:
    @tool
    def f(kind: Literal["only"]) -> None:
        pass

    assert schema_of(f)["properties"]["kind"] == {"type": "string", "enum": ["only"]}


def test_list_is_an_array_with_items() -> None:
    @tool
    def f(numbers: list[int], names: list[str]) -> None:
        pass

    props = schema_of(f)["properties"]
    assert props["numbers"] == {"type": "array", "items": {"type": "integer"}}
    assert props["names"] == {"type": "array", "items": {"type": "string"}}


def test_dates_are_strings_and_decimal_is_number_or_string() -> None:
    props = SCHEMA["properties"]
    assert props["when"]["anyOf"][0] == {"type": "string", "format": "date"}
    assert props["at"]["anyOf"][0] == {"type": "string", "format": "date-time"}
    price_types = [b.get("type") for b in props["price"]["anyOf"]]
    assert price_types[:2] == ["number", "string"]


def test_function_callback_with_recursive_input_type_has_an_object_root() -> None:
    callback = FunctionToolCallback("tree", lambda node: node.value, input_type=Node)
    schema = callback.tool_definition.input_schema
    assert schema["type"] == "object"
    assert schema["required"] == ["value"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert "Node" in schema["$defs"]


def test_discriminated_union_targets_stay_addressable() -> None:
    class Cat(BaseModel):
        kind: Literal["cat"]
        lives: int

    class Dog(BaseModel):
        kind: Literal["dog"]
        good: bool

    @tool
    def adopt(pet: Annotated[Cat | Dog, Field(discriminator="kind")]) -> str:
        return type(pet).__name__

    schema = schema_of(adopt)
    mapping = schema["properties"]["pet"]["discriminator"]["mapping"]
    for ref in mapping.values():
        assert ref.removeprefix("#/$defs/") in schema["$defs"]
    (callback,) = tool_callbacks(adopt)
    assert callback.call('{"pet": {"kind": "dog", "good": true}}') == "Dog"


def test_schema_is_plain_json() -> None:
    assert json.loads(json.dumps(SCHEMA)) == SCHEMA


def test_schema_is_built_once_and_cached() -> None:
    @tool
    def f(x: int) -> None:
        pass

    (first,) = tool_callbacks(f)
    (second,) = tool_callbacks(f)
    assert first.tool_definition is second.tool_definition


def test_clean_schema_leaves_its_input_alone() -> None:
    raw = {
        "title": "Args",
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "required": ["a"],
        "$defs": {"A": {"title": "A", "type": "object", "properties": {}}},
    }
    before = json.dumps(raw, sort_keys=True)
    cleaned = clean_schema(raw)
    assert json.dumps(raw, sort_keys=True) == before
    assert cleaned["properties"]["a"] == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def test_clean_schema_rejects_a_non_object_root() -> None:
    with pytest.raises(ValueError, match="JSON object"):
        clean_schema({"type": "array", "items": {"type": "integer"}})
