"""bench/matrix, the embedded model's scoreboard, checked without a model.

Every case of both halves runs its expected calls on a fresh copy of the real
tools: each call must be valid for the tool's schema and succeed, the answer
the case expects must be in what the tools returned, a chain's later call must
need an earlier result, and a perfect model (one that makes exactly the
expected calls and repeats the results) must score every request. A case that
fails here would mark a right answer wrong, or a wrong one right.

Failure messages name cases by tool set, half and index, never by their text:
the held-out requests stay unread.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from bench.matrix import _calendar, _clinic, _orders, _shop
from bench.matrix._cases import (
    ANY,
    CONVERSATIONS,
    KINDS,
    LANGUAGES,
    Call,
    Case,
    Contains,
    OneOf,
    ToolSet,
    Turn,
    call,
    contains,
    one_of,
    turn,
)
from bench.matrix._prompts import PROMPTS
from bench.matrix._run import Runner, Selection, TurnResult, answer_states, calls_match
from bench.matrix._sets import TOOL_SETS
from bench.matrix.heldout import (
    _calendar as held_calendar,
    _clinic as held_clinic,
    _orders as held_orders,
    _shop as held_shop,
)

from springtail import (
    AssistantMessage,
    Prompt,
    ScriptedChatModel,
    ToolArgumentsError,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)

CASES = [(tool_set, i, case) for tool_set in TOOL_SETS for i, case in enumerate(tool_set.cases)]
IDS = [f"{tool_set.name}-{case.half}-{i}" for tool_set, i, case in CASES]

# Words a tool's result uses when it refused or found nothing.
_REFUSALS = (
    "nothing was",
    "no customer",
    "no patient",
    "no doctor",
    "no event",
    "no note",
    "no order",
    "no appointment",
    "no upcoming",
    "unknown",
    "cannot",
    "not free",
    "does not see",
    "must be",
)


def _example(value: Any) -> Any:
    """A concrete argument that the expected value accepts (what a right model would send)."""
    if value is ANY:
        raise AssertionError("an expected call that runs must name a concrete value, not ANY")
    if isinstance(value, Contains):
        return " ".join(value.words)
    if isinstance(value, OneOf):
        return _example(value.options[0])
    if isinstance(value, list):
        return [_example(v) for v in value]
    if isinstance(value, dict):
        return {k: _example(v) for k, v in value.items()}
    return value


def _scalars(value: Any) -> Iterator[str]:
    """The pieces of an expected argument a chain could have taken from a result, as text."""
    if isinstance(value, Contains):
        yield from value.words
    elif isinstance(value, OneOf):
        yield from _scalars(value.options[0])
    elif isinstance(value, list):
        for v in value:
            yield from _scalars(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _scalars(v)
    elif not isinstance(value, bool):
        yield str(value)


def _holds(text: str, piece: str) -> bool:
    """Whether ``text`` states ``piece`` the way the scorer reads an answer."""
    return answer_states(text, Turn("", answer=((piece,),)))


def _run_case(tool_set: ToolSet, case: Case) -> list[list[tuple[Call, str]]]:
    """Every turn's expected calls with their results, run in order on one fresh tool set."""
    tools = {t.tool_definition.name: t for t in tool_set.build()}
    played: list[list[tuple[Call, str]]] = []
    for t in case.turns:
        results: list[tuple[Call, str]] = []
        for expected in t.calls:
            assert expected.name in tools, f"no tool {expected.name!r}"
            schema = tools[expected.name].tool_definition.input_schema
            named = set(expected.arguments)
            assert named <= set(schema.get("properties", {})), f"{expected.name}: unknown argument"
            assert set(schema.get("required", ())) <= named, f"{expected.name}: a required argument"
            arguments = _example(dict(expected.arguments))
            try:
                result = tools[expected.name].call(json.dumps(arguments))
            except ToolArgumentsError as exc:  # pragma: no cover - the assertion's message
                raise AssertionError(f"{expected.name}: {exc}") from exc
            refused = any(r in result.lower() for r in _REFUSALS)
            assert not refused, f"{expected.name} refused"
            results.append((expected, result))
        played.append(results)
    return played


