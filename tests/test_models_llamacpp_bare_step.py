"""A part of the request with no value of its own is written as a note the model decides on."""

from __future__ import annotations

from dataclasses import replace

from springtail.messages import UserMessage
from springtail.models._llamacpp import Decide, PlanLine, TurnView
from springtail.models._llamacpp._bare_step import BareStepAsked, bare_parts
from test_models_llamacpp_past_request import ORDER, STATUS

TOOLS = (ORDER, STATUS)
PLACE = PlanLine.parse('r1 = order_create(customer="Omar Diaz", sku="SKU-2")')
STANDS = "Order SKU-2 for Omar Diaz, and tell me where it stands."


def view(request: str) -> TurnView:
    return TurnView.of([UserMessage(request)])


def test_a_part_after_the_values_that_holds_none_is_a_bare_part() -> None:
    wanted = frozenset({"sku-2", "omar diaz"})
    assert bare_parts(STANDS, wanted) == ["tell me where it stands"]
    assert bare_parts("Take 20% off 450 and then double it.", frozenset({"20%", "450"})) == [
        "double it"
    ]
    # A greeting before the first value is none, nor is a part of one word.
    greeted = "Hi, hope your week is going well! Order SKU-2 for Omar Diaz, please."
    assert bare_parts(greeted, wanted) == []
    # Parts are cut as clauses are: not after "Dr.".
    confirm = "Book P-101 with Dr. Haddad on 2026-03-17. Then ask Dr. Ng to confirm."
    assert bare_parts(confirm, frozenset({"p-101", "2026-03-17"})) == ["ask Dr. Ng to confirm"]
    # A part between two that hold values is one the plan's lines went through.
    priced = "A 35,000 order gets 18% off. What's the final price, and what percent of 40,000?"
    assert bare_parts(priced, frozenset({"35000", "18%", "40000"})) == []


def test_once_every_value_is_carried_the_first_unserved_part_is_the_note() -> None:
    rule = BareStepAsked()
    assert PLACE is not None
    assert rule.next(view(STANDS), [PLACE], TOOLS) == Decide(note="tell me where it stands")
    # A line written under it serves it: the model decides as it would.
    status = PlanLine.parse("r2 = order_status(order_id=r1)")
    assert status is not None
    served = replace(status, comment="# tell me where it stands")
    assert rule.next(view(STANDS), [PLACE, served], TOOLS) is None
    # Before any line, while a value is carried by none, or with no bare part: no note.
    assert rule.next(view(STANDS), [], TOOLS) is None
    unplaced = view("Order SKU-2 for Omar Diaz and SKU-3 for Ann Lee, and tell me where it stands.")
    assert rule.next(unplaced, [PLACE], TOOLS) is None
    assert rule.next(view("Order SKU-2 for Omar Diaz."), [PLACE], TOOLS) is None
