"""The names the model sees for every support-bot tool.

They are constants so the steps, the approval rule, the UI and the tests all
agree on one spelling; renaming a tool is a change to this file only.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ALL_TOOL_NAMES",
    "CALCULATE",
    "CURRENT_DATE",
    "CURRENT_DATETIME",
    "CUSTOMER_CONTACT_LOOKUP",
    "DISCOUNT_CALCULATOR",
    "PERCENTAGE",
    "PRODUCT_LIST",
    "PRODUCT_LOOKUP",
    "PRODUCT_RESERVE",
    "SESSION_SUMMARY",
    "TODO_ADD",
    "TODO_COMPLETE",
    "TODO_LIST",
]

CURRENT_DATETIME: Final = "current_datetime"
CURRENT_DATE: Final = "current_date"
CALCULATE: Final = "calculate"
PERCENTAGE: Final = "percentage"
DISCOUNT_CALCULATOR: Final = "discount_calculator"
CUSTOMER_CONTACT_LOOKUP: Final = "customer_contact_lookup"
SESSION_SUMMARY: Final = "session_summary"
TODO_ADD: Final = "todo_add"
TODO_LIST: Final = "todo_list"
TODO_COMPLETE: Final = "todo_complete"
PRODUCT_LIST: Final = "product_list"
PRODUCT_LOOKUP: Final = "product_lookup"
PRODUCT_RESERVE: Final = "product_reserve"

ALL_TOOL_NAMES: Final = (
    CURRENT_DATETIME,
    CURRENT_DATE,
    CALCULATE,
    PERCENTAGE,
    DISCOUNT_CALCULATOR,
    CUSTOMER_CONTACT_LOOKUP,
    SESSION_SUMMARY,
    TODO_ADD,
    TODO_LIST,
    TODO_COMPLETE,
    PRODUCT_LIST,
    PRODUCT_LOOKUP,
    PRODUCT_RESERVE,
)
"""Every tool, in the order `/tools` lists them."""