@contextmanager
def _unread(case: Case) -> Iterator[None]:
    """Runs a check; a fresh case's failure says only that it failed (pytest would print the
    case's requests and expected calls in its assertion and traceback)."""
    if case.half != "fresh":
        yield
        return
    try:
        yield
    except Exception:  # any failure, told without its text
        pytest.fail("a fresh case fails this check (its texts stay unread)", pytrace=False)


# What the matrix holds.


def test_each_tool_set_has_every_kind_in_each_of_its_halves() -> None:
    for tool_set in TOOL_SETS:
        team = tool_set.origin == "team"
        for half in ("dev", "held-out", "fresh") if team else ("dev", "fresh"):
            # Counts only: an assertion on the cases themselves would print a fresh text.
            kinds = Counter(c.kind for c in tool_set.cases if c.half == half and c.language == "en")
            count = sum(kinds.values())
            assert set(kinds) == set(KINDS), (tool_set.name, half)
            assert kinds["twice"] >= (2 if team else 1), (tool_set.name, half)
            assert count >= 8, (tool_set.name, half)
    assert sum(t.origin == "elsewhere" for t in TOOL_SETS) >= 8
    assert len(TOOL_SETS) >= 12


def test_each_half_has_at_least_24_chained_requests_counting_every_prompt() -> None:
    for half in ("dev", "held-out"):
        chains = [c for _, _, c in CASES if c.half == half and c.kind == "chain"]
        assert len(chains) * len(PROMPTS) >= 24
        three_steps = [c for c in chains if len(c.turns[0].calls) >= 3]
        assert len(three_steps) >= 2, half


def test_held_out_cases_live_only_in_the_held_out_modules() -> None:
    pairs = [
        (_shop, held_shop),
        (_calendar, held_calendar),
        (_orders, held_orders),
        (_clinic, held_clinic),
    ]
    for dev, held in pairs:
        assert {c.half for c in dev.CASES} == {"dev"}, dev.__name__
        assert {c.half for c in held.CASES} == {"held-out"}, held.__name__
    held_modules = [held_shop, held_calendar, held_orders, held_clinic]
    for module in held_modules:
        assert module.__file__ is not None
        with open(module.__file__, encoding="utf-8") as source:
            first = source.readline()
        assert first.startswith("# The held-out half")
        assert "do not read" in first


def test_no_request_is_asked_twice() -> None:
    seen: dict[str, str] = {}
    repeated = []
    for tool_set, i, case in CASES:
        for t in case.turns:
            where = f"{tool_set.name}-{case.half}-{i}"
            if t.request in seen:
                repeated.append(f"{seen[t.request]} and {where}")
            seen.setdefault(t.request, where)
    assert repeated == []


def test_each_case_has_the_calls_its_kind_says() -> None:
    for tool_set, i, case in CASES:
        where = f"{tool_set.name}-{case.half}-{i}"
        calls = [c.name for t in case.turns for c in t.calls]
        assert (len(case.turns) > 1) == (case.kind in CONVERSATIONS), where
        if case.kind == "none":
            assert calls == [], where
            continue
        assert all(t.calls for t in case.turns), where
        names = Counter(calls)
        if case.kind == "single":
            assert len(calls) == 1, where
        elif case.kind == "twice":
            assert len(names) == 1, where
            assert len(calls) >= 2, where
        elif case.kind == "multi":
            assert len(names) == 2, where
            assert set(names.values()) == {2}, where
        elif case.kind == "chain":
            assert len(calls) >= 2, where


# Every expected call is right for the real tools.


@pytest.mark.parametrize(("tool_set", "index", "case"), CASES, ids=IDS)
def test_expected_calls_run_and_their_results_hold_the_expected_answer(
    tool_set: ToolSet, index: int, case: Case
) -> None:
    with _unread(case):
        played = _run_case(tool_set, case)
        for t, results in zip(case.turns, played, strict=True):
            if t.calls:
                stated = answer_states("\n".join(result for _, result in results), t)
                assert stated, "an expected answer is in no result"


