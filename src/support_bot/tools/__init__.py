"""The support bot's thirteen tools, one module per kind of job."""

from support_bot.tools._calculator import CalculatorTools
from support_bot.tools._catalog import all_tools, business_tools, function_tools, method_tools
from support_bot.tools._customers import (
    CustomerContactRequest,
    customer_contact_lookup,
    mask_emails,
    masking_result_converter,
)
from support_bot.tools._datetime import DateTimeTools, current_date_callback, local_zone_name
from support_bot.tools._discount import DiscountRequest, apply_discount, discount_calculator
from support_bot.tools._products import ProductTools
from support_bot.tools._session import SessionSummaryRequest, session_summary, summarize_session
from support_bot.tools._todos import TodoTools

__all__ = [
    "CalculatorTools",
    "CustomerContactRequest",
    "DateTimeTools",
    "DiscountRequest",
    "ProductTools",
    "SessionSummaryRequest",
    "TodoTools",
    "all_tools",
    "apply_discount",
    "business_tools",
    "current_date_callback",
    "customer_contact_lookup",
    "discount_calculator",
    "function_tools",
    "local_zone_name",
    "mask_emails",
    "masking_result_converter",
    "method_tools",
    "session_summary",
    "summarize_session",
]
