"""The rules that cut a plan where it goes past the request, on a scripted runtime."""

from __future__ import annotations

import json
from dataclasses import replace

from fake_llama import (
    CANCEL,
    EVENTS,
    TOOLS,
    ask,
    line,
    plan,
    replies,
    schema,
    view,
)
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import (
    DEFAULT_RULES,
    CombinedResultsEnd,
    Drop,
    Keep,
    LookAfterActGoes,
    Prose,
    Retry,
    SmallModelPolicy,
    StrayLineGoes,
    UnaskedActGoes,
)
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

# -- StrayLineGoes ------------------------------------------------------------------------


def test_an_earlier_line_that_carries_nothing_and_feeds_nothing_goes() -> None:
    rule = StrayLineGoes()
    assert rule in DEFAULT_RULES
    listing, cancel = line("r1 = event_list()"), line('r2 = event_cancel(event_id="E-7")')
    assert rule.review(view(CANCEL), cancel, [listing], EVENTS) == Keep(
        instead_of=frozenset({"r1"})
    )
    # The request speaks of the listing; or the later line takes its result; or the later line
    # carries no request value yet: the listing stands.
    listed = view(UserMessage("List my events, then cancel E-7."))
    assert rule.review(listed, cancel, [listing], EVENTS) is None
    assert (
        rule.review(view(CANCEL), line("r2 = event_cancel(event_id=r1)"), [listing], EVENTS) is None
    )
    assert (
        rule.review(view(CANCEL), line('r2 = weekday(day="2026-01-01")'), [listing], EVENTS) is None
    )
    assert rule.review(view(CANCEL), listing, [], EVENTS) is None


def test_a_stray_listing_before_the_step_does_not_run_end_to_end() -> None:
    message = ask(
        replies(plan("r1 = event_list()", 'r2 = event_cancel(event_id="E-7")')),
        [CANCEL],
        tools=EVENTS,
    )
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("event_cancel", {"event_id": "E-7"})
    ]
    assert message.metadata[PLAN_KEY] == ['r2 = event_cancel(event_id="E-7")']


def test_a_line_that_combines_results_nobody_asked_to_combine_ends_the_plan() -> None:
    rule = CombinedResultsEnd()
    assert rule in DEFAULT_RULES
    days = view(UserMessage("What weekdays are 2026-04-10 and 2026-04-14?"))
    both = [line('r1 = weekday(day="2026-04-10")'), line('r2 = weekday(day="2026-04-14")')]
    between = line("r3 = days_between(start=r1, end=r2)")
    assert rule.review(days, between, both, TOOLS) == Drop()
    # Asked for in the request's words, or while a value is left, the line stands.
    asked = view(
        UserMessage("How many days lie between the weekdays of 2026-04-10 and 2026-04-14?")
    )
    assert rule.review(asked, between, both, TOOLS) is None
    assert rule.review(days, between, both[:1], TOOLS) is None
    # One result is a chain's step, even when no word of the request is the tool's ("drop the
    # team sync" then cancel_event(event_id=r1)): the tenth pass's wider cut ended those too.
    dropped = view(UserMessage("Please drop the team sync from my calendar, I can't make it."))
    step, first = line("r2 = weekday(day=r1)"), [line("r1 = today()")]
    assert rule.review(dropped, step, first, TOOLS) is None
    assert CombinedResultsEnd(least_results=1).review(dropped, step, first, TOOLS) == Drop()


# -- LookAfterActGoes ---------------------------------------------------------------------

ORDER = ToolDefinition(
    "order_create",
    "Place an order; returns its id.",
    schema(customer={"type": "string"}, sku={"type": "string"}),
)
STATUS = ToolDefinition(
    "order_status", "The status of an order.", schema(order_id={"type": "string"})
)
MESSAGE = ToolDefinition(
    "send_message", "Send a short message.", schema(to={"type": "string"}, text={"type": "string"})
)
FIND = ToolDefinition("find_events", "Find events by a word.", schema(query={"type": "string"}))
DROP = ToolDefinition("cancel_event", "Cancel an event.", schema(event_id={"type": "string"}))
SHOP = (ORDER, STATUS, MESSAGE, FIND, DROP)
ORDERED = UserMessage("Order SKU-9 for Dana Cruz.")
PLACE = 'r1 = order_create(customer="Dana Cruz", sku="SKU-9")'