@pytest.mark.parametrize(
    ("tool_set", "index", "case"),
    [c for c in CASES if c[2].kind in ("chain", "refer")],
    ids=[i for i, c in zip(IDS, CASES, strict=True) if c[2].kind in ("chain", "refer")],
)
def test_a_chain_needs_an_earlier_result(tool_set: ToolSet, index: int, case: Case) -> None:
    """A chained call (and a ``refer`` turn's call) has a value no request holds, only a result."""
    with _unread(case):
        _needs_an_earlier_result(tool_set, case)


def _needs_an_earlier_result(tool_set: ToolSet, case: Case) -> None:
    played = [pair for results in _run_case(tool_set, case) for pair in results]
    requests = " ".join(t.request for t in case.turns)
    if case.kind == "chain":
        steps = range(1, len(played)) if case.turns[0].ordered else [len(played) - 1]
    else:
        steps = range(len(case.turns[0].calls), len(played))
    for step in steps:
        expected = played[step][0]
        earlier = "\n".join(result for _, result in played[:step])
        taken = [
            piece
            for value in expected.arguments.values()
            for piece in _scalars(value)
            if _holds(earlier, piece) and not _holds(requests, piece)
        ]
        assert taken, f"call {step + 1} ({expected.name}) needs no earlier result"


def _oracle(turns: dict[str, Turn]) -> Any:
    """A perfect model: the expected calls one per reply, then the results as its answer."""

    def reply(prompt: Prompt) -> AssistantMessage:
        messages = list(prompt.messages)
        last_user, user = [(i, m) for i, m in enumerate(messages) if isinstance(m, UserMessage)][-1]
        wanted = turns[user.text]
        results = [
            r.response_data
            for m in messages[last_user:]
            if isinstance(m, ToolResponseMessage)
            for r in m.responses
        ]
        if len(results) < len(wanted.calls):
            expected = wanted.calls[len(results)]
            arguments = json.dumps(_example(dict(expected.arguments)))
            return AssistantMessage("", (ToolCall(f"c{len(results)}", expected.name, arguments),))
        said = results or [group[0] for group in wanted.answer] or ["Hello! How can I help?"]
        return AssistantMessage("\n".join(said))

    return reply


def test_a_perfect_model_passes_every_request_in_both_memory_layouts() -> None:
    turns = {t.request: t for _, _, c in CASES for t in c.turns}
    model = ScriptedChatModel([_oracle(turns)] * 4000)
    prompts = {name: PROMPTS[name] for name in ("none", "support-bot")}
    seen: list[TurnResult] = []
    every_half = Selection(
        halves=frozenset({"dev", "held-out", "fresh", "probe"}), languages=frozenset(LANGUAGES)
    )
    Runner(model, TOOL_SETS, prompts, every_half).run(on_turn=seen.append)
    assert len(seen) == len(turns) * len(prompts)
    failed = [f"{r.tool_set}-{r.half}-{r.kind}-{r.layout}" for r in seen if not r.passed]
    assert failed == []
    assert {r.layout for r in seen if r.kind in CONVERSATIONS} == {"outside", "inside"}


# The scorer, on hand-made answers.


def test_two_tools_each_twice_match_in_any_order_and_nothing_more() -> None:
    want = (
        call("weekday", day="2026-04-10"),
        call("weekday", day="2026-04-14"),
        call("list_events", day="2026-03-16"),
        call("list_events", day="2026-03-17"),
    )
    got = [
        ("list_events", {"day": "2026-03-17"}),
        ("weekday", {"day": "2026-04-14"}),
        ("list_events", {"day": "2026-03-16"}),
        ("weekday", {"day": "2026-04-10"}),
    ]
    assert calls_match(got, want, ordered=False)
    assert not calls_match(got[:3], want, ordered=False)
    assert not calls_match([*got, ("weekday", {"day": "2026-04-10"})], want, ordered=False)
    assert not calls_match(
        [("weekday", {"day": "2026-04-10"}), *got[1:]], want, ordered=False
    )  # the 2026-03-17 lookup is missing, one weekday is there twice


