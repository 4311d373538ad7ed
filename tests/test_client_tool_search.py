"""Tool search in the tool loop, with the scripted model: retrieve and search-tool modes."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("bm25s", reason="needs the search extra: pip install 'springtail[search]'")

from mcp_helpers import raw_sdk_server
from springtail import (
    TOOL_SEARCH_OFFERED,
    ChatClient,
    ChatMemory,
    ChatOptions,
    InMemoryChatMemoryRepository,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    ScriptedChatModel,
    StaticToolCallbackResolver,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolContext,
    ToolDefinition,
    ToolIndex,
    ToolMetadata,
    ToolSearch,
    ToolSearchHit,
)
from springtail.client import HIGHEST_PRECEDENCE, ToolCallFinished
from springtail.mcp import McpClient
from springtail.messages import AssistantMessage, Prompt, ToolCall, ToolResponseMessage


class Counted:
    """A real ToolCallback that answers with a fixed text and counts its runs."""

    def __init__(self, name: str, description: str, answer: str = "done") -> None:
        schema = {
            "type": "object",
            "properties": {"id": {"type": "string", "description": "What it acts on"}},
            "required": [],
        }
        self.tool_definition = ToolDefinition(name, description, schema)
        self.tool_metadata = ToolMetadata()
        self.answer = answer
        self.runs = 0

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        self.runs += 1
        return self.answer

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return self.call(tool_input, tool_context)


def catalog() -> list[Counted]:
    """Twelve tools of several domains; the order is the tool set's own order."""
    return [
        Counted("weather_forecast", "Weather forecast for a city for the next days."),
        Counted("order_lookup", "Where a customer's order is.", "Order 17 returned; refund due."),
        Counted("flight_search", "Search flights between two airports on a date."),
        Counted("refund_issue", "Pay the money of a returned purchase back (a refund)."),
        Counted("parcel_rate_quote", "Quote the postage for a parcel sent abroad.", "USD 38.40"),
        Counted("hotel_search", "Find hotels in a city with free rooms."),
        Counted("todo_add", "Add a task to the to-do list."),
        Counted("currency_convert", "Convert an amount between currencies."),
        Counted("calculate", "Exact arithmetic: add, subtract, multiply, divide."),
        Counted("translate_text", "Translate text between languages."),
        Counted("stock_quote", "Latest share price of a listed company."),
        Counted("current_date", "Today's date."),
    ]


def call(name: str, arguments: dict[str, Any] | None = None, id: str = "c1") -> AssistantMessage:
    return AssistantMessage(tool_calls=(ToolCall(id, name, json.dumps(arguments or {})),))


def offered(prompt: Prompt) -> list[str]:
    assert prompt.options is not None
    return [cb.tool_definition.name for cb in prompt.options.tool_callbacks]


def client(
    model: ScriptedChatModel, tools: Sequence[Any], search: ToolSearch, **loop: Any
) -> ChatClient:
    return ChatClient(model, tools=tools, advisors=[ToolCallingAdvisor(tool_search=search, **loop)])


def responses(prompt: Prompt) -> list[tuple[str, str]]:
    last = prompt.messages[-1]
    assert isinstance(last, ToolResponseMessage)
    return [(r.name, r.response_data) for r in last.responses]


# -- retrieve ----------------------------------------------------------------------


def test_retrieve_offers_the_matching_tools_in_the_tool_sets_order() -> None:
    tools = catalog()
    model = ScriptedChatModel([call("parcel_rate_quote"), "It costs USD 38.40."])
    search = ToolSearch(max_tools=3, always_on=["current_date"])
    answer = client(model, tools, search).prompt("How much is a parcel to Busan, and a hotel?")
    assert answer.call().content() == "It costs USD 38.40."
    first = offered(model.prompts[0])
    # Always-on first; then the tool set's order, not the ranking (parcel ranks first).
    assert first == ["current_date", "parcel_rate_quote", "hotel_search"]
    assert tools[4].runs == 1
    # The tool the model called stays offered on the next call of the turn.
    assert "parcel_rate_quote" in offered(model.prompts[1])


def test_the_same_request_gets_the_same_tools_in_the_same_order() -> None:
    tools = catalog()
    model = ScriptedChatModel(["a", "b"])
    chat = client(model, tools, ToolSearch(max_tools=4))
    chat.prompt("Weather in Lisbon and a flight there?").call()
    chat.prompt("Weather in Lisbon and a flight there?").call()
    assert offered(model.prompts[0]) == offered(model.prompts[1])
    assert offered(model.prompts[0]) == ["weather_forecast", "flight_search"]


