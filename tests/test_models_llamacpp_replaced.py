"""_llamacpp/_replaced.py: a found record written again by an act is replaced."""

from __future__ import annotations

import json

from fake_llama import CALENDAR, ask, plan, replies, schema, view
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import FoundRecordReplaced, Offer, SmallModelPolicy
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

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
    # A request that adds one beside the found one keeps it.
    again = [
        UserMessage("Put the team sync on 2026-03-20 at the same time too."),
        *moved("Team Sync")[1:],
    ]
    assert rule.opening(view(*again), CALENDAR) is None
    # An act that made no record of the found one's kind (a message, "M-1") replaces nothing.
    message = ToolDefinition(
        "send_message", "Send a message.", schema(to={"type": "string"}, text={"type": "string"})
    )
    sent = moved("Team Sync")
    sent[3] = AssistantMessage(
        "",
        (ToolCall("c2", "send_message", '{"to": "Sam", "text": "Team sync moved"}'),),
        {LINES_KEY: ["r2"]},
    )
    sent[4] = ToolResponseMessage((ToolResponse("c2", "send_message", "M-1"),))
    assert rule.opening(view(*sent), (*CALENDAR, message)) is None
    assert rule.opening(view(MOVED), CALENDAR) is None


def test_the_replaced_record_is_cancelled_end_to_end() -> None:
    # Left to itself the model answers that the event was added.
    cancel = plan('r3 = cancel_event(event_id="E-1")')
    script = replies(("The team sync is now on 2026-03-20.", 9.0), (cancel, 8.0))
    message = ask(script, moved("Team Sync"), SmallModelPolicy(), CALENDAR)
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("cancel_event", {"event_id": "E-1"})
    ]
