"""What unit a number of the request is in, and the tools that convert it to a parameter's."""

from __future__ import annotations

from fake_llama import schema
from springtail.models._llamacpp._units import converters
from springtail.tools._definition import ToolDefinition

UNITS: dict[str, object] = {"type": "string", "enum": ["km", "mi", "kg", "lb"]}
CONVERT = ToolDefinition(
    "convert_units",
    "Convert a value between units.",
    schema(value={"type": "number"}, from_unit=UNITS, to_unit={"anyOf": [UNITS, {"type": "null"}]}),
)
RATES = ToolDefinition(
    "currency_convert",
    "Convert money.",
    schema(amount={"type": "number"}, to={"type": "string", "enum": ["USD", "EUR"]}),
)
TOOLS = (CONVERT, RATES)
WEIGHT = {"type": "number", "description": "The weight in kg"}


def test_a_number_written_in_a_unit_the_parameter_does_not_take_names_the_converters() -> None:
    asked = "A parcel weighs 10 lb. Quote shipping for it."
    assert converters(asked, "weight", 10, WEIGHT, TOOLS) == {"convert_units"}
    # The parameter's name says the unit as well as its description.
    assert converters(asked, "weight_kg", 10.0, {"type": "number"}, TOOLS) == {"convert_units"}
    # "1,500 lb" is the number 1500.
    assert converters("It weighs 1,500 lb.", "weight_kg", 1500, {}, TOOLS) == {"convert_units"}


def test_a_number_in_the_parameter_s_own_unit_or_with_no_unit_is_left_alone() -> None:
    assert converters("It weighs 10 kg.", "weight_kg", 10, {}, TOOLS) == frozenset()
    assert converters("Quote 10 parcels.", "weight_kg", 10, {}, TOOLS) == frozenset()
    assert converters("It weighs 10 lb.", "weight_kg", 12, {}, TOOLS) == frozenset()
    # A parameter that speaks of no unit, a text value, a flag.
    assert converters("It weighs 10 lb.", "count", 10, {}, TOOLS) == frozenset()
    assert converters("It weighs 10 lb.", "weight_kg", "10", {}, TOOLS) == frozenset()
    assert converters("It weighs 1 lb.", "weight_kg", True, {}, TOOLS) == frozenset()