def test_a_tool_set_that_fits_is_offered_whole() -> None:
    tools = catalog()
    model = ScriptedChatModel(["hello"])
    response = client(model, tools, ToolSearch(max_tools=12)).prompt("Hi!").call()
    assert offered(model.prompts[0]) == [t.tool_definition.name for t in tools]
    assert response.chat_client_response().context[TOOL_SEARCH_OFFERED] == [
        tuple(t.tool_definition.name for t in tools)
    ]


def test_a_request_that_matches_nothing_gets_the_always_on_tools_only() -> None:
    model = ScriptedChatModel(["Hello!"])
    client(model, catalog(), ToolSearch(always_on=["todo_add"])).prompt("Hi! Who are you?").call()
    assert offered(model.prompts[0]) == ["todo_add"]


def test_the_token_budget_skips_a_tool_that_does_not_fit_and_keeps_always_on() -> None:
    tools = catalog()
    tokens = {"parcel_rate_quote": 500, "hotel_search": 40, "current_date": 900}

    def estimate(definition: ToolDefinition) -> int:
        return tokens.get(definition.name, 30)

    model = ScriptedChatModel(["ok"])
    search = ToolSearch(
        max_tools=None, max_tool_tokens=950, always_on=["current_date"], token_estimator=estimate
    )
    client(model, tools, search).prompt("A parcel to Busan and a hotel in Busan?").call()
    # current_date (900) is always on; the parcel tool (500) would pass 950, the hotel (40) fits.
    assert offered(model.prompts[0]) == ["current_date", "hotel_search"]


def test_weak_matches_are_left_out_with_a_score_ratio() -> None:
    model = ScriptedChatModel(["ok", "ok"])
    request = "Quote the postage of a parcel to Busan, abroad, in another city"
    client(model, catalog(), ToolSearch(max_tools=5)).prompt(request).call()
    client(model, catalog(), ToolSearch(max_tools=5, min_score_ratio=0.5)).prompt(request).call()
    assert len(offered(model.prompts[0])) > 1
    assert offered(model.prompts[1]) == ["parcel_rate_quote"]


def test_the_turn_so_far_picks_the_next_tool() -> None:
    tools = catalog()
    model = ScriptedChatModel(
        [call("order_lookup", {"id": "17"}), call("refund_issue", {"id": "17"}), "Refunded."]
    )
    client(model, tools, ToolSearch(max_tools=2)).prompt("Where is my order 17?").call()
    assert "refund_issue" not in offered(model.prompts[0])
    # The result said "refund": the next call is offered refund_issue, and keeps order_lookup.
    assert offered(model.prompts[1]) == ["order_lookup", "refund_issue"]
    assert tools[3].runs == 1


def test_a_call_to_a_tool_not_offered_is_answered_as_unknown_and_not_run() -> None:
    tools = catalog()
    model = ScriptedChatModel([call("stock_quote", {"id": "AAPL"}), "Sorry."])
    client(model, tools, ToolSearch(max_tools=2)).prompt("Weather in Oslo?").call()
    assert "stock_quote" not in offered(model.prompts[0])
    [(name, text)] = responses(model.prompts[1])
    assert name == "stock_quote"
    assert text.startswith("Unknown tool 'stock_quote'. The available tools are: weather_forecast")
    assert tools[10].runs == 0


def test_run_unoffered_adds_the_tool_runs_it_and_keeps_it_offered() -> None:
    tools = catalog()
    model = ScriptedChatModel([call("stock_quote", {"id": "AAPL"}), "AAPL is at 201."])
    search = ToolSearch(max_tools=2, run_unoffered=True)
    client(model, tools, search).prompt("Weather in Oslo?").call()
    assert responses(model.prompts[1]) == [("stock_quote", "done")]
    assert tools[10].runs == 1
    assert "stock_quote" in offered(model.prompts[1])


def test_a_tool_no_request_has_stays_unknown_with_run_unoffered() -> None:
    model = ScriptedChatModel([call("launch_rocket"), "No."])
    search = ToolSearch(max_tools=2, run_unoffered=True)
    client(model, catalog(), search).prompt("Weather in Oslo?").call()
    assert responses(model.prompts[1])[0][1].startswith("Unknown tool 'launch_rocket'")


def test_a_tool_named_in_tool_names_is_narrowed_like_the_others() -> None:
    tools = catalog()
    manager = ToolCallingManager(resolver=StaticToolCallbackResolver(tools))
    model = ScriptedChatModel([call("stock_quote"), "No."])
    chat = ChatClient(
        model,
        advisors=[
            ToolCallingAdvisor(tool_calling_manager=manager, tool_search=ToolSearch(max_tools=2))
        ],
    )
    names = tuple(t.tool_definition.name for t in tools)
    chat.prompt("Weather in Oslo?").options(ChatOptions(tool_names=names)).call()
    assert model.prompts[0].options is not None
    assert model.prompts[0].options.tool_names == ()
    assert responses(model.prompts[1])[0][1].startswith("Unknown tool 'stock_quote'")
    assert tools[10].runs == 0


