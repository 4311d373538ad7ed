"""The plan as a value: lines read and written, and where a plan stands from messages alone."""

from __future__ import annotations

import pytest

from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp._plan import (
    LINES_KEY,
    PLAN_KEY,
    Plan,
    PlanLine,
    PlanState,
    Ref,
    Template,
    call_line,
    call_text,
    python_value,
    read_value,
    variables,
)


@pytest.mark.parametrize(
    "source",
    [
        'r1 = product_lookup(sku="SKU-300")',
        'r2 = product_reserve(sku="SKU-300", quantity=r1)',
        "r1 = today()",
        'r1 = f(x=[1, 2.5, True, None], y={"k": [3, "a\\nb"]}, z=-3)',
        'r1 = my-tool(first-name="Ann", from="x")',  # JSON names Python would refuse
        'r3 = send(to="Sam", text=f"Order {r1} costs {r2} yen")',  # texts built from results
        'r2 = send(text="Order " + r1 + ".")',
    ],
)
def test_a_line_reads_back_as_it_was_written(source: str) -> None:
    line = PlanLine.parse(source)
    assert line is not None
    assert line.source() == source
    assert PlanLine.parse(line.source()) == line


@pytest.mark.parametrize(
    "source",
    [
        "r1 = 12 * 7",  # arithmetic is not a call
        "print(r1)",
        'r1 = f(x="open',
        "r1 = f(a=1, a=2)",  # one argument twice
        "r1 = f(1, 2)",  # positional arguments: the grammar writes names
        'r1 = f(y={"k": [r1]})',  # a variable inside a value: only whole arguments
        'r2 = f(x=f"no field")',  # an f-string that uses no result is a plain string
        'r2 = f(x="a" + "b")',
        "r2 = f(x=r1 + 3)",  # arithmetic
        'r2 = f(x=f"{r1.email}")',  # a field is a variable, nothing more
        "r1 = f(x=1) extra",
    ],
)
def test_what_is_not_a_plan_line_is_refused(source: str) -> None:
    assert PlanLine.parse(source) is None


def test_references_are_whole_arguments_and_binding_fills_them() -> None:
    line = PlanLine.parse('r3 = book(patient=r1, day="2026-12-05", slot=r2)')
    assert line is not None
    assert line.refs == {"r1", "r2"}
    assert line.bound({"r1": "P-101", "r2": "09:00"}) == {
        "patient": "P-101",
        "day": "2026-12-05",
        "slot": "09:00",
    }
    assert dict(line.arguments)["patient"] == Ref("r1")


def test_values_are_written_as_the_grammar_writes_them() -> None:
    assert python_value(None) == "None"
    assert python_value(True) == "True"
    assert python_value('a"b') == '"a\\"b"'
    assert python_value({"k": [1, False]}) == '{"k": [1, False]}'
    assert call_line("r1", "f", [("a", 1), ("b", Ref("r0"))]) == "r1 = f(a=1, b=r0)"
    assert call_text("f", [("a", "x")]) == 'f(a="x")'
    assert read_value(' "x@y.com" ') == "x@y.com"
    assert read_value("None") is None
    with pytest.raises(ValueError, match="more than one value"):
        read_value("4, 5")


def test_a_plan_stored_as_other_data_is_no_plan() -> None:
    assert Plan.of(["r1 = today()"]) == Plan((PlanLine("r1", "today", ()),))
    for stored in (None, [], "r1 = today()", ["r1 = 1 + 1"], [3], ["# Step 1: Nothing"]):
        assert Plan.of(stored) is None


def test_a_step_comment_stays_above_its_line() -> None:
    # The conversation shows the plan as the model wrote it, comments included, so the
    # next request's prompt starts with the tokens already in the KV cache.
    stored = ["r1 = today()", "# Step 2: Get the day of the week", "r2 = weekday(day=r1)"]
    plan = Plan.of(stored)
    assert plan is not None
    assert [line.comment for line in plan.lines] == ["", "# Step 2: Get the day of the week"]
    assert plan.lines[1].refs == {"r1"}
    assert plan.source() == stored


