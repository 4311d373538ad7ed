"""bench/matrix/_searches.py: the twentieth pass's two experiments, on a scripted runtime."""

from __future__ import annotations

import json

from bench.matrix._policies import policy
from bench.matrix._searches import (
    EmptySearchLooksElsewhere,
    MadeUpValuesSearchNamed,
    named_things,
    searches,
)

from fake_llama import Script, ask, line, plan, replies, schema, view
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import MadeUpValues, Offer, Retry
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

DAY: dict[str, object] = {"type": "string", "format": "date"}
TEXT: dict[str, object] = {"type": "string"}
CALENDAR = (
    ToolDefinition(
        "add_event",
        "Add an event to the calendar.",
        schema(title=TEXT, day=DAY, start={"type": "string", "description": "Start time, HH:MM"}),
    ),
    ToolDefinition(
        "find_free_slot",
        "The first free time on a day for an event of the given length.",
        schema(day=DAY, minutes={"type": "integer"}),
    ),
    ToolDefinition(
        "find_events",
        "Find events whose title holds a word of the query; returns ids and days.",
        schema(query=TEXT),
    ),
    ToolDefinition(
        "search_notes",
        "Find notes whose title or text holds the query; returns ids and titles.",
        schema(query=TEXT),
    ),
    ToolDefinition("cancel_event", "Cancel an event by its id.", schema(event_id=TEXT)),
    ToolDefinition("add_task", "Add a task to the list.", schema(title=TEXT)),
    ToolDefinition(
        "find_patient_by_id",
        "Find a patient by id.",
        schema(patient_id={"type": "string", "description": "The patient id, e.g. P-101"}),
    ),
)
PUSHED = "Push my dentist appointment to 2026-03-19, same time."
EARLY = 'r1 = add_event(title="Dentist", day="2026-03-19", start="10:00")'


def test_a_request_names_a_thing_of_the_user_s_when_a_word_of_it_is_no_tool_s() -> None:
    assert named_things(PUSHED, CALENDAR) == ("dentist appointment",)
    # "the day" is a tool's word; the phrase after "my" is not.
    assert named_things("On the day of my project review, find two free hours.", CALENDAR) == (
        "project review",
    )
    # Words that say which one ("the same time"), the tools' own words and quoted texts
    # name nothing.
    assert named_things("Move it to the same time on my calendar.", CALENDAR) == ()
    assert named_things("How many minutes are there in a day?", CALENDAR) == ()
    assert named_things("Put 'Call the bank' on my calendar for today.", CALENDAR) == ()


def test_searches_find_by_one_free_text_and_say_they_find() -> None:
    # Not a tool with a day or an id to give, nor one that takes a text but finds nothing.
    assert searches(CALENDAR) == frozenset({"find_events", "search_notes"})


def test_a_first_line_s_invented_time_for_a_thing_the_request_names_is_searched_first() -> None:
    asked = view(UserMessage(PUSHED))
    # The default retries with the tool whose words match ``start``: the free-slot finder.
    assert MadeUpValues().review(asked, line(EARLY), [], CALENDAR) == Retry(
        "add_event", only=frozenset({"find_free_slot"})
    )
    # S: no search speaks of a start time, and the free-slot finder needs a day and a length:
    # every search comes first, and the line comes back after it taking the time.
    assert MadeUpValuesSearchNamed().review(asked, line(EARLY), [], CALENDAR) == Retry(
        "add_event",
        only=frozenset({"find_events", "search_notes"}),
        looked_up=frozenset({"start"}),
    )
    # A quoted title is a value, not a thing to find: the default's answer.
    titled = view(UserMessage("Put 'Call the dentist' on my calendar on 2026-03-19."))
    assert MadeUpValuesSearchNamed().review(titled, line(EARLY), [], CALENDAR) == (
        MadeUpValues().review(titled, line(EARLY), [], CALENDAR)
    )


def test_a_search_whose_results_hold_days_is_the_one_for_an_invented_day() -> None:
    asked = view(UserMessage("On the day of my project review, find two free hours."))
    early = line('r1 = find_free_slot(day="2023-10-15", minutes=60)')
    assert MadeUpValuesSearchNamed().review(asked, early, [], CALENDAR) == Retry(
        "find_free_slot", only=frozenset({"find_events"}), looked_up=frozenset({"day"})
    )


def test_the_line_comes_back_after_the_search_for_what_the_request_names_end_to_end() -> None:
    def script() -> Script:
        return replies((plan(EARLY), 9.0), (plan('r1 = find_events(query="dentist")'), 8.0))

    searched = policy("with:MadeUpValuesSearchNamed")
    message = ask(script(), [UserMessage(PUSHED)], searched, tools=CALENDAR)
    assert [c.name for c in message.tool_calls] == ["find_events"]
    assert message.metadata[PLAN_KEY] == [
        'r1 = find_events(query="dentist")',
        'r2 = add_event(title="Dentist", day="2026-03-19", start=r1)',
    ]
    assert message.metadata[LINES_KEY] == ["r1"]


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
