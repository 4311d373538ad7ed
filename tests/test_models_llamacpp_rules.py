"""Each small-model rule on a scripted runtime: what it decides, and that it passes otherwise.

``MadeUpValues`` has its own file (``test_models_llamacpp_made_up.py``), as
have the readings the rules share (``test_models_llamacpp_rule.py``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from fake_llama import (
    ASKED,
    ASKED_AVERAGE,
    CANCEL,
    EVENTS,
    QUOTE_LINES,
    SHIPPING,
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
    Keep,
    LlamaCppChatModel,
    LookUpFirst,
    More,
    Offer,
    PlanLimit,
    PlanLine,
    Prose,
    RepeatAsProse,
    Retry,
    Review,
    Rule,
    SmallModelPolicy,
    TurnView,
    UnknownToolAsProse,
    UnusedValuesAskMore,
    ValueFitsElsewhere,
)
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.models._llamacpp._rule import unused_values
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
    assert CallShare(0.3, named=0.1).opening(view(ASKED), TOOLS) == ByShare(0.3, named=0.1)
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


DESCRIBED = "To find out, I need to call the `weekday` function with 2026-12-25. It is a day."
NAMED = SmallModelPolicy(rules=(CallShare(0.3, named=0.1),))


def test_prose_that_names_a_tool_under_the_share_is_the_call_it_describes() -> None:
    # The call's share is about 0.27: prose by the threshold, but its first sentence
    # describes the call the model meant. That sentence is never shown.
    script = replies((DESCRIBED, 6.0), (plan('r1 = weekday(day="2026-12-25")'), 5.0))
    message = ask(script, [ASKED], NAMED)
    assert [c.name for c in message.tool_calls] == ["weekday"]
    model = LlamaCppChatModel._over(FakeRuntime(script), policy=NAMED)
    options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in TOOLS))
    chunks = list(model.stream(Prompt([ASKED], options)))
    streamed = "".join(c.result.output.text for c in chunks if c.result is not None)
    assert "weekday" not in streamed
    # Without the named share (the default), the description is the answer.
    assert ask(script, [ASKED]).text == DESCRIBED


def test_a_reply_of_one_sentence_that_describes_the_call_is_that_call() -> None:
    described = "To find out, I need to call the `weekday` function with 2026-12-25."
    script = replies((described, 6.0), (plan('r1 = weekday(day="2026-12-25")'), 5.0))
    assert [c.name for c in ask(script, [ASKED], NAMED).tool_calls] == ["weekday"]


def test_prose_that_names_a_tool_far_under_the_share_stays_prose() -> None:
    # At a share of about 0.05 the model is answering: a tool it names is part of the answer.
    script = replies((DESCRIBED, 6.0), (plan('r1 = weekday(day="2026-12-25")'), 3.0))
    message = ask(script, [ASKED], NAMED)
    assert message.tool_calls == ()
    assert message.text == DESCRIBED


def test_prose_under_the_share_that_names_no_tool_streams_as_before() -> None:
    said = "Christmas Day 2026 falls on a Friday. Enjoy it."
    script = replies((said, 6.0), (plan('r1 = weekday(day="2026-12-25")'), 5.0))
    model = LlamaCppChatModel._over(FakeRuntime(script), policy=NAMED)
    options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in TOOLS))
    chunks = list(model.stream(Prompt([ASKED], options)))
    streamed = "".join(c.result.output.text for c in chunks if c.result is not None)
    assert streamed == said


def test_a_share_threshold_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="threshold"):
        ByShare(0.0)
    with pytest.raises(ValueError, match="named"):
        ByShare(0.3, named=0.5)


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


def test_a_repeat_while_the_request_has_values_left_retries_without_that_tool() -> None:
    rule = RepeatAsProse()
    asked = UserMessage("What day of the week is 2026-12-25, and how many days until 2027-01-01?")
    state = view(asked, *answered()[1:])
    again = line('r2 = weekday(day="2026-12-25")')
    assert rule.review(state, again, [], TOOLS) == Retry("weekday", frozenset({"2027-01-01"}))


# -- UnusedValuesAskMore -----------------------------------------------------------------------


def test_while_a_request_value_is_carried_by_no_line_another_line_must_carry_it() -> None:
    rule = UnusedValuesAskMore()
    asked = view(UserMessage("How many days from 2026-12-01 to 2026-12-25, and send it to Sam?"))
    first = line('r1 = days_between(start="2026-12-01", end="2026-12-25")')
    assert rule.next(asked, [first], TOOLS) == More(frozenset({"sam"}))
    sent = line('r2 = weekday(day="Sam")')
    assert rule.next(asked, [first, sent], TOOLS) is None
    # The values the turn's calls carried count too, as do the plan's earlier lines.
    assert rule.next(view(*answered()), [], TOOLS) is None


def test_a_plan_that_stops_a_step_short_is_asked_for_the_step_the_request_names() -> None:
    asked = UserMessage("How many days from today until 2026-12-25?")
    short = plan("r1 = today()")
    whole = plan("r1 = today()", 'r2 = days_between(start=r1, end="2026-12-25")')
    message = ask(replies((short, 9.0), (whole, 8.0)), [asked])
    assert [c.name for c in message.tool_calls] == ["today"]
    assert message.metadata[PLAN_KEY] == [
        "r1 = today()",
        'r2 = days_between(start=r1, end="2026-12-25")',
    ]
    without = SmallModelPolicy(
        rules=tuple(r for r in SmallModelPolicy().rules if not isinstance(r, UnusedValuesAskMore))
    )
    stopped = ask(replies((short, 9.0), (whole, 8.0)), [asked], without)
    assert stopped.metadata[PLAN_KEY] == ["r1 = today()"]


def test_a_step_between_that_takes_a_result_keeps_the_values_wanted_after_it() -> None:
    asked = UserMessage("Which weekday is today? Count the days to it from Sam.")
    lines = ("r1 = today()", "r2 = weekday(day=r1)", 'r3 = days_between(start="Sam", end=r2)')
    message = ask(replies(plan(*lines)), [asked])
    # weekday carries no value of the request, but the model meant it and it takes r1: a step
    # between, after which the next line carries "Sam".
    assert message.metadata[PLAN_KEY] == list(lines)


def test_one_step_between_then_a_line_must_carry_the_wanted_values() -> None:
    asked = UserMessage("Which weekday is today? Count the days to it from Sam.")
    start = ("r1 = today()", "r2 = weekday(day=r1)")
    wandering = plan(*start, "r3 = weekday(day=r2)", 'r4 = days_between(start="Sam", end=r3)')
    direct = plan(*start, 'r3 = days_between(start="Sam", end=r2)')
    message = ask(replies((wandering, 9.0), (direct, 8.0)), [asked])
    assert message.metadata[PLAN_KEY] == [*start, 'r3 = days_between(start="Sam", end=r2)']


def test_a_line_written_again_without_its_tool_is_not_a_step_between() -> None:
    request = UserMessage("How many days is it from today until 2026-04-01?")
    # Asked for a line that carries the date, the model repeats today(); written again
    # without it, its second choice only passes r1 on: the plan ends before it.
    script = replies(
        (plan("r1 = today()", "r2 = today()"), 9.0),
        (plan("r1 = today()", "r2 = weekday(day=r1)"), 8.0),
    )
    message = ask(script, [request])
    assert [c.name for c in message.tool_calls] == ["today"]
    assert message.metadata[PLAN_KEY] == ["r1 = today()"]


def test_after_results_values_no_call_carried_make_an_offer_of_the_tools() -> None:
    rule = UnusedValuesAskMore()
    asked = UserMessage("How many days is it from today until 2026-04-01?")
    ran: list[Message] = [
        asked,
        AssistantMessage(
            "", (ToolCall("c1", "today", "{}"),), {PLAN_KEY: ["r1 = today()"], LINES_KEY: ["r1"]}
        ),
        ToolResponseMessage((ToolResponse("c1", "today", "2026-03-14"),)),
    ]
    assert rule.opening(view(*ran), TOOLS) == Offer(TOOLS, frozenset({"2026-04-01"}))
    assert rule.opening(view(asked), TOOLS) is None  # before results the plan asks for more
    assert rule.opening(view(*answered()), TOOLS) is None  # every value carried
    # A plain number left is folded into the answer, not offered to a tool.
    counted = [UserMessage("What day of the week is 2026-12-25, and add 10 to its day?")]
    assert rule.opening(view(*counted, *answered()[1:]), TOOLS) is None


def test_with_every_value_carried_a_step_the_request_names_is_asked_for() -> None:
    tools, average = SHIPPING, SHIPPING[1]
    request = UserMessage(ASKED_AVERAGE)
    quotes = [line(source) for source in QUOTE_LINES]
    rule = UnusedValuesAskMore()
    assert rule.next(view(request), quotes, tools) == More(tools=frozenset({"average"}))
    # Only a plan that has begun: a request may name a tool's word and need no call.
    assert rule.next(view(UserMessage("What is an average, in one sentence?")), [], tools) is None
    assert UnusedValuesAskMore(named_steps=False).next(view(request), quotes, tools) is None
    # After the quotes ran, the named tool is offered.
    calls = tuple(
        ToolCall(f"c{i}", "shipping_quote", json.dumps(dict(q.arguments)))
        for i, q in enumerate(quotes)
    )
    ran: list[Message] = [
        request,
        AssistantMessage(
            "", calls, {PLAN_KEY: [q.source() for q in quotes], LINES_KEY: ["r1", "r2"]}
        ),
        ToolResponseMessage(
            (
                ToolResponse("c0", "shipping_quote", "21.5"),
                ToolResponse("c1", "shipping_quote", "33.0"),
            )
        ),
    ]
    assert rule.opening(view(*ran), tools) == Offer((average,))
    assert UnusedValuesAskMore(named_steps=False).opening(view(*ran), tools) is None


def test_after_results_no_more_lines_are_asked_for() -> None:
    asked = UserMessage("What day of the week is 2026-12-25? Tell Sam.")
    state = view(asked, *answered()[1:])
    assert unused_values(state, [], TOOLS) == {"sam"}
    assert UnusedValuesAskMore().next(state, [], TOOLS) is None


def test_an_asked_for_line_that_picks_a_near_tool_is_written_again_without_it() -> None:
    asked = UserMessage("What day of the week is 2026-12-25 and how many days until 2027-01-01?")
    near = plan('r1 = weekday(day="2026-12-25")', 'r2 = weekday(day="2026-12-26")')
    right = plan(
        'r1 = weekday(day="2026-12-25")', 'r2 = days_between(start="2026-12-25", end="2027-01-01")'
    )
    message = ask(replies((near, 9.0), (right, 8.0)), [asked])
    assert [c.name for c in message.tool_calls] == ["weekday", "days_between"]


# -- More(tools=...) ------------------------------------------------------------------------

SEND = ToolDefinition(
    "send_message", "Send a text message to the user's phone.", schema(text={"type": "string"})
)
SEND_IT = UserMessage("Send me the weekday of 2026-12-25.")
WEEKDAY_LINE = 'r1 = weekday(day="2026-12-25")'


@dataclass(frozen=True)
class SendNext(Rule):
    """A rule of an application's own: after the first line, a message follows."""

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> More | None:
        return More(tools=frozenset({"send_message"})) if len(written) == 1 else None


