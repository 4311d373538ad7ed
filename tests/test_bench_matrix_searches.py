"""bench/matrix/_searches.py: the twentieth pass's experiment E, on a scripted runtime."""

from __future__ import annotations

import json

from bench.matrix._policies import policy
from bench.matrix._searches import EmptySearchLooksElsewhere

from fake_llama import CALENDAR, ask, plan, replies, view
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import Offer
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY

ASKED_WIFI = UserMessage("What's the wifi password?")


def searched(result: str) -> list[Message]:
    call = ToolCall("c1", "find_events", '{"query": "wifi password"}')
    return [
        ASKED_WIFI,
        AssistantMessage(
            "", (call,), {PLAN_KEY: ['r1 = find_events(query="wifi password")'], LINES_KEY: ["r1"]}
        ),
        ToolResponseMessage((ToolResponse("c1", "find_events", result),)),
    ]


def test_a_search_that_found_nothing_makes_an_offer_of_the_searches_not_tried() -> None:
    rule = EmptySearchLooksElsewhere()
    notes = next(d for d in CALENDAR if d.name == "search_notes")
    assert rule.opening(view(*searched("[]")), CALENDAR) == Offer((notes,))
    # A search that found something, a result that is not JSON, and no results yet: pass.
    assert rule.opening(view(*searched('[{"id": "E-1"}]')), CALENDAR) is None
    assert rule.opening(view(*searched("nothing")), CALENDAR) is None
    assert rule.opening(view(ASKED_WIFI), CALENDAR) is None
    # Every search tried: nothing else to look in.
    events_only = tuple(d for d in CALENDAR if d.name != "search_notes")
    assert rule.opening(view(*searched("{}")), events_only) is None


def test_the_other_search_is_called_after_one_found_nothing_end_to_end() -> None:
    # Left to itself the model answers that nothing was found.
    notes = plan('r2 = search_notes(query="wifi")')
    script = replies(("No event holds a wifi password.", 9.0), (notes, 8.0))
    message = ask(script, searched("[]"), policy("with:EmptySearchLooksElsewhere"), CALENDAR)
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("search_notes", {"query": "wifi"})
    ]