def test_a_chain_is_matched_in_order_and_a_product_in_either_order() -> None:
    want = (
        call("product_lookup", sku="SKU-100"),
        call("calculate", operation="multiply", left=12, right=25).commuting("left", "right"),
        call("discount_calculator", price=300, rate_percent=10),
    )
    lookup = ("product_lookup", {"sku": "sku-100"})
    discount = ("discount_calculator", {"price": "300", "rate_percent": 10.0})
    for left, right in ((12, 25), (25, 12)):
        product = ("calculate", {"operation": "multiply", "left": left, "right": right})
        assert calls_match([lookup, product, discount], want, ordered=True)
        assert not calls_match([product, lookup, discount], want, ordered=True)
    wrong = ("calculate", {"operation": "multiply", "left": 12, "right": 12})
    assert not calls_match([lookup, wrong, discount], want, ordered=True)
    percentage = (call("percentage", part=144, total=576),)
    assert not calls_match([("percentage", {"part": 576, "total": 144})], percentage, ordered=True)


def test_text_from_a_result_is_matched_as_written_or_any_of_its_forms() -> None:
    message = (call("send_message", to="aisha.khan@mailbox.example", text=contains("insurance")),)
    right = (
        "send_message",
        {"to": "Aisha.Khan@mailbox.example", "text": "Bring your Insurance card"},
    )
    assert calls_match([right], message, ordered=True)
    assert not calls_match(
        [("send_message", {"to": "Aisha Khan", "text": "Bring your insurance card"})],
        message,
        ordered=True,
    )
    date = one_of(contains("2026-03-18"), contains("march 18"))
    told = (call("send_message", to="Ben", text=date),)
    for text in ("Arriving 2026-03-18.", "Your order arrives on March 18."):
        assert calls_match([("send_message", {"to": "Ben", "text": text})], told, ordered=True)
    assert not calls_match(
        [("send_message", {"to": "Ben", "text": "It arrives soon."})], told, ordered=True
    )


def test_an_answer_must_state_every_result_in_the_users_words() -> None:
    final = turn("q", answer=["28700", "71.75"])
    assert answer_states("The final price is 28,700, which is 71.75% of the budget.", final)
    assert not answer_states("The final price is 28,701, which is 71.75%.", final)
    assert not answer_states("That is 71.75% of the budget.", final)
    assert answer_states("Both come to 12.430 km.", turn("q", answer=["12.43"]))
    assert not answer_states("About 12.4 km.", turn("q", answer=["12.43"]))
    sent = turn("q", answer=[("sent", "m-1")])
    assert answer_states("Done: message M-1 is on its way.", sent)
    assert not answer_states("", sent)
    assert not answer_states("I called `send_message` and it sent.", sent, ["send_message"])
    assert not answer_states('<tool_call>{"name": "send_message"}', sent)


def test_held_out_turns_print_no_text_unless_revealed() -> None:
    t = turn("Book Zoe in at noon.", call("book_appointment", patient_id="P-9"))
    calls = [("book_appointment", {"patient_id": "P-9"})]
    result = TurnResult("clinic", "none", "chain", "held-out", "-", t, calls, "Booked Zoe.", 1.0)
    for shown in (result.line(reveal=False), json.dumps(result.as_json(reveal=False))):
        assert "Zoe" not in shown
        assert "P-9" not in shown
        assert "(held out)" in shown
    assert "Zoe" in result.line(reveal=True)
    result.half = "dev"
    assert "Zoe" in result.line(reveal=False)


def test_a_new_event_never_takes_the_id_of_one_still_on_the_calendar() -> None:
    # Numbered by count, an event added after a cancellation took the id of the last one.
    tools = {t.tool_definition.name: t for t in _calendar.CALENDAR.build()}
    assert tools["cancel_event"].call('{"event_id": "E-1"}') == "cancelled"
    added = tools["add_event"].call('{"title": "Dentist", "day": "2026-03-19", "start": "15:00"}')
    found = tools["find_events"].call('{"query": "review"}')
    assert added not in found
    assert added == "E-4"


