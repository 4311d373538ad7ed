"""bench/matrix/_searches.py: the twentieth pass's two experiments, on a scripted runtime."""

from __future__ import annotations

import json

from bench.matrix._policies import policy
from bench.matrix._searches import (
    EmptySearchLooksElsewhere,
    FoundRecordReplaced,
    MadeUpValuesSearchNamed,
    named_things,
    searches,
)

from fake_llama import FakeRuntime, FakeTool, Script, ask, line, plan, replies, schema, view
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Message,
    Prompt,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import LlamaCppChatModel, MadeUpValues, Offer, Retry
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


MOVED = UserMessage("Move the team sync to 2026-03-20 at the same time.")
FOUND = '[{"id": "E-1", "title": "Team sync", "day": "2026-03-16", "start": "09:00"}]'


def moved(added: str, *, cancelled: bool = False) -> list[Message]:
    """The move request after its search and the act that wrote ``added`` as a title."""
    search = ToolCall("c1", "find_events", '{"query": "team sync"}')
    add = ToolCall(
        "c2", "add_event", json.dumps({"title": added, "day": "2026-03-20", "start": "09:00"})
    )
    lines = [
        'r1 = find_events(query="team sync")',
        f'r2 = add_event(title="{added}", day="2026-03-20", start=r1)',
    ]
    messages: list[Message] = [
        MOVED,
        AssistantMessage("", (search,), {PLAN_KEY: lines, LINES_KEY: ["r1"]}),
        ToolResponseMessage((ToolResponse("c1", "find_events", FOUND),)),
        AssistantMessage("", (add,), {LINES_KEY: ["r2"]}),  # the plan's next line
        ToolResponseMessage((ToolResponse("c2", "add_event", "E-4"),)),
    ]
    if cancelled:
        cancel = ToolCall("c3", "cancel_event", '{"event_id": "E-1"}')
        messages += [
            AssistantMessage("", (cancel,), {PLAN_KEY: ['r3 = cancel_event(event_id="E-1")']}),
            ToolResponseMessage((ToolResponse("c3", "cancel_event", "cancelled"),)),
        ]
    return messages


def test_a_found_record_an_act_wrote_again_is_offered_to_the_tools_that_take_its_id() -> None:
    rule = FoundRecordReplaced()
    offer = rule.opening(view(*moved("Team Sync")), CALENDAR)
    assert isinstance(offer, Offer)
    assert [d.name for d in offer.tools] == ["cancel_event"]
    assert offer.wanted == frozenset({"e-1"})
    # Offered free, the model wrote the new event's id: the id is held by the grammar.
    assert offer.tools[0].input_schema["properties"]["event_id"]["enum"] == ["E-1"]
    # A new event of its own title ("Prep" on the day found) replaces nothing; an id a call
    # carried already is not offered again; and before any result there is nothing found.
    assert rule.opening(view(*moved("Prep")), CALENDAR) is None
    assert rule.opening(view(*moved("Team Sync", cancelled=True)), CALENDAR) is None
    assert rule.opening(view(MOVED), CALENDAR) is None


def test_the_replaced_record_is_cancelled_end_to_end() -> None:
    # Left to itself the model answers that the event was added.
    cancel = plan('r3 = cancel_event(event_id="E-1")')
    script = replies(("The team sync is now on 2026-03-20.", 9.0), (cancel, 8.0))
    message = ask(script, moved("Team Sync"), policy("with:FoundRecordReplaced"), CALENDAR)
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("cancel_event", {"event_id": "E-1"})
    ]


def test_a_held_search_writes_only_what_the_request_names_end_to_end() -> None:
    # The grammar of the search line holds its query to "team sync": the fake runtime
    # does not read values, so the grammar it was given is the check.
    asked = UserMessage(
        "Put a 30-minute 'Prep' at the first free time on the day of the team sync."
    )
    early = 'r1 = find_free_slot(day="2023-04-15", minutes=30)'
    script = replies((plan(early), 9.0), (plan('r1 = find_events(query="team sync")'), 8.0))
    held = MadeUpValuesSearchNamed(hold_texts=True)
    assert held.review(view(asked), line(early), [], CALENDAR) == Retry(
        "find_free_slot",
        only=frozenset({"find_events"}),
        looked_up=frozenset({"day"}),
        texts=frozenset({"team sync"}),
    )
    runtime = FakeRuntime(script)
    model = LlamaCppChatModel._over(runtime, policy=policy("with:SearchNamedHeld"))
    options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in CALENDAR))
    result = model.call(Prompt([asked], options)).result
    assert result is not None
    message = result.output
    assert [c.name for c in message.tool_calls] == ["find_events"]
    # The search line was written under a grammar whose query is the thing named.
    search_grammars = [
        g for g in runtime.grammars if g and "find_events(" in g and "t1 ::=" not in g
    ]
    assert search_grammars
    assert all('"\\"team sync\\""' in g for g in search_grammars)
    assert message.metadata[PLAN_KEY] == [
        'r1 = find_events(query="team sync")',
        "r2 = find_free_slot(day=r1, minutes=30)",
    ]