def test_a_line_that_only_looks_at_what_a_step_did_ends_the_plan() -> None:
    rule = LookAfterActGoes()
    assert rule in DEFAULT_RULES
    placed, status = [line(PLACE)], line("r2 = order_status(order_id=r1)")
    assert rule.review(view(ORDERED), status, placed, SHOP) == Drop()
    # A value the request gives that no line carries yet is asked for in its place.
    messaged = view(UserMessage("Order SKU-9 for Dana Cruz and message Sam the order number."))
    assert rule.review(messaged, status, placed, SHOP) == Retry("order_status", frozenset({"sam"}))


def test_a_look_the_request_names_or_that_follows_a_search_stands() -> None:
    rule = LookAfterActGoes()
    placed, status = [line(PLACE)], line("r2 = order_status(order_id=r1)")
    # "status" names the tool, and no tool whose result the line takes ("order" names both).
    named = view(UserMessage("Order SKU-9 for Dana Cruz and tell me its status."))
    assert rule.review(named, status, placed, SHOP) is None
    # After a search, the step on its result is the point of the search.
    dropped = view(UserMessage("Please drop the team sync from my calendar."))
    found = [line('r1 = find_events(query="team sync")')]
    assert rule.review(dropped, line("r2 = cancel_event(event_id=r1)"), found, SHOP) is None
    # A line that carries a request value, or a value of its own, is a step.
    sent = line('r2 = send_message(to="Sam", text=r1)')
    messaged = view(UserMessage("Order SKU-9 for Dana Cruz and message Sam the order number."))
    assert rule.review(messaged, sent, placed, SHOP) is None
    assert (
        rule.review(view(ORDERED), line('r2 = order_status(order_id="O-7")'), placed, SHOP) is None
    )


def test_a_look_written_under_a_part_of_the_request_with_no_value_stands() -> None:
    asked = view(UserMessage("Order SKU-9 for Dana Cruz, and tell me where it stands."))
    placed = [line(PLACE)]
    status = line("r2 = order_status(order_id=r1)")
    # Written under "tell me where it stands", the look is the step that part asks for.
    under = replace(status, comment="# tell me where it stands")
    assert LookAfterActGoes().review(asked, under, placed, SHOP) is None
    assert UnaskedActGoes().review(asked, under, placed, SHOP) is None
    # Under a clause that holds the request's values, or none, it is a look around.
    clause = replace(status, comment="# Order SKU-9 for Dana Cruz")
    assert LookAfterActGoes().review(asked, clause, placed, SHOP) == Drop()
    assert LookAfterActGoes().review(asked, status, placed, SHOP) == Drop()


def _placed() -> list[Message]:
    call = ToolCall("c1", "order_create", '{"customer": "Dana Cruz", "sku": "SKU-9"}')
    return [
        ORDERED,
        AssistantMessage("", (call,), {PLAN_KEY: [PLACE], LINES_KEY: ["r1"]}),
        ToolResponseMessage((ToolResponse("c1", "order_create", "O-1001"),)),
    ]


def test_after_results_a_value_copied_out_of_a_result_takes_that_result() -> None:
    rule = LookAfterActGoes()
    copied = line('r2 = order_status(order_id="O-1001")')
    # The first line of a reply after results: the reply is the answer, from the results.
    assert rule.review(view(*_placed()), copied, [], SHOP) == Prose(without_tools=True)
    # A value no result holds is the model's own: the line is another rule's to judge.
    assert (
        rule.review(view(*_placed()), line('r2 = order_status(order_id="O-2")'), [], SHOP) is None
    )
    # A value is read from a result whole: the "1" inside "O-1001" is the model's own.
    assert rule.review(view(*_placed()), line('r2 = order_status(order_id="1")'), [], SHOP) is None


def test_a_look_after_an_order_does_not_run_end_to_end() -> None:
    message = ask(replies(plan(PLACE, "r2 = order_status(order_id=r1)")), [ORDERED], tools=SHOP)
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("order_create", {"customer": "Dana Cruz", "sku": "SKU-9"})
    ]
    assert message.metadata[PLAN_KEY] == [PLACE]
    # Without the rule the look runs, once the order's result is in.
    without = ask(
        replies(plan(PLACE, "r2 = order_status(order_id=r1)")),
        [ORDERED],
        SmallModelPolicy(rules=tuple(r for r in DEFAULT_RULES if r != LookAfterActGoes())),
        SHOP,
    )
    assert without.metadata[PLAN_KEY] == [PLACE, "r2 = order_status(order_id=r1)"]


