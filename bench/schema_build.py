"""S3: building a tool definition from a Python signature, first time and again.

The tool has a nested model, an enum, an optional parameter with a default and
a list of objects. "First build" applies each framework's tool declaration to a
function object it has never seen (a fresh closure each time, so no per-function
cache can answer) and reads the JSON schema the model would be sent. "Cached" asks
the already-built tool for its schema again, which is what happens on every
request after the first. The baseline is pydantic's own ``create_model`` plus
``model_json_schema`` for the same signature.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, create_model

from bench._timing import Row, Stats, time_calls


class Priority(enum.StrEnum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class Address(BaseModel):
    street: str
    city: str
    postal_code: str


class LineItem(BaseModel):
    sku: str
    quantity: int


def fresh_function() -> Callable[..., str]:
    """A new function object with the S3 signature (no cache has seen it)."""

    def place_order(
        customer_id: str,
        shipping: Address,
        priority: Priority,
        items: list[LineItem],
        note: str | None = None,
    ) -> str:
        """Place an order for a customer.

        Args:
            customer_id: The customer, e.g. C-100.
            shipping: Where the parcel goes.
            priority: How urgent the order is.
            items: What to ship, one entry per SKU.
            note: A note for the warehouse.
        """
        return "ok"

    return place_order


def _check(schema: Mapping[str, Any], label: str) -> None:
    """A build that lost a parameter would be fast for the wrong reason."""
    text = repr(schema)
    for needle in ("customer_id", "shipping", "priority", "items", "note", "postal_code", "sku"):
        if needle not in text:
            raise AssertionError(f"S3 {label}: the schema lacks {needle!r}: {schema}")


# -- builders: each returns (first build, cached look-up) -----------------------------------


def pydantic_baseline() -> tuple[Callable[[], dict[str, Any]], Callable[[], dict[str, Any]]]:
    def first() -> dict[str, Any]:
        model = create_model(
            "place_order",
            customer_id=(str, ...),
            shipping=(Address, ...),
            priority=(Priority, ...),
            items=(list[LineItem], ...),
            note=(str | None, None),
        )
        return model.model_json_schema()

    built = create_model(
        "place_order",
        customer_id=(str, ...),
        shipping=(Address, ...),
        priority=(Priority, ...),
        items=(list[LineItem], ...),
        note=(str | None, None),
    )
    return first, built.model_json_schema


def pydantic_ai() -> tuple[Callable[[], dict[str, Any]], Callable[[], dict[str, Any]]]:
    from pydantic_ai import Tool

    def first() -> dict[str, Any]:
        return Tool(fresh_function(), takes_ctx=False).tool_def.parameters_json_schema

    built = Tool(fresh_function(), takes_ctx=False)
    return first, lambda: built.tool_def.parameters_json_schema


def langgraph() -> tuple[Callable[[], dict[str, Any]], Callable[[], dict[str, Any]]]:
    from langchain_core.tools import StructuredTool
    from langchain_core.utils.function_calling import convert_to_openai_tool

    def first() -> dict[str, Any]:
        built = StructuredTool.from_function(fresh_function(), parse_docstring=True)
        schema: dict[str, Any] = convert_to_openai_tool(built)["function"]["parameters"]
        return schema  # what bind_tools sends

    built = StructuredTool.from_function(fresh_function(), parse_docstring=True)
    return first, lambda: convert_to_openai_tool(built)["function"]["parameters"]


def openai_agents() -> tuple[Callable[[], dict[str, Any]], Callable[[], dict[str, Any]]]:
    from agents import function_tool

    def first() -> dict[str, Any]:
        return function_tool(fresh_function()).params_json_schema

    built = function_tool(fresh_function())
    return first, lambda: built.params_json_schema


PEERS: dict[str, Callable[[], tuple[Callable[[], Any], Callable[[], Any]]]] = {
    "pydantic-ai": pydantic_ai,
    "LangGraph (langchain-core)": langgraph,
    "openai-agents": openai_agents,
}


def measure_builder(
    label: str,
    builder: Callable[[], tuple[Callable[[], Any], Callable[[], Any]]],
    *,
    repeat: int,
    kind: str = "peer",
) -> tuple[Row, Row]:
    first, cached = builder()
    _check(first(), label)
    _check(cached(), label)
    first_stats = time_calls(first, repeat=repeat, number=5)
    cached_stats = time_calls(cached, repeat=repeat, number=200)
    return Row(label, first_stats, kind=kind), Row(label, cached_stats, kind=kind)


def baseline_stats(repeat: int) -> tuple[Stats, Stats]:
    first, cached = pydantic_baseline()
    _check(first(), "pydantic")
    return (
        time_calls(first, repeat=repeat, number=5),
        time_calls(cached, repeat=repeat, number=50),
    )


def springtail_builder() -> tuple[Callable[[], Mapping[str, Any]], Callable[[], Mapping[str, Any]]]:
    """``@tool`` on a new function, then the schema; cached: the built callback asked again."""
    from springtail import tool, tool_callbacks

    def first() -> Mapping[str, Any]:
        (callback,) = tool_callbacks(tool(fresh_function()))
        return callback.tool_definition.input_schema

    (built,) = tool_callbacks(tool(fresh_function()))
    return first, lambda: built.tool_definition.input_schema


def springtail_recollect() -> Callable[[], Mapping[str, Any]]:
    """``tool_callbacks(fn)`` on an already decorated function, as a new client does."""
    from springtail import tool, tool_callbacks

    decorated = tool(fresh_function())

    def again() -> Mapping[str, Any]:
        (callback,) = tool_callbacks(decorated)
        return callback.tool_definition.input_schema

    return again
