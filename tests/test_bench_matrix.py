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


def test_a_policy_without_a_rule_runs_the_default_rules_less_that_one() -> None:
    from bench.matrix._policies import policy

    from springtail.models._llamacpp import DEFAULT_RULES

    names = [type(r).__name__ for r in DEFAULT_RULES]
    less = [type(r).__name__ for r in policy(f"without:{names[0]}").rules]
    assert less == names[1:]
    assert [type(r).__name__ for r in policy("default").rules] == names
    with pytest.raises(SystemExit, match="rules: "):
        policy("without:NoSuchRule")
