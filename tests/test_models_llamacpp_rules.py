"""Each small-model rule on a scripted runtime: what it decides, and that it passes otherwise."""

from __future__ import annotations

import json

import pytest

from fake_llama import (
    ASKED,
    EVENTS,
    TOOLS,
    FakeRuntime,
    FakeTool,
    ask,
    line,
    plan,
    replies,
    schema,
    view,
)
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
from springtail.models._llamacpp import (
    ByShare,
    CallShare,
    Drop,
    FollowUpCallFloor,
    Free,
    LlamaCppChatModel,
    PlanLimit,
    Prose,
    RepeatAsProse,
    SmallModelPolicy,
    UnknownToolAsProse,
    UnstatedValueEnds,
)
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

WEEKDAY_CALL = ToolCall("c1", "weekday", '{"day": "2026-12-25"}')


def answered(*results: str) -> list[Message]:
    return [
        ASKED,
        AssistantMessage(
            "", (WEEKDAY_CALL,), {PLAN_KEY: ['r1 = weekday(day="2026-12-25")'], LINES_KEY: ["r1"]}
        ),
        ToolResponseMessage((ToolResponse("c1", "weekday", results[0] if results else "Friday"),)),
    ]


# -- PlanLimit ----------------------------------------------------------------------------


def test_after_its_second_plan_a_turn_answers_and_a_plan_still_runs_to_its_end() -> None:
    rule = PlanLimit()
    assert rule.opening(view(*answered()), TOOLS) is None  # one plan: another may follow
    replanned = [
        *answered(),
        AssistantMessage(
            "",
            (ToolCall("c2", "today", "{}"),),
            {PLAN_KEY: ["r2 = today()", "r3 = days_between(start=r2, end=r1)"], LINES_KEY: ["r2"]},
        ),
        ToolResponseMessage((ToolResponse("c2", "today", "2026-12-02"),)),
    ]
    assert view(*replanned).plan.plans == 2
    assert rule.opening(view(*replanned), TOOLS) == Prose()
    # The second plan's waiting line is written out, not cut by the limit.
    message = ask(replies(('"2026-12-02"', 9.0)), replanned)
    assert [c.name for c in message.tool_calls] == ["days_between"]
    # A limit of none would leave a turn no plan at all.
    with pytest.raises(ValueError, match="at least 1"):
        PlanLimit(0)


def test_an_answer_that_opens_as_a_plan_line_is_written_again_without_the_tools() -> None:
    replanned = [
        *answered(),
        AssistantMessage(
            "", (ToolCall("c2", "today", "{}"),), {PLAN_KEY: ["r2 = today()"], LINES_KEY: ["r2"]}
        ),
        ToolResponseMessage((ToolResponse("c2", "today", "2026-12-02"),)),
    ]
    assert PlanLimit().opening(view(*replanned), TOOLS) == Prose()

    def script(prompt: str) -> list[tuple[str, float]]:
        if "<tools>" in prompt:  # the prose the limit asks for goes on with the plan instead
            return [('rday = weekday(day="2026-12-02")', 5.0)]
        return [("2026-12-25 is a Friday, and today is 2026-12-02.", 5.0)]

    message = ask(script, replanned)
    assert message.tool_calls == ()
    assert message.text == "2026-12-25 is a Friday, and today is 2026-12-02."
    # The plan line was held back, never streamed.
    model = LlamaCppChatModel._over(FakeRuntime(script))
    options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in TOOLS))
    chunks = list(model.stream(Prompt(replanned, options)))
    streamed = "".join(c.result.output.text for c in chunks if c.result is not None)
    assert streamed == message.text


# -- CallShare ----------------------------------------------------------------------------


def test_a_first_reply_is_decided_by_the_share_of_call_openings() -> None:
    assert CallShare(0.3).opening(view(ASKED), TOOLS) == ByShare(0.3)
    assert CallShare().opening(view(*answered()), TOOLS) is None  # after results: another rule's


def test_the_share_beats_a_top_token_of_prose() -> None:
    # "To" is the likeliest single token, but three call openings share more.
    script = replies(
        ("To find out, I would call a function.", 6.0),
        (plan('r1 = weekday(day="2026-12-25")'), 5.7),
        ('{"name": "weekday"}', 5.7),
        ("```json", 5.7),
    )
    message = ask(script, [ASKED])
    assert [c.name for c in message.tool_calls] == ["weekday"]