def test_a_line_asked_for_with_tools_calls_one_of_them_whatever_the_model_would_have_called() -> (
    None
):
    short = plan(WEEKDAY_LINE)
    wander = plan(WEEKDAY_LINE, "r2 = today()")
    whole = plan(WEEKDAY_LINE, "r2 = send_message(text=r1)")
    policy = SmallModelPolicy(rules=(SendNext(), *SmallModelPolicy().rules))
    message = ask(
        replies((short, 9.0), (wander, 8.5), (whole, 8.0)), [SEND_IT], policy, (*TOOLS, SEND)
    )
    assert message.metadata[PLAN_KEY] == [WEEKDAY_LINE, "r2 = send_message(text=r1)"]
    # Asked for more without tools named, the model's own next line stands.
    more = SmallModelPolicy(rules=(MoreAfterOne(), *SmallModelPolicy().rules))
    wandered = ask(
        replies((short, 9.0), (wander, 8.5), (whole, 8.0)), [SEND_IT], more, (*TOOLS, SEND)
    )
    assert wandered.metadata[PLAN_KEY] == [WEEKDAY_LINE, "r2 = today()"]


@dataclass(frozen=True)
class MoreAfterOne(Rule):
    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> More | None:
        return More() if len(written) == 1 else None


# -- Keep(instead_of=...) -----------------------------------------------------------------