def test_an_experiment_of_a_default_rule_s_class_takes_its_place_and_askers_go_last() -> None:
    from bench.matrix._policies import policy

    from springtail.models._llamacpp import DEFAULT_RULES, MadeUpValues, UnusedValuesAskMore

    names = [type(r).__name__ for r in DEFAULT_RULES]
    replaced = policy("with:MadeUpValuesProvidersFirst").rules
    assert [type(r).__name__ for r in replaced] == names
    assert [r for r in replaced if isinstance(r, MadeUpValues)] == [
        MadeUpValues(named_first=False, search_named=False)
    ]
    values_only = policy("with:UnusedValuesOnly").rules
    assert [type(r).__name__ for r in values_only] == names
    assert UnusedValuesAskMore(named_steps=False) in values_only
    asking = [type(r).__name__ for r in policy("with:ResultsCallShareLog").rules]
    assert asking == [*names, "ResultsCallFloor"]
    first = policy("with:AnswerOncePlanRan").rules[0]
    assert type(first).__name__ == "AnswerOncePlanRan"
    # The same rule after the defaults answers only where no rule offered a step.
    after_offers = [type(r).__name__ for r in policy("with:AnswerAfterOffers").rules]
    assert after_offers == [*names, "AnswerOncePlanRan"]
    # A subclass of a default rule takes its base's place too.
    search_last = [type(r).__name__ for r in policy("with:MadeUpValuesSearchLast").rules]
    assert search_last == [n.replace("MadeUpValues", "MadeUpValuesSearchLast") for n in names]


def test_a_first_line_no_retry_found_ends_in_a_search_of_its_subject() -> None:
    from bench.matrix._experiments import MadeUpValuesSearchLast

    from fake_llama import line, schema, view
    from springtail.messages import UserMessage
    from springtail.models._llamacpp import MadeUpValues, Retry
    from springtail.tools._definition import ToolDefinition

    day: dict[str, object] = {"type": "string"}
    text: dict[str, object] = {"type": "string"}
    tools = (
        ToolDefinition(
            "add_event", "Add an event.", schema(title=text, day=day, start={"type": "string"})
        ),
        ToolDefinition("find_events", "Find events by a word.", schema(query=text)),
        ToolDefinition(
            "find_free_slot", "The first free time on a day for an event.", schema(day=day)
        ),
    )
    pushed = view(UserMessage("Push my dentist appointment to 2026-03-19, same time."))
    early = line('r1 = add_event(title="Dentist", day="2026-03-19", start="10:00")')
    # Measured against the rule of its time, before it searched for what a request names.
    default = MadeUpValues(search_named=False).review(pushed, early, [], tools)
    assert isinstance(default, Retry)
    assert default.then is None
    # The search about the line's subject is the last choice, after the default's own.
    searched = MadeUpValuesSearchLast().review(pushed, early, [], tools)
    assert searched == Retry(default.without, only=default.only, then=frozenset({"find_events"}))


def test_a_first_line_that_invents_a_text_and_a_number_looks_the_text_up() -> None:
    from bench.matrix._experiments import MadeUpValuesTextGivers

    from fake_llama import line, schema, view
    from springtail.messages import UserMessage
    from springtail.models._llamacpp import MadeUpValues, Prose, Retry
    from springtail.tools._definition import ToolDefinition

    day: dict[str, object] = {"type": "string", "description": "The day"}
    tools = (
        ToolDefinition(
            "find_free_slot",
            "The first free time on a day.",
            schema(day=day, minutes={"type": "integer"}),
        ),
        ToolDefinition("list_events", "The events of a day.", schema(day=day)),
        ToolDefinition("find_events", "Find events by a word.", schema(query={"type": "string"})),
    )
    asked = view(UserMessage("On the day of my project review, find two free hours."))
    early = line('r1 = find_free_slot(day="2023-10-15", minutes=60)')
    # The rule of its time read the invented number as a computation nobody asked for: prose.
    before = MadeUpValues(search_named=False)
    assert before.review(asked, early, [], tools) == Prose(without_tools=True)
    # The experiment looks the invented day up among the tools that take a day.
    assert MadeUpValuesTextGivers().review(asked, early, [], tools) == Retry(
        "find_free_slot", only=frozenset({"list_events"})
    )