def test_below_the_share_a_call_shaped_top_token_gives_prose() -> None:
    script = replies(
        (plan('r1 = weekday(day="2026-12-25")'), 6.0),
        ("It is a Friday.", 5.9),
        ("Friday.", 5.9),
        ("Christmas Day is a Friday.", 5.9),
        ("That day is a Friday.", 5.9),
    )
    policy = SmallModelPolicy(rules=(CallShare(0.6),))
    message = ask(script, [ASKED], policy)
    assert message.tool_calls == ()
    assert "Friday" in message.text


def test_a_share_threshold_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="threshold"):
        ByShare(0.0)
    with pytest.raises(ValueError, match="threshold"):
        CallShare(1.5)


# -- FollowUpCallFloor --------------------------------------------------------------------


def test_a_follow_up_gets_the_floor_and_a_first_request_does_not() -> None:
    follow_up: list[Message] = [
        ASKED,
        AssistantMessage("It is a Friday."),
        UserMessage("And 2026-12-26?"),
    ]
    assert FollowUpCallFloor(0.01).opening(view(*follow_up), TOOLS) == Free(call_floor=0.01)
    assert FollowUpCallFloor(0.01).opening(view(ASKED), TOOLS) is None


def test_a_follow_up_that_gives_calling_the_floor_calls() -> None:
    follow_up: list[Message] = [
        ASKED,
        AssistantMessage("It is a Friday."),
        UserMessage("And 2026-12-26?"),
    ]
    # (A logit of 1.0 would tie with the fake's end token, which then wins.)
    script = replies(("It is a Saturday.", 5.0), (plan('r1 = weekday(day="2026-12-26")'), 1.5))
    assert ask(script, follow_up).tool_calls != ()
    no_floor = SmallModelPolicy(rules=())
    assert ask(script, follow_up, no_floor).tool_calls == ()


def test_a_floor_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="floor"):
        FollowUpCallFloor(1.5)


# -- review rules -------------------------------------------------------------------------


def test_an_unknown_tool_in_the_first_line_is_prose_and_later_it_ends_the_plan() -> None:
    rule = UnknownToolAsProse()
    unknown = line('r1 = capital_of(country="France")')
    assert rule.review(view(ASKED), unknown, [], TOOLS) == Prose(without_tools=True)
    first = line('r1 = weekday(day="2026-12-25")')
    assert (
        rule.review(view(ASKED), line('r2 = capital_of(country="France")'), [first], TOOLS)
        == Drop()
    )
    assert rule.review(view(ASKED), first, [], TOOLS) is None


def test_an_unknown_tool_gets_an_answer_in_prose_end_to_end() -> None:
    def script(prompt: str) -> list[tuple[str, float]]:
        if "<tools>" in prompt:  # with the tools, the model would describe a call
            return [(plan('r1 = capital_of(country="France")'), 5.0), ("I called it.", 4.0)]
        return [("Paris is the capital of France.", 5.0)]

    message = ask(script, [UserMessage("What is the capital of France?")])
    assert message.tool_calls == ()
    assert message.text == "Paris is the capital of France."


def test_an_unknown_tool_called_with_positional_values_is_prose_too() -> None:
    def script(prompt: str) -> list[tuple[str, float]]:
        if "<tools>" in prompt:
            return [(plan('r1 = current_city("France")'), 5.0), ("I called it.", 4.0)]
        return [("Paris is the capital of France.", 5.0)]

    message = ask(script, [UserMessage("What is the capital of France?")])
    assert message.tool_calls == ()
    assert message.text == "Paris is the capital of France."


def test_a_repeat_of_a_call_made_this_turn_is_prose_first_and_ends_the_plan_later() -> None:
    rule = RepeatAsProse()
    again = line('r1 = weekday(day="2026-12-25")')
    state = view(*answered())
    # Nothing of the request is left to carry: the model is looping, and answers without tools.
    assert rule.review(state, again, [], TOOLS) == Prose(without_tools=True)
    assert rule.review(state, again, [line("r1 = today()")], TOOLS) == Drop()
    assert rule.review(state, line('r1 = weekday(day="2026-12-26")'), [], TOOLS) is None