def test_streaming_offers_the_same_tools() -> None:
    tools = catalog()
    model = ScriptedChatModel([call("parcel_rate_quote"), "USD 38.40."])
    spec = client(model, tools, ToolSearch(max_tools=2)).prompt("Postage of a parcel to Busan?")
    events = list(spec.stream().events())
    assert offered(model.prompts[0])[0] == "parcel_rate_quote"
    finished = [e.tool_name for e in events if isinstance(e, ToolCallFinished)]
    assert finished == ["parcel_rate_quote"]
    assert tools[4].runs == 1


def test_an_unoffered_call_in_a_stream_is_unknown_too() -> None:
    tools = catalog()
    model = ScriptedChatModel([call("stock_quote"), "Sorry."])
    spec = client(model, tools, ToolSearch(max_tools=2)).prompt("Weather in Oslo?")
    assert "".join(spec.stream().content()) == "Sorry."
    assert responses(model.prompts[1])[0][1].startswith("Unknown tool 'stock_quote'")
    assert tools[10].runs == 0


def test_the_request_is_kept_when_iterations_send_no_history() -> None:
    model = ScriptedChatModel([call("order_lookup"), "Refunded."])
    search = ToolSearch(max_tools=2)
    chat = client(model, catalog(), search, conversation_history_enabled=False)
    chat.prompt("Where is my order 17?").call()
    assert "order_lookup" in offered(model.prompts[1])  # no user message in this prompt


def test_memory_inside_the_loop_sees_the_narrowed_calls() -> None:
    memory = MessageWindowChatMemory(repository=InMemoryChatMemoryRepository())
    model = ScriptedChatModel([call("parcel_rate_quote"), "USD 38.40."])
    chat = ChatClient(
        model,
        tools=catalog(),
        advisors=[
            MessageChatMemoryAdvisor(memory, order=HIGHEST_PRECEDENCE + 400),
            ToolCallingAdvisor(tool_search=ToolSearch(max_tools=2)),
        ],
    )
    spec = chat.prompt("Postage of a parcel to Busan?")
    spec.advisor_param(ChatMemory.CONVERSATION_ID, "c").call()
    assert offered(model.prompts[0])[0] == "parcel_rate_quote"
    assert len(memory.get("c")) == 4  # request, call, result, answer


# -- the index: once per tool set -------------------------------------------------


class CountingIndex:
    """Wraps the real BM25 index and counts how often one is built."""

    builds: list[int]

    def __init__(self, definitions: Sequence[ToolDefinition]) -> None:
        from springtail import Bm25ToolIndex

        self._inner = Bm25ToolIndex(definitions)
        CountingIndex.builds.append(len(definitions))

    def search(self, query: str, *, limit: int) -> Sequence[ToolSearchHit]:
        return self._inner.search(query, limit=limit)


def test_the_index_is_built_once_per_tool_set_and_again_when_it_changes() -> None:
    CountingIndex.builds = []
    tools = catalog()
    current = list(tools)
    model = ScriptedChatModel(["a", "b", "c", "d"])
    search = ToolSearch(max_tools=2, index_factory=CountingIndex)
    chat = client(model, [lambda: current], search)  # a lazy provider, asked per request
    chat.prompt("Weather in Oslo?").call()
    chat.prompt("Flights to Oslo?").call()
    assert CountingIndex.builds == [12]
    current.append(Counted("ferry_timetable", "Ferry departures between two harbours."))
    chat.prompt("Ferry departures to Oslo?").call()
    assert CountingIndex.builds == [12, 13]
    assert offered(model.prompts[2])[-1] == "ferry_timetable"
    current.pop()
    chat.prompt("Weather in Oslo?").call()
    assert CountingIndex.builds == [12, 13]  # the first set's index was kept
    assert isinstance(CountingIndex(()), ToolIndex)


def test_an_mcp_server_whose_list_changed_is_searched_anew() -> None:
    with McpClient(raw_sdk_server(), name="raw", prefix="raw_") as mcp:
        model = ScriptedChatModel([call("raw_grow"), "Grown.", "Ran it."])
        chat = client(model, [mcp.tool_callbacks], ToolSearch(max_tools=2))
        version = mcp.tools_version
        chat.prompt("Grow: add a tool").call()
        deadline = time.monotonic() + 5
        while mcp.tools_version == version and time.monotonic() < deadline:
            time.sleep(0.02)
        chat.prompt("Run the tool that was added later").call()
    assert "raw_extra" not in offered(model.prompts[0])
    assert "raw_extra" in offered(model.prompts[2])


