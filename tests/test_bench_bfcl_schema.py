"""bench/bfcl/_schema.py: BFCL function docs become the JSON Schema BFCL's FC handlers send."""

from __future__ import annotations

from typing import Any

from bench.bfcl._schema import PYTHON_HINT, to_input_schema, tool_definition, tool_names

UBER: dict[str, Any] = {
    "name": "uber.ride",
    "description": "Find a suitable Uber ride.",
    "parameters": {
        "type": "dict",
        "required": ["loc", "type", "time"],
        "properties": {
            "loc": {"type": "string", "description": "Pickup address."},
            "type": {"type": "string", "enum": ["plus", "comfort", "black"], "description": "Kind"},
            "time": {"type": "integer", "description": "Minutes to wait."},
            "fare": {"type": "float", "description": "Top fare."},
            "stops": {"type": "array", "items": {"type": "float"}, "description": "Stops."},
            "point": {"type": "tuple", "items": {"type": "integer"}, "description": "x, y."},
            "extra": {"type": "any", "description": "Anything."},
            "prefs": {
                "type": "dict",
                "description": "Preferences.",
                "properties": {"temp": {"type": "float", "description": "Temperature."}},
            },
            "legs": {
                "type": "array",
                "description": "Legs.",
                "items": {"type": "dict", "properties": {"km": {"type": "float"}}},
            },
        },
    },
}


def test_types_map_as_bfcl_maps_them_for_openai_style_models() -> None:
    schema = to_input_schema(UBER["parameters"])
    props: dict[str, Any] = schema["properties"]
    assert schema["type"] == "object"
    assert schema["required"] == ["loc", "type", "time"]
    assert props["loc"]["type"] == "string"
    assert props["type"]["enum"] == ["plus", "comfort", "black"]
    assert props["time"]["type"] == "integer"
    assert props["fare"] == {
        "type": "number",
        "format": "float",
        "description": "Top fare. This is a float type value.",
    }
    assert props["stops"]["items"] == {"type": "number"}  # items: type only, no note
    assert props["point"] == {"type": "array", "items": {"type": "integer"}, "description": "x, y."}
    assert props["extra"]["type"] == "string"
    assert props["prefs"]["type"] == "object"
    assert props["prefs"]["properties"]["temp"]["type"] == "number"
    assert props["legs"]["items"]["type"] == "object"
    assert props["legs"]["items"]["properties"]["km"]["type"] == "number"


def test_the_source_doc_is_not_changed() -> None:
    to_input_schema(UBER["parameters"])
    assert UBER["parameters"]["type"] == "dict"
    assert UBER["parameters"]["properties"]["fare"]["type"] == "float"


def test_missing_required_becomes_an_empty_list() -> None:
    schema = to_input_schema({"type": "dict", "properties": {}})
    assert schema == {"type": "object", "properties": {}, "required": []}


def test_dotted_names_are_sanitised_and_mapped_back() -> None:
    names = tool_names([UBER, {"name": "uber_ride"}, {"name": "get_weather"}])
    assert names.sent["uber.ride"] == "uber_ride"
    assert names.sent["uber_ride"] == "uber_ride_2"  # a clash gets a suffix
    assert names.sent["get_weather"] == "get_weather"
    assert names.original("uber_ride") == "uber.ride"
    assert names.original("uber_ride_2") == "uber_ride"
    assert names.original("never_offered") == "never_offered"


def test_definition_carries_bfcls_python_hint() -> None:
    definition = tool_definition(UBER, "uber_ride")
    assert definition.name == "uber_ride"
    assert definition.description == "Find a suitable Uber ride." + PYTHON_HINT
    assert definition.input_schema["properties"]["time"]["type"] == "integer"
