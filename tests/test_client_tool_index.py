"""The tool index: words of tool definitions, BM25 ranking, token estimates."""

from __future__ import annotations

import importlib.util
import json
import math
from typing import Any

import pytest

pytest.importorskip("bm25s", reason="needs the search extra: pip install 'springtail[search]'")

from springtail import Bm25ToolIndex, ToolDefinition, ToolIndex, ToolSearchHit
from springtail.client import estimated_tool_tokens
from springtail.client._tool_index import definition_words, require_search_extra, tool_words


def definition(name: str, description: str, **properties: Any) -> ToolDefinition:
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    return ToolDefinition(name, description, schema)


TOOLS = [
    definition("weather_forecast", "Weather for the next days.", city={"type": "string"}),
    definition(
        "parcel_rate_quote",
        "Quote the postage of a parcel sent abroad.",
        destination_city={"type": "string", "description": "Where it goes, e.g. Busan"},
    ),
    definition(
        "calculate",
        "Exact arithmetic on two numbers.",
        operation={"type": "string", "enum": ["add", "subtract", "multiply", "divide"]},
    ),
    definition("todo_add", "Add a task to the to-do list.", title={"type": "string"}),
    definition("orderLookup", "Where an order is.", order_id={"type": "string"}),
]


@pytest.fixture(scope="module")
def index() -> Bm25ToolIndex:
    return Bm25ToolIndex(TOOLS)


def names(hits: list[ToolSearchHit]) -> list[str]:
    return [h.name for h in hits]


def test_words_are_split_lowered_stemmed_and_stripped_of_filler() -> None:
    assert tool_words("order_lookup orderLookup order-lookup") == ["order", "lookup"] * 3
    assert tool_words("How much does shipping cost?") == ["much", "ship", "cost"]
    assert tool_words("15% off") == ["15", "percent", "off"]


def test_arithmetic_words_bring_the_words_tools_use() -> None:
    assert tool_words("12 times 7") == ["12", "time", "multipli", "7"]
    assert tool_words("1250 plus 730") == ["1250", "plus", "add", "730"]


def test_a_definition_is_known_by_name_description_and_parameters() -> None:
    words = definition_words(TOOLS[1])
    assert words.count("parcel") == 3  # the name counts twice, the description once
    assert {"destin", "citi", "busan", "postag"} <= set(words)
    assert {"add", "subtract", "multipli", "divid"} <= set(definition_words(TOOLS[2]))


def test_the_matching_tool_ranks_first(index: Bm25ToolIndex) -> None:
    assert isinstance(index, ToolIndex)
    assert names(index.search("How much does shipping a parcel to Busan cost?", limit=3))[0] == (
        "parcel_rate_quote"
    )
    assert names(index.search("What is 128 times 32?", limit=1)) == ["calculate"]
    assert names(index.search("remind me: add a to-do", limit=1)) == ["todo_add"]
    assert names(index.search("where is my order?", limit=1)) == ["orderLookup"]


def test_a_parameter_description_alone_finds_its_tool(index: Bm25ToolIndex) -> None:
    assert names(index.search("Busan", limit=5)) == ["parcel_rate_quote"]


def test_scores_come_best_first_and_the_limit_holds(index: Bm25ToolIndex) -> None:
    hits = index.search("weather forecast and a parcel quote", limit=5)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len(index.search("weather forecast and a parcel quote", limit=1)) == 1


def test_nothing_matches_nothing(index: Bm25ToolIndex) -> None:
    assert index.search("Hi! Who are you?", limit=5) == []
    assert index.search("", limit=5) == []
    assert index.search("zebra", limit=5) == []
    assert index.search("weather", limit=0) == []


def test_an_empty_tool_set_has_an_empty_index() -> None:
    empty = Bm25ToolIndex([])
    assert len(empty) == 0
    assert empty.search("weather", limit=3) == []


def test_the_estimate_follows_the_rendered_definition() -> None:
    tool = TOOLS[1]
    rendered = json.dumps(
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.input_schema,
            },
        },
        ensure_ascii=False,
    )
    assert estimated_tool_tokens(tool) == math.ceil(len(rendered) / 3.5)
    longer = ToolDefinition(tool.name, tool.description * 4, tool.input_schema)
    assert estimated_tool_tokens(longer) > estimated_tool_tokens(tool)


def test_without_the_library_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "bm25s" else real(name, *a)
    )
    with pytest.raises(ImportError, match=r"pip install 'springtail\[search\]'"):
        require_search_extra()
    with pytest.raises(ImportError, match="bm25s"):
        Bm25ToolIndex(TOOLS)
