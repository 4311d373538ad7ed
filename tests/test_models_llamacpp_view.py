"""What a policy reads of a turn: the tools it has called, planned or just written."""

from __future__ import annotations

from fake_llama import ASKED, line, view
from springtail.messages import AssistantMessage, ToolCall, ToolResponse, ToolResponseMessage
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY


def test_the_tools_a_turn_has_taken_are_its_calls_its_open_plan_and_the_lines_written() -> None:
    ran = AssistantMessage(
        "",
        (ToolCall("c1", "today", "{}"),),
        {PLAN_KEY: ["r1 = today()", "r2 = weekday(day=r1)"], LINES_KEY: ["r1"]},
    )
    turn = view(ASKED, ran, ToolResponseMessage((ToolResponse("c1", "today", "2026-12-02"),)))
    assert turn.called() == {"today"}
    # weekday waits in the open plan: planned, not called, but taken.
    assert turn.taken() == {"today", "weekday"}
    assert turn.taken([line('r3 = days_between(start=r1, end="2026-12-25")')]) == {
        "today",
        "weekday",
        "days_between",
    }
    assert view(ASKED).taken() == set()