LOOKUP = ToolCall("a", "product_lookup", '{"sku": "SKU-300"}')
OPENED = AssistantMessage(
    "",
    (LOOKUP,),
    {
        PLAN_KEY: [
            'r1 = product_lookup(sku="SKU-300")',
            'r2 = product_reserve(sku="SKU-300", quantity=r1)',
        ],
        LINES_KEY: ["r1"],
    },
)


def test_the_state_says_what_ran_what_is_pending_and_what_is_ready() -> None:
    asked = UserMessage("Reserve all of SKU-300")
    before = PlanState.of([asked, OPENED])
    assert [line.variable for line in before.pending] == ["r2"]
    assert before.ready() == ()  # r1 has not answered yet
    answered = ToolResponseMessage((ToolResponse("a", "product_lookup", "4 in stock"),))
    state = PlanState.of([asked, OPENED, answered])
    assert [line.variable for line in state.ready()] == ["r2"]
    assert state.results["r1"].data == "4 in stock"
    assert state.next_variable() == "r3"
    failed = ToolResponseMessage((ToolResponse("a", "product_lookup", "down", is_error=True),))
    assert PlanState.of([asked, OPENED, failed]).ready() == ()


def test_a_new_request_starts_a_new_turn_with_no_plan() -> None:
    state = PlanState.of([UserMessage("x"), OPENED, UserMessage("something else")])
    assert state.plan is None
    assert state.next_variable() == "r1"


def test_calls_without_names_are_numbered_in_order_across_the_conversation() -> None:
    foreign = AssistantMessage("", (ToolCall("x", "a", "{}"), ToolCall("y", "b", "{}")))
    later = AssistantMessage("", (ToolCall("z", "c", "{}"),))
    third = AssistantMessage("", (ToolCall("w", "d", "{}"),))
    named = variables([UserMessage("1"), foreign, later, UserMessage("2"), third, OPENED])
    # A stored name is kept; a call without one takes the next name nobody used.
    assert named == {"x": "r1", "y": "r2", "z": "r3", "w": "r4", "a": "r1"}


def test_an_earlier_turn_s_result_is_a_variable_a_new_plan_may_pass() -> None:
    quoted = AssistantMessage(
        "", (ToolCall("q", "quote", "{}"),), {PLAN_KEY: ["r1 = quote()"], LINES_KEY: ["r1"]}
    )
    first: list[Message] = [
        UserMessage("Quote it."),
        quoted,
        ToolResponseMessage((ToolResponse("q", "quote", "120.0"),)),
        AssistantMessage("It costs 120."),
    ]
    state = PlanState.of([*first, UserMessage("Und in Euro?")])
    assert state.results == {}  # this turn has run nothing
    assert state.earlier["r1"].data == "120.0"
    assert state.readable["r1"].data == "120.0"
    assert state.next_variable() == "r2"  # numbering goes on, so r1 stays the quote
    converts = AssistantMessage(
        "",
        (),
        {PLAN_KEY: ['r2 = convert(amount=r1, to="EUR")'], LINES_KEY: []},
    )
    resumed = PlanState.of([*first, UserMessage("Und in Euro?"), converts])
    assert [line.variable for line in resumed.ready()] == ["r2"]  # r1 answered a turn ago


def test_a_text_built_from_results_needs_each_of_them() -> None:
    line = PlanLine.parse('r3 = send(to=r1, text=f"Hi {r2}", note="x" + r1)')
    assert line is not None
    assert line.refs == {"r1", "r2"}
    text = dict(line.arguments)["text"]
    assert text == Template('f"Hi {r2}"', frozenset({"r2"}))
    assert text.render({"r2": "Aisha"}) == "Hi Aisha"
