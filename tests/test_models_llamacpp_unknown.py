"""A plan line whose tool is not offered: a slip that glued a parameter on, or another tool."""

from __future__ import annotations

import json

from fake_llama import TOOLS, ask, plan
from springtail.messages import UserMessage
from springtail.models._llamacpp import Ref
from springtail.models._llamacpp._plan import PLAN_KEY
from springtail.models._llamacpp._unknown import unknown_call


def test_a_parameter_glued_onto_an_offered_tool_s_name_is_that_tool_s_call() -> None:
    glued = unknown_call("r2", " weekday_day(r1)", TOOLS)
    assert glued is not None
    assert (glued.tool, glued.arguments) == ("weekday", (("day", Ref("r1")),))
    # Without the underscore, and with named values after the positional one.
    joined = unknown_call("r3", ' days_betweenstart(r1, end="2026-04-01")', TOOLS)
    assert joined is not None
    assert (joined.tool, dict(joined.arguments)) == (
        "days_between",
        {"start": Ref("r1"), "end": "2026-04-01"},
    )


def test_another_unknown_tool_is_read_for_its_name_alone() -> None:
    # A suffix that is no parameter of the tool, or a tool that does not exist at all.
    for text, name in (
        (" today_as_text()", "today_as_text"),
        (' current_city("Oslo")', "current_city"),
    ):
        unknown = unknown_call("r1", text, TOOLS)
        assert unknown is not None
        assert (unknown.tool, unknown.arguments) == (name, ())
    # A value already named for the glued parameter does not read twice: the name alone.
    twice = unknown_call("r1", ' weekday_day(day="2026-12-25")', TOOLS)
    assert twice is not None
    assert twice.tool == "weekday_day"
    # An offered tool is no unknown call.
    assert unknown_call("r1", ' weekday(day="2026-12-25")', TOOLS) is None


def test_a_glued_call_runs_as_the_offered_tool_end_to_end() -> None:
    def script(prompt: str) -> list[tuple[str, float]]:
        return [(plan("r1 = today()", "r2 = weekday_day(r1)"), 5.0)]

    message = ask(script, [UserMessage("Which weekday is it today?")])
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [("today", {})]
    # The plan goes on from the line as it runs: the second line waits for today's date.
    assert message.metadata[PLAN_KEY] == ["r1 = today()", "r2 = weekday(day=r1)"]


def test_the_lines_after_a_glued_call_follow_it_as_the_offered_tool_s_call() -> None:
    # The model sees its glued line as the call it runs: a reply that goes on from
    # ``weekday(day=r1)`` is the one continued, not one that goes on from the glued text.
    glued = plan("r1 = today()", "r2 = weekday_day(r1)", "r3 = days_between(start=r1, end=r2)")
    called = plan("r1 = today()", "r2 = weekday(day=r1)", 'r3 = weekday(day="2026-12-25")')

    def script(prompt: str) -> list[tuple[str, float]]:
        return [(glued, 7.0), (called, 6.0)]

    asked = UserMessage("Which weekday is it today, and which is 2026-12-25?")
    message = ask(script, [asked])
    assert message.metadata[PLAN_KEY] == [
        "r1 = today()",
        "r2 = weekday(day=r1)",
        'r3 = weekday(day="2026-12-25")',
    ]
