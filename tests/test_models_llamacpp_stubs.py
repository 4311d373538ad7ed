"""Tools as Python stubs: what the embedded coder model reads of each tool."""

from __future__ import annotations

from springtail.models._llamacpp._stubs import id_example, tool_stubs
from springtail.tools._definition import ToolDefinition


def test_a_stub_carries_names_types_defaults_and_descriptions() -> None:
    definition = ToolDefinition(
        "send_message",
        "Send a short message.",
        {
            "type": "object",
            "properties": {
                "to": {"type": "string", "description": "An e-mail address"},
                "priority": {
                    "anyOf": [{"type": "string", "enum": ["low", "high"]}, {"type": "null"}],
                    "default": None,
                },
                "count": {"type": "integer", "default": 1},
                "price": {"anyOf": [{"type": "number"}, {"type": "string"}]},
                "day": {"type": "string", "format": "date", "description": "The day"},
            },
            "required": ["to", "price", "day"],
        },
    )
    assert tool_stubs([definition]) == (
        'def send_message(to: str, priority: Literal["low", "high"] | None = None, '
        "count: int = 1, price: float, day: str) -> str:\n"
        '    """Send a short message. (to: An e-mail address; day: The day (YYYY-MM-DD))"""'
    )


def test_nested_objects_become_typed_dicts_and_lists_keep_their_items() -> None:
    definition = ToolDefinition(
        "create_order",
        "Place an order.",
        {
            "type": "object",
            "properties": {
                "customer": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
                    "required": ["name"],
                },
                "skus": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["customer", "skus"],
        },
    )
    stub = tool_stubs([definition])
    assert "class Customer(TypedDict):\n    name: str\n    email: NotRequired[str]" in stub
    assert "def create_order(customer: Customer, skus: list[str]) -> str:" in stub


def test_a_tool_without_parameters_and_stubs_in_order() -> None:
    one = ToolDefinition("today", "Today's date.", {"type": "object", "properties": {}})
    two = ToolDefinition("weekday", 'The "day" of a date.', {"type": "object", "properties": {}})
    assert tool_stubs([one, two]) == (
        'def today() -> str:\n    """Today\'s date."""\n\n'
        'def weekday() -> str:\n    """The "day" of a date."""'
    )


def test_an_example_plan_pairs_two_tools_that_share_a_parameter() -> None:
    from springtail.models._llamacpp._stubs import tool_example

    lookup = ToolDefinition(
        "product_lookup",
        "A product.",
        {
            "type": "object",
            "properties": {"sku": {"type": "string", "description": "The SKU, e.g. SKU-100"}},
            "required": ["sku"],
        },
    )
    reserve = ToolDefinition(
        "product_reserve",
        "Reserve units.",
        {
            "type": "object",
            "properties": {"sku": {"type": "string"}, "quantity": {"type": "integer"}},
            "required": ["sku", "quantity"],
        },
    )
    assert tool_example([lookup, reserve]) == (
        'r1 = product_lookup(sku="SKU-100")\nr2 = product_reserve(sku="SKU-100", quantity=r1)'
    )
    # No value the schema gives, or no pair: no example (the generic one is used).
    bare = ToolDefinition(
        "product_lookup",
        "A product.",
        {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
    )
    assert tool_example([bare, reserve]) is None
    assert tool_example([lookup]) is None


def test_an_example_with_digits_says_the_parameter_takes_an_id() -> None:
    assert id_example({"type": "string", "description": "The patient id, e.g. P-101"}) == "P-101"
    assert id_example({"type": "string", "examples": ["SKU-100"]}) == "SKU-100"
    assert id_example({"type": "string", "description": "A name, e.g. Khan"}) is None
    assert id_example({"type": "string"}) is None
    assert id_example(None) is None