@dataclass(frozen=True)
class _ListingGivesWay(Rule):
    """A user's rule: a later call with arguments stands instead of the listing before it."""

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        broad = frozenset(w.variable for w in written if not w.arguments)
        return Keep(instead_of=broad) if line.arguments and broad else None


def test_a_rule_can_keep_a_line_instead_of_earlier_ones_that_then_do_not_run() -> None:
    """A user's rule may; the default ``StrayLineGoes`` does so only for lines carrying nothing."""
    narrowing = SmallModelPolicy(rules=(_ListingGivesWay(), *SmallModelPolicy().rules))
    script = replies(plan("r1 = event_list()", 'r2 = event_cancel(event_id="E-7")'))
    message = ask(script, [CANCEL], narrowing, EVENTS)
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("event_cancel", {"event_id": "E-7"})
    ]
    assert message.metadata[PLAN_KEY] == ['r2 = event_cancel(event_id="E-7")']
    # The default rules keep a listing the request speaks of (``StrayLineGoes``, below).
    kept = ask(
        replies(plan("r1 = event_list()", 'r2 = event_cancel(event_id="E-7")')),
        [UserMessage("List my events, then cancel E-7.")],
        tools=EVENTS,
    )
    assert [c.name for c in kept.tool_calls] == ["event_list", "event_cancel"]


