"""named_tools: which uncalled tools a request names, for the embedded model's second call."""

from __future__ import annotations

import pytest

from springtail.models._llamacpp._followup import named_tools
from springtail.tools._definition import ToolDefinition

NAMES = (
    "current_datetime current_date calculate percentage discount_calculator "
    "customer_contact_lookup todo_add todo_list todo_complete product_list product_reserve"
)
TOOLS = [ToolDefinition(n, "A tool.", {"type": "object", "properties": {}}) for n in NAMES.split()]


def names(request: str, *called: str) -> list[str]:
    return [d.name for d in named_tools(request, TOOLS, set(called))]


@pytest.mark.parametrize(
    ("request_text", "called", "expected"),
    [
        ("Reserve 2 units of SKU-100 and add that as a to-do", "product_reserve", ["todo_add"]),
        ("Add a to-do to restock SKU-300 and then show my to-do list.", "todo_add", ["todo_list"]),
        ("What is 12 times 12, and what percentage is that of 576?", "calculate", ["percentage"]),
        ("Get the contact of customer C-102 and add a todo to call them", "x", ["todo_add"]),
    ],
)
def test_the_second_half_of_a_request_names_its_tool(
    request_text: str, called: str, expected: list[str]
) -> None:
    assert names(request_text, called) == expected


@pytest.mark.parametrize(
    ("request_text", "called"),
    [
        # Every word of the name is needed: "add" alone does not name todo_add.
        ("Add 1250 and 730.", "calculate"),
        # The called tool is never offered again.
        ("Add a to-do: call the printer.", "todo_add"),
        # "date" is explained by the called current_datetime, not a second tool.
        ("Current date and time in America/New_York, please.", "current_datetime"),
        ("Hi! Who are you?", "calculate"),
        ("", "calculate"),
    ],
)
def test_requests_that_name_no_other_tool_offer_nothing(request_text: str, called: str) -> None:
    assert names(request_text, called) == []


def test_camel_case_names_split_into_words() -> None:
    tool = ToolDefinition("addTodo", "A tool.", {"type": "object", "properties": {}})
    assert named_tools("please add a to-do", [tool], set()) == [tool]
    assert named_tools("please add it", [tool], set()) == []
