"""Tool-choice accuracy of the embedded models on the support-bot tool set.

Each case is one user request and the calls a correct first reply makes: the
right tools with the right arguments, or none at all for requests a tool
cannot help with. Two-tool requests are played through: the expected first
call is answered with a canned result and the model must then make the second
call. The tools are defined here by hand (names and parameters from
SUPPORT_BOT.md), so the evaluation does not depend on the support_bot package.

    python -m bench.embedded_eval                  # both models
    python -m bench.embedded_eval embedded         # the 1.5B default only

``run(model_names)`` returns the results for use from other scripts.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Message,
    Prompt,
    SystemMessage,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.tools._definition import ToolDefinition, ToolMetadata

SYSTEM = (
    "You are the support assistant of a small business that sells study materials. "
    "Use the tools for dates, arithmetic, discounts, customers, products and to-dos."
)


def _object(props: Mapping[str, Any], required: Sequence[str] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(props),
        "required": list(props) if required is None else list(required),
        "additionalProperties": False,
    }


_NUMBER = {"type": "number"}
_SKU = {"type": "string", "description": "Product SKU such as SKU-100"}

TOOLS: tuple[ToolDefinition, ...] = (
    ToolDefinition(
        "current_datetime",
        "The current date and time in a time zone.",
        _object({"zone_id": {"type": "string", "description": "IANA zone, e.g. Asia/Seoul"}}, []),
    ),
    ToolDefinition("current_date", "Today's date in ISO format.", _object({})),
    ToolDefinition(
        "calculate",
        "Apply add, subtract, multiply or divide to two numbers.",
        _object(
            {
                "operation": {
                    "type": "string",
                    "enum": ["add", "subtract", "multiply", "divide"],
                    "description": "Operation name",
                },
                "left": {**_NUMBER, "description": "First number"},
                "right": {**_NUMBER, "description": "Second number"},
            }
        ),
    ),
    ToolDefinition(
        "percentage",
        "What percentage the part is of the total.",
        _object({"part": _NUMBER, "total": _NUMBER}),
    ),
    ToolDefinition(
        "discount_calculator",
        "The final price after a percentage discount.",
        _object(
            {
                "price": {**_NUMBER, "description": "List price"},
                "rate_percent": {**_NUMBER, "description": "Discount in percent"},
            }
        ),
    ),
    ToolDefinition(
        "customer_contact_lookup",
        "A customer's contact details by customer id.",
        _object({"customer_id": {"type": "string", "description": "Customer id such as C-101"}}),
    ),
    ToolDefinition(
        "session_summary",
        "A summary of this chat session on a topic.",
        _object({"topic": {"type": "string"}}),
    ),
    ToolDefinition(
        "todo_add", "Add an item to the to-do list.", _object({"title": {"type": "string"}})
    ),
    ToolDefinition("todo_list", "List the to-do items.", _object({})),
    ToolDefinition(
        "todo_complete",
        "Mark a to-do item as done by its id.",
        _object({"id": {"type": "integer"}}),
    ),
    ToolDefinition("product_list", "List all products with their stock.", _object({})),
    ToolDefinition(
        "product_lookup", "One product's name and stock by SKU.", _object({"sku": _SKU})
    ),
    ToolDefinition(
        "product_reserve",
        "Reserve units of a product from stock.",
        _object({"sku": _SKU, "quantity": {"type": "integer"}}),
    ),
)

Call = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Case:
    """A request and the calls a correct reply makes, in order (none: answer in prose)."""

    request: str
    expected: tuple[Call, ...] = ()
    results: Mapping[str, str] = field(default_factory=dict)


def _c(name: str, **arguments: Any) -> Call:
    return name, arguments


CASES: tuple[Case, ...] = (
    # Arithmetic and money.
    Case("What is 128 times 32?", (_c("calculate", operation="multiply", left=128, right=32),)),
    Case("Add 1250 and 730.", (_c("calculate", operation="add", left=1250, right=730),)),
    Case("What is 900 minus 245?", (_c("calculate", operation="subtract", left=900, right=245),)),
    Case("Divide 84 by 4.", (_c("calculate", operation="divide", left=84, right=4),)),
    Case("How much is 19.5 times 3?", (_c("calculate", operation="multiply", left=19.5, right=3),)),
    Case("What percentage is 45 of 180?", (_c("percentage", part=45, total=180),)),
    Case("30 out of 120 is what percent?", (_c("percentage", part=30, total=120),)),
    Case(
        "A book costs 35000 and is 18% off. What is the final price?",
        (_c("discount_calculator", price=35000, rate_percent=18),),
    ),
    Case(
        "Apply a 10% discount to 2500.", (_c("discount_calculator", price=2500, rate_percent=10),)
    ),
    Case(
        "Price 48000, discount 25 percent: final price?",
        (_c("discount_calculator", price=48000, rate_percent=25),),
    ),
    # Dates.
    Case("What is today's date?", (_c("current_date"),)),
    Case("What time is it in Asia/Seoul?", (_c("current_datetime", zone_id="Asia/Seoul"),)),
    Case(
        "Current date and time in America/New_York, please.",
        (_c("current_datetime", zone_id="America/New_York"),),
    ),
    # Customers.
    Case(
        "What is the contact of customer C-101?",
        (_c("customer_contact_lookup", customer_id="C-101"),),
    ),
    Case("How do I reach customer C-104?", (_c("customer_contact_lookup", customer_id="C-104"),)),
    # Products.
    Case("Which products do we have in stock?", (_c("product_list"),)),
    Case("Show me the product list.", (_c("product_list"),)),
    Case("How many units of SKU-200 are left?", (_c("product_lookup", sku="SKU-200"),)),
    Case("Look up product SKU-300.", (_c("product_lookup", sku="SKU-300"),)),
    Case("Reserve 3 units of SKU-200.", (_c("product_reserve", sku="SKU-200", quantity=3),)),
    Case(
        "Please hold 1 copy of SKU-300 for me.", (_c("product_reserve", sku="SKU-300", quantity=1),)
    ),
    # To-dos.
    Case(
        "Add a to-do: call the printer about the workbook reprint.",
        (_c("todo_add", title="call the printer about the workbook reprint"),),
    ),
    Case("Show my to-do list.", (_c("todo_list"),)),
    Case("What's on my to-do list?", (_c("todo_list"),)),
    Case("Mark to-do 2 as done.", (_c("todo_complete", id=2),)),
    Case("I finished to-do number 5.", (_c("todo_complete", id=5),)),
    # Session.
    Case(
        "Summarize this session about stock reservations.",
        (_c("session_summary", topic="stock reservations"),),
    ),
    # No tool: small talk, general knowledge, things no tool does.
    Case("Hi! Who are you?"),
    Case("Thanks, that's all for today."),
    Case("What does SKU stand for?"),
    Case("Explain in one sentence what a discount is."),
    Case("Can you write me a haiku about spring?"),
    Case("What's the weather in Paris?"),
    Case("Good morning!"),
    Case("What is the capital of France?"),
    # Two tools.
    Case(
        "Reserve 2 units of SKU-100 and add that as a to-do",
        (_c("product_reserve", sku="SKU-100", quantity=2), _c("todo_add")),
        {"product_reserve": "Reserved 2 units of SKU-100 (Spring AI Starter Workbook); 10 left."},
    ),
    Case(
        "Look up SKU-200 and reserve 1 unit of it.",
        (_c("product_lookup", sku="SKU-200"), _c("product_reserve", sku="SKU-200", quantity=1)),
        {"product_lookup": "SKU-200 Agent Design Notes: 7 in stock."},
    ),
    Case(
        "What is 15% off 40000, and add a to-do to update the price tag.",
        (_c("discount_calculator", price=40000, rate_percent=15), _c("todo_add")),
        {"discount_calculator": "List price 40,000, 15% off: final price 34,000."},
    ),
    Case(
        "Add a to-do to restock SKU-300 and then show my to-do list.",
        (_c("todo_add"), _c("todo_list")),
        {"todo_add": "Added to-do #3: restock SKU-300."},
    ),
    Case(
        "Get the contact of customer C-102 and add a to-do to call them.",
        (_c("customer_contact_lookup", customer_id="C-102"), _c("todo_add")),
        {"customer_contact_lookup": "C-102 Mina Park, phone 010-5555-0102, [EMAIL]."},
    ),
    Case(
        "What is 12 times 12, and what percentage is that of 576?",
        (
            _c("calculate", operation="multiply", left=12, right=12),
            _c("percentage", part=144, total=576),
        ),
        {"calculate": "144"},
    ),
)


@dataclass
class CaseResult:
    """What the model did for one case."""

    case: Case
    calls: list[Call]
    text: str
    seconds: float

    @property
    def correct(self) -> bool:
        """Right tools, in order, with the expected arguments (prose: no call)."""
        if len(self.calls) != len(self.case.expected):
            return False
        return all(
            _matches(got, want) for got, want in zip(self.calls, self.case.expected, strict=True)
        )


@dataclass
class ModelResult:
    """All cases for one model."""

    model: str
    cases: list[CaseResult]

    @property
    def accuracy(self) -> float:
        """Share of cases with the right tools and arguments."""
        return sum(c.correct for c in self.cases) / len(self.cases) if self.cases else 0.0


def _matches(got: Call, want: Call) -> bool:
    name, arguments = want
    if got[0] != name:
        return False
    # Expected arguments must match (numbers by value, text ignoring case and
    # a final period); free text the case does not fix (a to-do's title) may be anything.
    return all(_same(got[1].get(key), value) for key, value in arguments.items())


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, int | float) and not isinstance(want, bool):
        return isinstance(got, int | float) and float(got) == float(want)
    if isinstance(want, str) and isinstance(got, str):
        return got.strip().rstrip(".").lower() == want.strip().rstrip(".").lower()
    return bool(got == want)


class _Tool:
    def __init__(self, definition: ToolDefinition) -> None:
        self.tool_definition = definition
        self.tool_metadata = ToolMetadata()

    def call(self, tool_input: str, tool_context: Any = None) -> str:  # pragma: no cover
        raise RuntimeError("the evaluation answers calls with canned results")

    async def acall(self, tool_input: str, tool_context: Any = None) -> str:  # pragma: no cover
        raise RuntimeError("the evaluation answers calls with canned results")


def run_case(model: Any, case: Case) -> CaseResult:
    """Play one case: follow the expected calls while the model makes them."""
    options = ChatOptions(
        tool_callbacks=tuple(_Tool(d) for d in TOOLS), temperature=0.0, seed=1, max_tokens=160
    )
    messages: list[Message] = [SystemMessage(SYSTEM), UserMessage(case.request)]
    calls: list[Call] = []
    text = ""
    started = time.perf_counter()
    for _ in range(max(1, len(case.expected))):
        output: AssistantMessage = model.call(Prompt(messages, options)).results[0].output
        text = output.text
        made = [(c.name, json.loads(c.arguments or "{}")) for c in output.tool_calls]
        calls += made
        if not made or len(calls) >= len(case.expected):
            break
        messages += [
            output,
            ToolResponseMessage(
                tuple(
                    ToolResponse(c.id, c.name, case.results.get(c.name, "Done."))
                    for c in output.tool_calls
                )
            ),
        ]
    return CaseResult(case, calls, text, time.perf_counter() - started)


def run(
    model_names: Sequence[str] = ("embedded", "embedded-small"),
    *,
    on_case: Callable[[str, CaseResult], None] | None = None,
) -> list[ModelResult]:
    """Evaluate each named embedded model on every case (``on_case`` sees each as it ends)."""
    from springtail.models._llamacpp import LlamaCppChatModel

    results = []
    for name in model_names:
        model = LlamaCppChatModel(name)
        cases = []
        try:
            for case in CASES:
                cases.append(run_case(model, case))
                if on_case is not None:
                    on_case(name, cases[-1])
        finally:
            model.close()
        results.append(ModelResult(name, cases))
    return results


def _line(name: str, c: CaseResult) -> str:
    mark = "ok " if c.correct else "BAD"
    got = ", ".join(f"{n}({json.dumps(a)})" for n, a in c.calls) or f"prose: {c.text[:50]!r}"
    return f"  {name:14} {mark} {c.seconds:5.1f}s  {c.case.request[:58]:58}  {got}"


def _print(results: Sequence[ModelResult]) -> None:
    for result in results:
        print(
            f"\n{result.model}: {result.accuracy:.0%} right tool and arguments "
            f"({sum(c.correct for c in result.cases)}/{len(result.cases)})"
        )
        for c in result.cases:
            mark = "ok " if c.correct else "BAD"
            got = (
                ", ".join(f"{n}({json.dumps(a)})" for n, a in c.calls) or f"prose: {c.text[:50]!r}"
            )
            print(f"  {mark} {c.seconds:5.1f}s  {c.case.request[:58]:58}  {got}")
    print("\nmodel            accuracy")
    for result in results:
        print(f"{result.model:16} {result.accuracy:7.0%}")


if __name__ == "__main__":
    _print(
        run(
            sys.argv[1:] or ("embedded", "embedded-small"),
            on_case=lambda name, c: print(_line(name, c), flush=True),
        )
    )