def test_the_default_rules_are_small_classes_asked_in_order() -> None:
    rules = SmallModelPolicy().rules
    assert [type(r).__name__ for r in rules] == [
        "PlanLimit",
        "CallShare",
        "FollowUpCallFloor",
        "CombinedResultsEnd",
        "LookAfterActGoes",
        "UnaskedActGoes",
        "UnknownToolAsProse",
        "RepeatAsProse",
        "StepBetweenFirst",
        "ValueFitsElsewhere",
        "LookUpFirst",
        "MadeUpValues",
        "UnusedValuesAskMore",
        "StrayLineGoes",
        "FoundRecordReplaced",
        "BareStepAsked",
        "ValueInItsSlot",
    ]
    assert json.dumps([type(r).__name__ for r in rules])  # plain values, printable


def test_an_asked_for_line_that_repeats_the_line_before_is_written_again_without_its_tool() -> None:
    asked = UserMessage("What day of the week is 2026-12-25 and how many days until 2027-01-01?")
    first = 'r1 = weekday(day="2026-12-25")'
    looping = plan(first, 'r2 = weekday(day="2026-12-25")')
    right = plan(first, 'r2 = days_between(start="2026-12-25", end="2027-01-01")')
    message = ask(replies((looping, 9.0), (right, 8.0)), [asked])
    assert [c.name for c in message.tool_calls] == ["weekday", "days_between"]


# -- ValueFitsElsewhere -------------------------------------------------------------------

SEARCH = ToolDefinition(
    "member_search",
    "Members whose name holds the text.",
    schema(name={"type": "string", "description": "A name or part of one, e.g. Khan"}),
)
RECORD = ToolDefinition(
    "member_record",
    "A member's record by id.",
    schema(member_id={"type": "string", "description": "The member id, e.g. M-101"}),
)
NOTIFY = ToolDefinition(
    "notify",
    "Send a member a note.",
    schema(member_id={"type": "string"}, text={"type": "string"}),
)
MEMBERS = (SEARCH, RECORD, NOTIFY)


def test_an_id_written_into_a_parameter_whose_example_it_does_not_fit_retries() -> None:
    rule = ValueFitsElsewhere()
    asked = view(UserMessage("Pull up the record of member M-103."))
    searched = line('r1 = member_search(name="M-103")')
    assert rule.review(asked, searched, [], MEMBERS) == Retry(
        "member_search", frozenset({"m-103"}), only=frozenset({"member_record"})
    )
    # Where it fits, or another tool takes it under the same name, the line stands.
    assert rule.review(asked, line('r1 = member_record(member_id="M-103")'), [], MEMBERS) is None
    assert (
        rule.review(asked, line('r1 = notify(member_id="M-103", text="Hi")'), [], MEMBERS) is None
    )
    # A name fits no id's shape; a value the request did not give is another rule's.
    named = view(UserMessage("Find member Khan."))
    assert rule.review(named, line('r1 = member_search(name="Khan")'), [], MEMBERS) is None
    assert rule.review(asked, line('r1 = member_search(name="M-104")'), [], MEMBERS) is None


UNITS: dict[str, object] = {"type": "string", "enum": ["km", "mi", "kg", "lb"]}
CONVERT = ToolDefinition(
    "convert",
    "Convert a value between units.",
    schema(value={"type": "number"}, from_unit=UNITS, to_unit=UNITS),
)
FREIGHT = ToolDefinition(
    "freight_quote",
    "The price of sending a crate.",
    schema(weight_kg={"type": "number"}, country={"type": "string"}),
)


