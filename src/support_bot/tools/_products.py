"""Inventory tools: read the stock, and reserve it (after the user approves)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from springtail import Param, tool
from support_bot._store_base import BusinessStore, InsufficientStockError, UnknownProductError
from support_bot.tool_names import PRODUCT_LIST, PRODUCT_LOOKUP, PRODUCT_RESERVE
from support_bot.tools._limits import MAX_KEY_CHARS, MAX_QUANTITY

_Sku = Annotated[str, Param("The product SKU, e.g. SKU-100"), Field(max_length=MAX_KEY_CHARS)]

__all__ = ["ProductTools"]


class ProductTools:
    """``product_list``, ``product_lookup`` and ``product_reserve`` over the store."""

    def __init__(self, store: BusinessStore) -> None:
        self._store = store

    @tool(name=PRODUCT_LIST, description="List every product with its SKU, name and stock.")
    def product_list(self) -> str:
        """One line per product."""
        return "\n".join(f"{p.sku} {p.name}: {p.stock} in stock" for p in self._store.products())

    @tool(
        name=PRODUCT_LOOKUP,
        description="Look up one product's name and units in stock by SKU, e.g. SKU-100.",
    )
    def product_lookup(self, sku: _Sku) -> str:
        """The product's line, or the SKUs that do exist."""
        try:
            product = self._store.product(sku)
        except UnknownProductError as exc:
            return str(exc)
        return f"{product.sku} {product.name}: {product.stock} in stock"

    @tool(
        name=PRODUCT_RESERVE,
        description=(
            "Reserve units of a product, taking them from stock, e.g. 'reserve 2 of SKU-100' "
            "is sku=SKU-100, quantity=2. Asks the user for approval first."
        ),
        requires_approval=True,
    )
    def product_reserve(
        self,
        sku: _Sku,
        quantity: Annotated[
            int,
            Param(f"How many units to reserve, 1 to {MAX_QUANTITY:,}"),
            Field(ge=1, le=MAX_QUANTITY),
        ],
    ) -> str:
        """All or nothing; refusals say why and that nothing was reserved."""
        try:
            reservation = self._store.reserve(sku, quantity)
        except (ValueError, UnknownProductError, InsufficientStockError) as exc:
            text = str(exc)
            return text if "Nothing was reserved" in text else f"{text} Nothing was reserved."
        return (
            f"Reserved {reservation.quantity} unit(s) of {reservation.sku} ({reservation.name}); "
            f"reservation R-{reservation.id}; {reservation.stock_left} left in stock."
        )