def test_results_nobody_asked_to_combine_are_not_combined_end_to_end() -> None:
    both = ('r1 = weekday(day="2026-04-10")', 'r2 = weekday(day="2026-04-14")')
    script = replies(plan(*both, "r3 = days_between(start=r1, end=r2)"))
    message = ask(script, [UserMessage("What weekdays are 2026-04-10 and 2026-04-14?")])
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [
        ("weekday", {"day": "2026-04-10"}),
        ("weekday", {"day": "2026-04-14"}),
    ]
    assert message.metadata[PLAN_KEY] == list(both)


# -- UnaskedActGoes -----------------------------------------------------------------------

LOOKUP = ToolDefinition("product_lookup", "A product's stock.", schema(sku={"type": "string"}))
RESERVE = ToolDefinition(
    "product_reserve",
    "Reserve units of a product.",
    schema(sku={"type": "string"}, quantity={"type": "integer"}),
)
DISCOUNT = ToolDefinition(
    "discount_calculator",
    "A price after a discount.",
    schema(price={"type": "number"}, rate_percent={"type": "number"}),
)
STOCK = (LOOKUP, RESERVE, DISCOUNT)
PRICED = UserMessage("What would our SKU-100 stock come to with 10% off?")
PRICING = (
    'r1 = product_lookup(sku="SKU-100")',
    "r2 = discount_calculator(price=r1, rate_percent=10)",
)
RESERVING = 'r3 = product_reserve(sku="SKU-100", quantity=r2)'


def test_an_act_on_what_the_request_only_asked_about_ends_the_plan() -> None:
    rule = UnaskedActGoes()
    assert rule in DEFAULT_RULES
    priced = [line(p) for p in PRICING]
    assert rule.review(view(PRICED), line(RESERVING), priced, STOCK) == Drop()
    # The first line of a reply after the lookup's result: the reply is the answer.
    call = ToolCall("c1", "product_lookup", '{"sku": "SKU-100"}')
    looked: list[Message] = [
        UserMessage("How many SKU-100 do we have?"),
        AssistantMessage("", (call,), {PLAN_KEY: [PRICING[0]], LINES_KEY: ["r1"]}),
        ToolResponseMessage((ToolResponse("c1", "product_lookup", "12"),)),
    ]
    again = line('r2 = product_reserve(sku="SKU-100", quantity=r1)')
    assert rule.review(view(*looked), again, [], STOCK) == Prose(without_tools=True)


def test_an_act_the_request_names_or_that_carries_a_value_of_its_own_stands() -> None:
    rule = UnaskedActGoes()
    looked = [line('r1 = product_lookup(sku="SKU-100")')]
    reserve = line('r2 = product_reserve(sku="SKU-100", quantity=r1)')
    # "Reserve" names the tool.
    named = view(UserMessage("Reserve every SKU-100 we still have."))
    assert rule.review(named, reserve, looked, STOCK) is None
    # A value of the request no earlier line carries makes the line a step asked for.
    other = view(UserMessage("Look SKU-100 up and put SKU-200 aside as many."))
    moved = line('r2 = product_reserve(sku="SKU-200", quantity=r1)')
    assert rule.review(other, moved, looked, STOCK) is None
    # A line that takes no result, or a lookup (one value), is not an act on a result.
    fixed = line('r2 = product_reserve(sku="SKU-100", quantity=5)')
    assert rule.review(view(PRICED), fixed, looked, STOCK) is None
    assert rule.review(view(PRICED), line("r2 = product_lookup(sku=r1)"), looked, STOCK) is None
    # While a value of the request is carried by no line, the line is another rule's.
    assert rule.review(view(PRICED), reserve, looked, STOCK) is None


def test_a_reservation_nobody_asked_for_does_not_run_end_to_end() -> None:
    script = replies(plan(*PRICING, RESERVING))
    message = ask(script, [PRICED], tools=STOCK)
    assert message.metadata[PLAN_KEY] == list(PRICING)
    # Without the rule the reservation is planned, to run once the discount is in.
    without = ask(
        replies(plan(*PRICING, RESERVING)),
        [PRICED],
        SmallModelPolicy(rules=tuple(r for r in DEFAULT_RULES if r != UnaskedActGoes())),
        STOCK,
    )
    assert without.metadata[PLAN_KEY] == [*PRICING, RESERVING]