def test_a_number_in_another_unit_than_its_parameter_s_is_converted_first() -> None:
    rule = ValueFitsElsewhere()
    asked = view(UserMessage("A crate weighs 10 lb. What does sending it to Chile cost?"))
    quoted = line('r1 = freight_quote(weight_kg=10, country="Chile")')
    # The 10 is in pounds and the parameter takes kilograms: the converter comes first, and
    # the quote comes back after it taking the result.
    assert rule.review(asked, quoted, [], (FREIGHT, CONVERT)) == Retry(
        "freight_quote", only=frozenset({"convert"}), looked_up=frozenset({"weight_kg"})
    )
    # Kilograms already, no unit written, or nothing that converts: the line stands.
    kilos = view(UserMessage("A crate weighs 10 kg. What does sending it to Chile cost?"))
    assert rule.review(kilos, quoted, [], (FREIGHT, CONVERT)) is None
    bare = view(UserMessage("Quote a crate of 10 to Chile."))
    assert rule.review(bare, quoted, [], (FREIGHT, CONVERT)) is None
    assert rule.review(asked, quoted, [], (FREIGHT,)) is None
    # The converter's own line is the conversion.
    converted = line('r1 = convert(value=10, from_unit="lb", to_unit="kg")')
    assert rule.review(asked, converted, [], (FREIGHT, CONVERT)) is None


def test_an_id_fits_only_an_example_with_the_same_letters() -> None:
    doctor = ToolDefinition(
        "doctor_record",
        "A doctor's record by id.",
        schema(doctor_id={"type": "string", "description": "The doctor id, e.g. D-1"}),
    )
    asked = view(UserMessage("Pull up the record of member M-103."))
    searched = line('r1 = member_search(name="M-103")')
    assert ValueFitsElsewhere().review(asked, searched, [], (SEARCH, doctor)) is None


NOTES_SEARCH = ToolDefinition(
    "search_notes", "Notes whose text holds the query.", schema(query={"type": "string"})
)
READ_NOTE = ToolDefinition(
    "read_note", "The full text of a note by its id.", schema(note_id={"type": "string"})
)


def test_an_id_the_request_calls_by_a_parameter_s_subject_goes_to_that_parameter() -> None:
    rule = ValueFitsElsewhere()
    notes = (NOTES_SEARCH, READ_NOTE)
    asked = view(UserMessage("Read notes N-1 and N-2 and tell me which one is longer."))
    # ``note_id`` shows no example, but the request calls N-1 and N-2 notes, a few words
    # before each: a search for them is the lookup by id, written again.
    for written in ("N-1", "N-2"):
        searched = line(f'r1 = search_notes(query="{written}")')
        assert rule.review(asked, searched, [], notes) == Retry(
            "search_notes", frozenset({written.lower()}), only=frozenset({"read_note"})
        )
    # Not called a note, or a plain number: the search stands.
    unnamed = view(UserMessage("Find anything that mentions N-1."))
    assert rule.review(unnamed, line('r1 = search_notes(query="N-1")'), [], notes) is None
    numbered = view(UserMessage("Find note 12."))
    assert rule.review(numbered, line('r1 = search_notes(query="12")'), [], notes) is None


def test_a_near_tool_after_a_first_retry_is_redirected_once_more() -> None:
    asked = UserMessage("Send member M-103 a reminder.")
    # The message first, with a made-up id (a step too early), then the search by name:
    # the second retry names the lookup, and the line stands.
    script = replies(
        (plan('r1 = notify(member_id="M-999", text="Reminder")'), 9.0),
        (plan('r1 = member_search(name="M-103")'), 8.5),
        (plan('r1 = member_record(member_id="M-103")'), 8.0),
    )
    message = ask(script, [asked], tools=MEMBERS)
    assert [c.name for c in message.tool_calls] == ["member_record"]


