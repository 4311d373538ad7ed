"""Customer contact lookup, with e-mail addresses masked before the model sees them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from springtail import FunctionToolCallback
from support_bot._store_base import BusinessStore, normalize_customer_id
from support_bot.tool_names import CUSTOMER_CONTACT_LOOKUP
from support_bot.tools._emails import mask_emails
from support_bot.tools._limits import MAX_KEY_CHARS

__all__ = [
    "CustomerContactRequest",
    "customer_contact_lookup",
    "mask_emails",
    "masking_result_converter",
]


class CustomerContactRequest(BaseModel):
    """Which customer to look up."""

    model_config = ConfigDict(frozen=True)

    customer_id: str = Field(description="The customer id, e.g. C-100", max_length=MAX_KEY_CHARS)


def masking_result_converter(result: Any, return_type: type | None = None) -> str:
    """A result converter: the tool's text with every e-mail address masked.

    The mask sits in the converter, not in the lookup, so it also covers
    whatever the lookup might return in future (notes, a CRM export).
    """
    text = "Done" if result is None else str(result)
    return mask_emails(text)


def customer_contact_lookup(store: BusinessStore) -> FunctionToolCallback:
    """The ``customer_contact_lookup`` function tool over ``store``."""

    def lookup(request: CustomerContactRequest) -> str:
        customer = store.customer(request.customer_id)
        if customer is None:
            known = ", ".join(store.customer_ids())
            wanted = normalize_customer_id(request.customer_id)
            return f"No customer with id {wanted!r}. Known customer ids: {known}."
        return (
            f"Customer {customer.id}: {customer.name}, {customer.company}; "
            f"phone {customer.phone}; e-mail {customer.email}."
        )

    return FunctionToolCallback(
        CUSTOMER_CONTACT_LOOKUP,
        lookup,
        input_type=CustomerContactRequest,
        description=(
            "Look up a customer's contact details (name, company, phone, e-mail) by customer "
            "id such as C-100."
        ),
        result_converter=masking_result_converter,
    )
