"""_llamacpp/_slots.py: a value the request ties to a start or an end goes to that slot."""

from __future__ import annotations

from fake_llama import ask, line, plan, replies, schema, view
from springtail.messages import UserMessage
from springtail.models._llamacpp import Keep, SmallModelPolicy, ValueInItsSlot
from springtail.models._llamacpp._plan import PLAN_KEY
from springtail.models._llamacpp._slots import parameter_slot, request_slots
from springtail.tools._definition import ToolDefinition

_DAY: dict[str, object] = {"type": "string", "description": "A date, YYYY-MM-DD"}
DAYS = ToolDefinition(
    "days_between", "Days from one date to another.", schema(start=_DAY, end=_DAY)
)
_CODE: dict[str, object] = {"type": "string", "enum": ["USD", "EUR", "JPY"]}
CONVERT = ToolDefinition(
    "convert_currency",
    "Convert an amount between currencies.",
    schema(amount={"type": "number"}, from_currency=_CODE, to_currency=_CODE),
)
SHARED = UserMessage("How many days are there from 2026-03-16 to 2026-04-01, and to 2026-05-01?")
FIRST = line('r1 = days_between(start="2026-03-16", end="2026-04-01")')


def test_the_words_before_a_value_and_a_parameter_s_name_say_its_slot() -> None:
    assert request_slots(SHARED.text) == {
        "2026-03-16": "start",
        "2026-04-01": "end",
        "2026-05-01": "end",
    }
    # Written after both kinds of word, a value says neither.
    assert request_slots("From 5 to 9, then from 9 on.") == {"5": "start"}
    assert [parameter_slot(n) for n in ("start", "end_date", "from_unit", "to", "amount")] == [
        "start",
        "end",
        "start",
        "end",
        None,
    ]


def test_a_twin_that_lost_the_shared_start_takes_it_back() -> None:
    rule = ValueInItsSlot()
    asked = view(SHARED)
    # Chained: the first line's end became the start.
    chained = line('r2 = days_between(start="2026-04-01", end="2026-05-01")')
    assert rule.review(asked, chained, [FIRST], (DAYS,)) == Keep(amended=(("start", "2026-03-16"),))
    # The new date in the start, the first line's end kept: the new date is the end.
    swapped = line('r2 = days_between(start="2026-05-01", end="2026-04-01")')
    assert rule.review(asked, swapped, [FIRST], (DAYS,)) == Keep(
        amended=(("start", "2026-03-16"), ("end", "2026-05-01"))
    )
    # Each in its slot, or a line that takes an earlier result (a chain): the line stands.
    right = line('r2 = days_between(start="2026-03-16", end="2026-05-01")')
    assert rule.review(asked, right, [FIRST], (DAYS,)) is None
    assert rule.review(asked, line("r2 = days_between(start=r1, end=r1)"), [FIRST], (DAYS,)) is None
    # "then from 2026-03-15 to the same day" varies the start: nothing is out of its slot.
    varied = view(UserMessage("Days from 2026-03-01 to 2026-03-31, then from 2026-03-15 on?"))
    start_varied = line('r2 = days_between(start="2026-03-15", end="2026-03-31")')
    first = line('r1 = days_between(start="2026-03-01", end="2026-03-31")')
    assert rule.review(varied, start_varied, [first], (DAYS,)) is None


def test_a_start_and_an_end_written_the_wrong_way_round_swap() -> None:
    asked = view(UserMessage("How many days from 2026-03-16 to 2026-04-01?"))
    backwards = line('r1 = days_between(start="2026-04-01", end="2026-03-16")')
    assert ValueInItsSlot().review(asked, backwards, [], (DAYS,)) == Keep(
        amended=(("start", "2026-03-16"), ("end", "2026-04-01"))
    )


def test_a_currency_the_request_converts_to_is_not_the_one_it_converts_from() -> None:
    asked = view(UserMessage("Convert 100 USD to EUR, and to JPY."))
    first = line('r1 = convert_currency(amount=100, from_currency="USD", to_currency="EUR")')
    second = line('r2 = convert_currency(amount=100, from_currency="EUR", to_currency="JPY")')
    # The start no word of the request gives is the twin's, as the twin wrote it.
    assert ValueInItsSlot().review(asked, second, [first], (CONVERT,)) == Keep(
        amended=(("from_currency", "USD"),)
    )
    # A tool without one parameter of each kind is not read.
    single = ToolDefinition("weekday", "The day of the week.", schema(day=_DAY))
    assert (
        ValueInItsSlot().review(asked, line('r1 = weekday(day="2026-03-16")'), [], (single,))
        is None
    )


def test_the_amended_line_is_the_one_the_plan_runs() -> None:
    script = replies(
        (
            plan(
                'r1 = days_between(start="2026-03-16", end="2026-04-01")',
                'r2 = days_between(start="2026-04-01", end="2026-05-01")',
            ),
            9.0,
        ),
    )
    policy = SmallModelPolicy(rules=(ValueInItsSlot(),))
    asked = UserMessage("Days from 2026-03-16 to 2026-04-01 and to 2026-05-01.")
    message = ask(script, [asked], policy, tools=(DAYS,))
    assert [c.arguments for c in message.tool_calls] == [
        '{"start": "2026-03-16", "end": "2026-04-01"}',
        '{"start": "2026-03-16", "end": "2026-05-01"}',
    ]
    assert (
        message.metadata[PLAN_KEY][1] == 'r2 = days_between(start="2026-03-16", end="2026-05-01")'
    )