def test_a_number_of_a_list_the_line_before_took_whole_waits_for_that_line() -> None:
    from bench.matrix._experiments import ListedValueWaits

    from fake_llama import line, schema, view
    from springtail.messages import UserMessage
    from springtail.models._llamacpp import Wait
    from springtail.tools._definition import ToolDefinition

    tools = (
        ToolDefinition("average", "The mean.", schema(numbers={"type": "array"})),
        ToolDefinition("order", "Order units.", schema(sku={"type": "string"}, items={})),
    )
    request = "Order SKU-5, as many as a week's mean; the weeks were 14, 18 and 22."
    asked = view(UserMessage(request))
    mean = line("r1 = average(numbers=[14, 18, 22])")
    copied = line('r2 = order(sku="SKU-5", items=[{"quantity": 14}])')
    assert ListedValueWaits().review(asked, copied, [mean], tools) == Wait(frozenset({"items"}))
    # A number the request writes again is its own; a list of its own is another average.
    twice = view(UserMessage("Order 14 of SKU-5; the weeks were 14, 18 and 22."))
    assert ListedValueWaits().review(twice, copied, [mean], tools) is None
    other = line("r2 = average(numbers=[14, 30])")
    assert ListedValueWaits().review(asked, other, [mean], tools) is None
    assert ListedValueWaits().review(asked, copied, [], tools) is None


def test_the_share_after_results_is_read_without_changing_the_decision() -> None:
    from bench.matrix._experiments import ResultsCallFloor
    from bench.matrix._policies import policy

    from springtail.messages import (
        AssistantMessage,
        ToolCall,
        ToolResponse,
        ToolResponseMessage,
        UserMessage,
    )
    from springtail.models._llamacpp import Free, TurnView

    asked = UserMessage("What is 128 times 32?")
    call = ToolCall("c1", "calculate", '{"left": 128, "right": 32}')
    result = ToolResponseMessage((ToolResponse("c1", "calculate", "4096"),))
    answered = TurnView.of([asked, AssistantMessage("", (call,)), result])
    # A floor of 1.0 calls only where the model's own first token would; the share is logged.
    assert ResultsCallFloor().opening(answered, ()) == Free(call_floor=1.0)
    assert ResultsCallFloor().opening(TurnView.of([asked]), ()) is None
    assert type(policy("with:ResultsCallShareLog").rules[-1]).__name__ == "ResultsCallFloor"


def test_a_line_of_results_alone_that_nobody_asked_for_ends_the_plan() -> None:
    from bench.matrix._experiments import EXPERIMENTS

    from fake_llama import line, view
    from springtail.messages import UserMessage
    from springtail.models._llamacpp import Drop

    def definitions(name: str) -> tuple[Any, ...]:
        tool_set = next(t for t in TOOL_SETS if t.name == name)
        return tuple(t.tool_definition for t in tool_set.build())

    rule, shop, calendar = (
        EXPERIMENTS["ResultsOnlyLineEnds"],
        definitions("support-bot"),
        definitions("calendar"),
    )
    asked = view(
        UserMessage("Two quotes: 2,750 with 18% off, and 880 with 25% off. Also 9,000 / 16.")
    )
    ran = [
        line("r1 = discount_calculator(price=2750, rate_percent=18)"),
        line("r2 = discount_calculator(price=880, rate_percent=25)"),
        line('r3 = calculate(operation="divide", left=9000, right=16)'),
    ]
    assert rule.review(asked, line("r4 = percentage(part=r3, total=r1)"), ran, shop) == Drop()
    added = line('r4 = calculate(operation="add", left=r1, right=r2)')
    assert rule.review(asked, added, ran, shop) == Drop()
    # While a value is left, or when the line writes one of its own, it may be a step.
    assert rule.review(asked, added, ran[:2], shop) is None
    again = line('r4 = calculate(operation="multiply", left=r3, right=16)')
    assert rule.review(asked, again, ran, shop) is None
    # A chain's last step the request speaks of ("week") stands.
    today = view(UserMessage("What day of the week is it today?"))
    assert (
        rule.review(today, line("r2 = weekday(day=r1)"), [line("r1 = today()")], calendar) is None
    )