# -- search tool -------------------------------------------------------------------


def test_the_model_searches_then_calls_what_it_found() -> None:
    tools = catalog()
    model = ScriptedChatModel(
        [call("tool_search", {"query": "postage parcel"}), call("parcel_rate_quote"), "USD 38.40."]
    )
    search = ToolSearch(mode="search_tool", max_tools=3, max_results=2, always_on=["todo_add"])
    answer = client(model, tools, search).prompt("How much is a parcel to Busan?").call().content()
    assert answer == "USD 38.40."
    assert offered(model.prompts[0]) == ["todo_add", "tool_search"]
    [(name, text)] = responses(model.prompts[1])
    assert name == "tool_search"
    assert text.startswith("Found 1 tool(s), which can be called now:\n- parcel_rate_quote: Quote")
    assert offered(model.prompts[1]) == ["todo_add", "tool_search", "parcel_rate_quote"]
    assert responses(model.prompts[2]) == [("parcel_rate_quote", "USD 38.40")]
    assert tools[4].runs == 1


def test_the_search_tool_replaces_a_tool_even_when_the_counts_match() -> None:
    tools = catalog()[:3]
    model = ScriptedChatModel(["ok"])
    always_on = ["weather_forecast", "order_lookup"]
    search = ToolSearch(mode="search_tool", max_tools=2, always_on=always_on)
    client(model, tools, search).prompt("Flights?").call()
    assert offered(model.prompts[0]) == ["weather_forecast", "order_lookup", "tool_search"]


def test_found_tools_last_for_the_turn_only() -> None:
    model = ScriptedChatModel(
        [call("tool_search", {"query": "weather forecast"}), "Sunny.", "Hello again."]
    )
    chat = client(model, catalog(), ToolSearch(mode="search_tool", max_tools=3))
    chat.prompt("Weather in Oslo?").call()
    assert "weather_forecast" in offered(model.prompts[1])
    chat.prompt("Weather in Oslo?").call()
    assert offered(model.prompts[2]) == ["tool_search"]


def test_a_tool_not_found_is_unknown_in_search_tool_mode() -> None:
    tools = catalog()
    model = ScriptedChatModel([call("stock_quote"), "Sorry."])
    client(model, tools, ToolSearch(mode="search_tool", max_tools=3)).prompt("AAPL?").call()
    assert responses(model.prompts[1])[0][1].startswith(
        "Unknown tool 'stock_quote'. The available tools are: tool_search."
    )
    assert tools[10].runs == 0


def test_a_search_that_finds_nothing_says_so() -> None:
    model = ScriptedChatModel([call("tool_search", {"query": "zebra"}), "I cannot."])
    client(model, catalog(), ToolSearch(mode="search_tool", max_tools=3)).prompt("Zebras?").call()
    assert responses(model.prompts[1])[0][1].startswith("No tool matches 'zebra'.")


def test_a_request_tool_named_tool_search_is_refused_clearly() -> None:
    model = ScriptedChatModel(["never"])
    tools = [*catalog(), Counted("tool_search", "The application's own search.")]
    chat = client(model, tools, ToolSearch(mode="search_tool", max_tools=3))
    with pytest.raises(ValueError, match="rename that tool"):
        chat.prompt("Weather?").call()


# -- settings ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        ({"mode": "guess"}, ValueError, "mode must be 'retrieve' or 'search_tool'"),
        ({"max_tools": 0}, ValueError, "max_tools must be at least 1"),
        ({"max_tool_tokens": -5}, ValueError, "max_tool_tokens must be at least 1"),
        ({"max_results": 2.5}, TypeError, "max_results must be an int"),
        ({"min_score_ratio": 1.5}, ValueError, "min_score_ratio must lie between 0 and 1"),
        ({"always_on": "todo_add"}, TypeError, r"write always_on=\['todo_add'\]"),
    ],
)
def test_bad_settings_say_what_is_wrong(
    settings: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        ToolSearch(**settings)


def test_the_settings_are_readable() -> None:
    search = ToolSearch(mode="search_tool", always_on=["a"], max_tools=3, run_unoffered=True)
    assert (search.mode, search.always_on, search.max_tools, search.run_unoffered) == (
        "search_tool",
        frozenset({"a"}),
        3,
        True,
    )
    assert (search.max_tool_tokens, search.max_results, search.min_score_ratio) == (None, 5, 0.0)
    loop = ToolCallingAdvisor(tool_search=search)
    assert loop.tool_search is search
    assert "tool_search=ToolSearch(mode='search_tool'" in repr(loop)
    assert ToolCallingAdvisor().tool_search is None
