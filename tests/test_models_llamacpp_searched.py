"""_llamacpp/_searched.py: what a request names that only a search finds."""

from __future__ import annotations

from fake_llama import CALENDAR
from springtail.models._llamacpp._searched import named_things, searches

PUSHED = "Push my dentist appointment to 2026-03-19, same time."


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