def test_a_line_that_repeats_carried_values_with_a_tool_nobody_spoke_of_ends_the_plan() -> None:
    from bench.matrix._experiments import RepeatLineEnds

    from fake_llama import line, view
    from springtail.messages import UserMessage
    from springtail.models._llamacpp import Drop

    orders = tuple(
        t.tool_definition for t in next(s for s in TOOL_SETS if s.name == "orders").build()
    )
    asked = view(UserMessage("How much are 250 EUR and 40 GBP in US dollars?"))
    converted = [
        line('r1 = currency_convert(amount=250, from_currency="EUR", to_currency="USD")'),
        line('r2 = currency_convert(amount=40, from_currency="GBP", to_currency="USD")'),
    ]
    average = line("r3 = average(numbers=[250, 40])")
    assert RepeatLineEnds().review(asked, average, converted, orders) == Drop()
    # Asked for in words, the same line stands; so does a line with a value of its own.
    averaged = view(UserMessage("Convert 250 EUR and 40 GBP to USD, and average 250 and 40."))
    assert RepeatLineEnds().review(averaged, average, converted, orders) is None
    pounds = view(UserMessage("What's 250 EUR in dollars and pounds?"))
    first = [converted[0]]
    to_gbp = line('r2 = currency_convert(amount=250, from_currency="EUR", to_currency="GBP")')
    assert RepeatLineEnds().review(pounds, to_gbp, first, orders) is None


def test_a_plan_stuck_on_a_result_it_cannot_read_is_planned_again_without_that_tool() -> None:
    from bench.matrix._experiments import ReplanStuckStep

    from springtail.messages import (
        AssistantMessage,
        ToolCall,
        ToolResponse,
        ToolResponseMessage,
        UserMessage,
    )
    from springtail.models._llamacpp import Offer, TurnView
    from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY

    clinic = tuple(
        t.tool_definition for t in next(s for s in TOOL_SETS if s.name == "clinic").build()
    )
    lines = [
        'r1 = find_patient(name="Haddad")',
        'r2 = doctor_availability(doctor_id=r1, day="2026-03-17")',
    ]
    planned = AssistantMessage(
        "",
        (ToolCall("c1", "find_patient", '{"name": "Haddad"}'),),
        {PLAN_KEY: lines, LINES_KEY: ["r1"]},
    )

    def answered(data: str, *, is_error: bool = False) -> TurnView:
        response = ToolResponse("c1", "find_patient", data, is_error=is_error)
        asked = UserMessage("Book P-101 into Dr. Haddad's earliest opening on 2026-03-17.")
        return TurnView.of([asked, planned, ToolResponseMessage((response,))])

    # The next line could not be written from "No patient matches": the others are offered.
    opening = ReplanStuckStep().opening(answered("No patient matches 'Haddad'."), clinic)
    assert isinstance(opening, Offer)
    assert "find_patient" not in {d.name for d in opening.tools}
    assert "list_doctors" in {d.name for d in opening.tools}
    # A failed step blocks its line too; no plan, or no result yet, passes.
    assert isinstance(ReplanStuckStep().opening(answered("boom", is_error=True), clinic), Offer)
    asked = TurnView.of([UserMessage("Book P-101 with Dr. Haddad.")])
    assert ReplanStuckStep().opening(asked, clinic) is None
    waiting = TurnView.of([UserMessage("Book P-101 with Dr. Haddad."), planned])
    assert ReplanStuckStep().opening(waiting, clinic) is None