def test_a_redirect_names_its_tools_whatever_the_first_retry_narrowed_the_choice_to() -> None:
    # The first retry allows only the search (the one tool whose words speak of members);
    # the second names the lookup by code, which the first had left out. It must be
    # offered: the choice is not what is left of the first retry's (eighth pass).
    by_code = ToolDefinition(
        "record_by_code",
        "A record by its code.",
        schema(code={"type": "string", "description": "The code, e.g. M-101"}),
    )
    script = replies(
        (plan('r1 = notify(member_id="M-999", text="Reminder")'), 9.0),
        (plan('r1 = member_search(name="M-103")'), 8.5),
        (plan('r1 = record_by_code(code="M-103")'), 8.0),
    )
    asked = UserMessage("Send member M-103 a reminder.")
    message = ask(script, [asked], tools=(SEARCH, by_code, NOTIFY))
    assert [c.name for c in message.tool_calls] == ["record_by_code"]


DEFAULT = SmallModelPolicy().rules


@dataclass(frozen=True)
class _Redirects(Rule):
    """A user's rule: a line of ``tool`` is written again with only the tools ``to``."""

    tool: str
    to: frozenset[str]

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        return Retry(line.tool, only=self.to) if line.tool == self.tool else None


def test_a_targeted_retry_may_follow_a_targeted_retry_once() -> None:
    asked = UserMessage("Send member M-103 a reminder.")
    script = replies(
        (plan('r1 = notify(member_id="M-103", text="Reminder")'), 9.0),
        (plan('r1 = member_search(name="M-103")'), 8.5),
        (plan('r1 = member_record(member_id="M-103")'), 8.0),
    )
    # notify -> the search or the record; the search -> the record: the second retry is taken.
    lookups = frozenset({"member_search", "member_record"})
    twice = (
        _Redirects("notify", lookups),
        _Redirects("member_search", frozenset({"member_record"})),
    )
    message = ask(script, [asked], SmallModelPolicy(rules=(*twice, *DEFAULT)), MEMBERS)
    assert [c.name for c in message.tool_calls] == ["member_record"]
    # A third is not: the turn answers in prose instead of going round the tools.
    thrice = (*twice, _Redirects("member_record", frozenset({"notify"})))
    looped = ask(script, [asked], SmallModelPolicy(rules=(*thrice, *DEFAULT)), MEMBERS)
    assert looped.tool_calls == ()


def test_a_schema_pattern_decides_the_shape_before_an_example() -> None:
    patterned = ToolDefinition(
        "member_record",
        "A member's record by id.",
        schema(member_id={"type": "string", "pattern": "^M-[0-9]+$"}),
    )
    asked = view(UserMessage("Pull up the record of member M-103."))
    searched = line('r1 = member_search(name="M-103")')
    retry = ValueFitsElsewhere().review(asked, searched, [], (SEARCH, patterned))
    assert retry == Retry("member_search", frozenset({"m-103"}), only=frozenset({"member_record"}))


def test_a_search_for_an_id_is_written_again_as_the_lookup_end_to_end() -> None:
    asked = UserMessage("Pull up the record of member M-103.")
    # Without the search, the model's next choice would be the note; only the lookup fits.
    script = replies(
        (plan('r1 = member_search(name="M-103")'), 9.0),
        (plan('r1 = notify(member_id="M-103", text="Hi")'), 8.5),
        (plan('r1 = member_record(member_id="M-103")'), 8.0),
    )
    message = ask(script, [asked], tools=MEMBERS)
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("member_record", {"member_id": "M-103"})
    ]


# -- LookUpFirst --------------------------------------------------------------------------

NOTE_SEARCH = ToolDefinition(
    "note_search",
    "Notes whose title holds the text; returns ids.",
    schema(query={"type": "string"}),
)
NOTE_READ = ToolDefinition(
    "note_read", "The full text of a note by its id.", schema(note_id={"type": "string"})
)
NOTE_ADD = ToolDefinition(
    "note_add",
    "Save a note; returns its id.",
    schema(title={"type": "string"}, text={"type": "string"}),
)
NOTES = (NOTE_SEARCH, NOTE_READ, NOTE_ADD)
COPY = UserMessage("Copy my groceries note into a new note called 'Sunday shopping'.")


def test_a_word_where_an_id_goes_is_looked_up_first() -> None:
    rule = LookUpFirst()
    read = line('r1 = note_read(note_id="groceries")')
    assert rule.review(view(COPY), read, [], NOTES) == Retry(
        "note_read",
        frozenset({"groceries"}),
        only=frozenset({"note_search"}),
        looked_up=frozenset({"note_id"}),
    )
    # An id stands; so does a word the request does not say, or part of one.
    assert rule.review(view(COPY), line('r1 = note_read(note_id="N-1")'), [], NOTES) is None
    assert rule.review(view(COPY), line('r1 = note_read(note_id="pasta")'), [], NOTES) is None
    assert rule.review(view(COPY), line('r1 = note_read(note_id="grocer")'), [], NOTES) is None
    # A tool that needs more than the word (the note's text too) is no lookup.
    assert rule.review(view(COPY), read, [], (NOTE_READ, NOTE_ADD)) is None


