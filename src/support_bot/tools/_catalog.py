"""Which tools each part of the bot gets, built once per store."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from springtail import ToolCallback, tool_callbacks
from support_bot._store_base import BusinessStore
from support_bot.tools._calculator import CalculatorTools
from support_bot.tools._customers import customer_contact_lookup
from support_bot.tools._datetime import DateTimeTools, current_date_callback
from support_bot.tools._discount import discount_calculator
from support_bot.tools._products import ProductTools
from support_bot.tools._session import session_summary
from support_bot.tools._todos import TodoTools

__all__ = ["all_tools", "business_tools", "function_tools", "method_tools"]


def method_tools(clock: Callable[[], datetime] | None = None) -> list[ToolCallback]:
    """Date/time and calculator tools (step 1)."""
    dates = DateTimeTools(clock)
    return tool_callbacks(dates, current_date_callback(dates), CalculatorTools())


def function_tools(store: BusinessStore) -> list[ToolCallback]:
    """The discount and customer-contact function tools (step 2)."""
    return [discount_calculator(), customer_contact_lookup(store)]


def business_tools(store: BusinessStore) -> list[ToolCallback]:
    """To-dos and inventory."""
    return tool_callbacks(TodoTools(store), ProductTools(store))


def all_tools(
    store: BusinessStore,
    *,
    summary_return_direct: bool = False,
    clock: Callable[[], datetime] | None = None,
) -> list[ToolCallback]:
    """All thirteen tools, in the order ``/tools`` lists them."""
    return [
        *method_tools(clock),
        *function_tools(store),
        session_summary(return_direct=summary_return_direct),
        *business_tools(store),
    ]