def test_a_value_whose_unit_is_another_tools_choice_retries_with_that_tool() -> None:
    from bench.matrix._experiments import UnitNamesTool

    from fake_llama import line, view
    from springtail.messages import UserMessage
    from springtail.models._llamacpp import Retry

    orders = tuple(
        t.tool_definition for t in next(s for s in TOOL_SETS if s.name == "orders").build()
    )
    asked = view(UserMessage("How much are 250 EUR and 40 GBP in US dollars?"))
    units = line('r1 = convert_units(value=250, from_unit="kg", to_unit="lb")')
    assert UnitNamesTool().review(asked, units, [], orders) == Retry(
        "convert_units", frozenset({"eur"}), only=frozenset({"currency_convert"})
    )
    # The right tool, or a unit the tool's own schema speaks of ("weight_kg"), stands.
    converted = line('r1 = currency_convert(amount=250, from_currency="EUR", to_currency="USD")')
    assert UnitNamesTool().review(asked, converted, [], orders) is None
    boxed = view(UserMessage("Ship a 3 kg box to Norway by express."))
    quote = line('r1 = shipping_quote(weight_kg=3, country="Norway", speed="express")')
    assert UnitNamesTool().review(boxed, quote, [], orders) is None


def test_a_lookup_of_a_price_the_request_states_is_written_again_without_it() -> None:
    from bench.matrix._experiments import StatedValueNotLookedUp

    from fake_llama import line, view
    from springtail.messages import UserMessage
    from springtail.models._llamacpp import Retry

    clinic = tuple(
        t.tool_definition for t in next(s for s in TOOL_SETS if s.name == "clinic").build()
    )
    asked = view(UserMessage("Kenji Sato's checkup comes to 90 EUR. How much does he pay?"))
    price = line('r1 = visit_price(visit_type="checkup")')
    retried = StatedValueNotLookedUp().review(asked, price, [], clinic)
    assert isinstance(retried, Retry)
    assert retried.without == "visit_price"
    assert "90" in retried.wanted
    # Without the price in the request, the lookup is the step.
    plain = view(UserMessage("What does Kenji Sato pay for a checkup?"))
    assert StatedValueNotLookedUp().review(plain, price, [], clinic) is None
    # A lookup that carries a value of the request is not this rule's.
    patient = line('r1 = find_patient(name="Kenji Sato")')
    assert StatedValueNotLookedUp().review(asked, patient, [], clinic) is None


def test_an_id_written_into_a_search_goes_to_the_tool_that_takes_such_ids() -> None:
    from bench.matrix._experiments import IdSearchedGoesToItsTaker

    from fake_llama import line, view
    from springtail.messages import UserMessage
    from springtail.models._llamacpp import Retry, ValueFitsElsewhere

    calendar = tuple(
        t.tool_definition for t in next(s for s in TOOL_SETS if s.name == "calendar").build()
    )
    searched = line('r1 = search_notes(query="N-1")')
    retry = Retry("search_notes", frozenset({"n-1"}), only=frozenset({"read_note"}))
    # The request calls N-1 a note just before it: the default takes that (twenty-fourth
    # pass); no example to fit and no subject named before the id, it leaves the search.
    named = view(UserMessage("Could you read me notes N-1 and N-2?"))
    assert ValueFitsElsewhere().review(named, searched, [], calendar) == retry
    asked = view(UserMessage("Could you read me N-1 from my notes?"))
    assert ValueFitsElsewhere().review(asked, searched, [], calendar) is None
    # The experiment reads note_id's subject as a word of the search's name, wherever the
    # request puts it.
    assert IdSearchedGoesToItsTaker().review(asked, searched, [], calendar) == retry
    # A word searched for, or a date, is the search's to take.
    worded = view(UserMessage("Find my groceries note."))
    groceries = line('r1 = search_notes(query="groceries")')
    assert IdSearchedGoesToItsTaker().review(worded, groceries, [], calendar) is None
    dated = view(UserMessage("Any notes from 2026-03-18?"))
    on_day = line('r1 = search_notes(query="2026-03-18")')
    assert IdSearchedGoesToItsTaker().review(dated, on_day, [], calendar) is None


def test_the_call_told_in_prose_is_an_experiment_in_call_share_s_place() -> None:
    from bench.matrix._policies import policy

    from springtail.models._llamacpp import CallShare

    shares = [r for r in policy("with:CallShareNamed").rules if isinstance(r, CallShare)]
    assert shares == [CallShare(named=0.1)]
    assert [r for r in policy("default").rules if isinstance(r, CallShare)] == [CallShare()]