def test_an_id_parameter_is_known_by_its_name_or_an_example_with_digits() -> None:
    by_code = ToolDefinition(
        "note_open",
        "A note by its code.",
        schema(code={"type": "string", "description": "The note's code, e.g. N-1"}),
    )
    opened = line('r1 = note_open(code="groceries")')
    retry = LookUpFirst().review(view(COPY), opened, [], (NOTE_SEARCH, by_code))
    assert retry == Retry(
        "note_open",
        frozenset({"groceries"}),
        only=frozenset({"note_search"}),
        looked_up=frozenset({"code"}),
    )
    free = ToolDefinition("note_open", "A note by title.", schema(title={"type": "string"}))
    titled = line('r1 = note_open(title="groceries")')
    assert LookUpFirst().review(view(COPY), titled, [], (NOTE_SEARCH, free)) is None


def test_the_looked_up_line_comes_back_after_the_lookup_taking_its_result() -> None:
    script = replies(
        (plan('r1 = note_read(note_id="groceries")'), 9.0),
        (plan('r1 = note_search(query="groceries")'), 8.5),
    )
    message = ask(script, [COPY], tools=NOTES)
    # The lookup runs now; the read waits for the id it gives.
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("note_search", {"query": "groceries"})
    ]
    assert message.metadata[PLAN_KEY][:2] == [
        'r1 = note_search(query="groceries")',
        "r2 = note_read(note_id=r1)",
    ]


MEMBER_FIND = ToolDefinition(
    "member_find",
    "Members whose name holds the text; returns ids.",
    schema(name={"type": "string"}),
)
MEMBER_RECORD = ToolDefinition(
    "member_record",
    "A member's record by id.",
    schema(member_id={"type": "string", "description": "The member id, e.g. M-101"}),
)


def test_an_id_nobody_gave_beside_a_name_no_call_carries_is_the_name_looked_up() -> None:
    rule = LookUpFirst()
    asked = view(UserMessage("What does the record of Kenji Sato say?"))
    invented = line('r1 = member_record(member_id="M-101")')
    assert rule.review(asked, invented, [], (MEMBER_FIND, MEMBER_RECORD)) == Retry(
        "member_record",
        frozenset({"kenji sato"}),
        only=frozenset({"member_find"}),
        looked_up=frozenset({"member_id"}),
    )
    # An id the request gives stands; so does an invented one when no name is left.
    given = view(UserMessage("What does the record of M-101 say?"))
    assert rule.review(given, invented, [], (MEMBER_FIND, MEMBER_RECORD)) is None
    found = line('r1 = member_find(name="Kenji Sato")')
    assert rule.review(asked, invented, [found], (MEMBER_FIND, MEMBER_RECORD)) is None


def test_a_line_with_other_made_up_values_does_not_come_back_after_the_lookup() -> None:
    book = ToolDefinition(
        "member_book",
        "Book a member in for a class.",
        schema(
            member_id={"type": "string", "description": "The member id, e.g. M-101"},
            day={"type": "string", "format": "date"},
        ),
    )
    tools = (MEMBER_FIND, MEMBER_RECORD, book)
    asked = view(UserMessage("Call off Kenji Sato's class."))
    # The booking's day is made up too: the name is looked up, and the model writes on.
    booked = line('r1 = member_book(member_id="M-101", day="2023-04-15")')
    assert LookUpFirst().review(asked, booked, [], tools) == Retry(
        "member_book", frozenset({"kenji sato"}), only=frozenset({"member_find"})
    )
    # A day the request gives is read: the line comes back taking the id.
    dated = view(UserMessage("Book Kenji Sato in on 2026-04-15."))
    verdict = LookUpFirst().review(
        dated, line('r1 = member_book(member_id="M-101", day="2026-04-15")'), [], tools
    )
    assert verdict == Retry(
        "member_book",
        frozenset({"kenji sato"}),
        only=frozenset({"member_find"}),
        looked_up=frozenset({"member_id"}),
    )
