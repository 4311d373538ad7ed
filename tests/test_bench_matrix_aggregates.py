"""bench/matrix/_aggregates.py: a number an aggregate took is not its result."""

from __future__ import annotations

from bench.matrix._aggregates import AggregateInputWaits, aggregated_numbers
from bench.matrix._policies import policy

from fake_llama import ask, line, plan, replies, schema, view
from springtail.messages import UserMessage
from springtail.models._llamacpp import Wait
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

NUMBERS: dict[str, object] = {"type": "array", "items": {"type": "number"}}
ITEMS: dict[str, object] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"sku": {"type": "string"}, "quantity": {"type": "integer"}},
        "required": ["sku", "quantity"],
    },
}
TOOLS = (
    ToolDefinition("average", "The average of some numbers.", schema(numbers=NUMBERS)),
    ToolDefinition(
        "create_order", "Place an order.", schema(customer={"type": "string"}, items=ITEMS)
    ),
    ToolDefinition("calculate", "Add two numbers.", schema(left=NUMBERS, right=NUMBERS)),
)
# One clause: a request of several is planned under clause comments, which the script
# would have to write too.
ASKED = UserMessage(
    "Order Carla Mendes our average weekly sales of SKU-5 (14, 18, 22 and 26 these four weeks)."
)
AVERAGE = line("r1 = average(numbers=[14, 18, 22, 26])")
ORDER = 'r2 = create_order(customer="Carla Mendes", items=[{"sku": "SKU-5", "quantity": 14}])'


def test_an_aggregate_s_numbers_are_those_it_takes_as_a_list() -> None:
    assert aggregated_numbers(AVERAGE) == frozenset({"14", "18", "22", "26"})
    assert aggregated_numbers(line("r1 = average(numbers=[14])")) == frozenset()
    assert aggregated_numbers(line('r1 = create_order(customer="A", items=[])')) == frozenset()


def test_a_lone_input_of_the_aggregate_before_waits_for_its_result() -> None:
    rule = AggregateInputWaits()
    asked = view(ASKED)
    assert rule.review(asked, line(ORDER), [AVERAGE], TOOLS) == Wait(frozenset({"items"}))
    # A line that takes the aggregate's result, or takes a list itself, or comes first: pass.
    taking = line('r2 = create_order(customer="Carla Mendes", items=r1)')
    assert rule.review(asked, taking, [AVERAGE], TOOLS) is None
    listed = line("r2 = average(numbers=[14, 18])")
    assert rule.review(asked, listed, [AVERAGE], TOOLS) is None
    assert rule.review(asked, line(ORDER), [], TOOLS) is None


def test_the_order_waits_for_the_average_end_to_end() -> None:
    script = replies((plan(AVERAGE.source(), ORDER), 9.0))
    message = ask(script, [ASKED], policy("with:AggregateInputWaits"), TOOLS)
    # The average runs now; the order waits for its result.
    assert [c.name for c in message.tool_calls] == ["average"]
    assert message.metadata[LINES_KEY] == ["r1"]
    assert message.metadata[PLAN_KEY][1] == 'r2 = create_order(customer="Carla Mendes", items=r1)'