def test_a_twin_that_takes_its_twin_s_result_as_an_id_ends_the_plan() -> None:
    rule = RepeatAsProse()
    asked = view(UserMessage("Clear everything off my calendar for 2026-03-16."))
    listing = line("r1 = event_list()")
    first = line("r2 = event_cancel(event_id=r1)")
    # The event's id is read from the day's events; the next cancel would read the first
    # cancel's "cancelled" as an id.
    assert rule.review(asked, first, [listing], EVENTS) is None
    assert rule.review(asked, line("r3 = event_cancel(event_id=r2)"), [listing, first], EVENTS) == (
        Drop()
    )
    # A number a twin computes is a step: "double it, then double it again".
    double = ToolDefinition(
        "multiply", "A product.", schema(left={"type": "number"}, right={"type": "number"})
    )
    once = line("r2 = multiply(left=r1, right=2)")
    twice = line("r3 = multiply(left=r2, right=2)")
    assert rule.review(asked, twice, [listing, once], (*EVENTS, double)) is None


def test_the_default_rules_are_six_general_guards_asked_in_order() -> None:
    rules = SmallModelPolicy().rules
    assert [type(r).__name__ for r in rules] == [
        "PlanLimit",
        "CallShare",
        "FollowUpCallFloor",
        "UnknownToolAsProse",
        "RepeatAsProse",
        "UnstatedValueEnds",
    ]
    assert json.dumps([type(r).__name__ for r in rules])  # plain values, printable


# -- UnstatedValueEnds ---------------------------------------------------------------------

STOCK = ToolDefinition("stock", "Units in stock of a SKU.", schema(sku={"type": "string"}))
RESERVE = ToolDefinition(
    "reserve",
    "Reserve units of a SKU.",
    schema(
        sku={"type": "string"},
        quantity={"type": "integer"},
        mode={"type": "string", "enum": ["hold", "firm"]},
    ),
)
SHOP = (STOCK, RESERVE)
ASKED_STOCK = UserMessage("Wie viele Einheiten von SKU-200 sind noch da?")


def test_a_later_line_with_a_number_nobody_stated_ends_the_plan() -> None:
    first = line('r1 = stock(sku="SKU-200")')
    invented = line('r2 = reserve(sku="SKU-200", quantity=10, mode="hold")')
    assert UnstatedValueEnds().review(view(ASKED_STOCK), invented, [first], SHOP) == Drop()


def test_a_later_line_whose_values_the_conversation_holds_stays() -> None:
    asked = UserMessage("Reserviere 3 Stück von SKU-200, nachdem du den Bestand geprüft hast.")
    first = line('r1 = stock(sku="SKU-200")')
    stated = line('r2 = reserve(sku="SKU-200", quantity=3, mode="firm")')
    assert UnstatedValueEnds().review(view(asked), stated, [first], SHOP) is None
    # A value a result gave is stated too, and a variable is never read.
    taken = line("r2 = reserve(sku=r1, quantity=r1)")
    assert UnstatedValueEnds().review(view(asked), taken, [first], SHOP) is None


def test_an_id_nobody_stated_ends_the_plan_and_free_text_is_not_read() -> None:
    first = line('r1 = stock(sku="SKU-200")')
    other_id = line('r2 = stock(sku="SKU-999")')
    assert UnstatedValueEnds().review(view(ASKED_STOCK), other_id, [first], SHOP) == Drop()
    words = line('r2 = stock(sku="the blue one")')
    assert UnstatedValueEnds().review(view(ASKED_STOCK), words, [first], SHOP) is None


def test_a_first_line_may_carry_a_value_the_model_knows() -> None:
    today = line('r1 = weekday(day="2026-12-07")')
    assert (
        UnstatedValueEnds().review(view(UserMessage("Which day is it?")), today, [], TOOLS) is None
    )


def test_a_plan_that_goes_on_with_an_invented_value_runs_only_what_was_asked() -> None:
    script = replies(
        (
            plan(
                'r1 = stock(sku="SKU-200")', 'r2 = reserve(sku="SKU-200", quantity=10, mode="hold")'
            ),
            9.0,
        )
    )
    message = ask(script, [ASKED_STOCK], tools=SHOP)
    assert [c.name for c in message.tool_calls] == ["stock"]
    assert message.metadata[PLAN_KEY] == ['r1 = stock(sku="SKU-200")']
