"""bfcl-store: BFCL's product search, details, inventory and order functions over a fake shop."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, one_of, turn
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_store import CASES as FRESH

NAME = "bfcl-store"

# id -> (name, category, colors, USD price, stock per size)
_PRODUCTS: dict[str, tuple[str, str, tuple[str, ...], float, dict[str, int]]] = {
    "PX-1042": (
        "Aero Rain Jacket",
        "clothing",
        ("blue", "yellow", "black"),
        89.0,
        {"S": 4, "M": 0, "L": 7, "XL": 2},
    ),
    "PX-2210": (
        "Nimbus Wireless Earbuds",
        "electronics",
        ("white", "black"),
        79.99,
        {"one size": 23},
    ),
    "PX-3307": (
        "Cotton Crew Tee",
        "clothing",
        ("red", "white", "green"),
        18.5,
        {"S": 12, "M": 9, "L": 0, "XL": 5},
    ),
    "PX-4415": ("Little Rocket Kit", "toys", ("red",), 34.0, {"one size": 6}),
    "PX-5120": ("The Quiet Forest", "books", ("green",), 14.95, {"one size": 40}),
    "PX-6033": ("Breeze Desk Fan", "home appliances", ("white",), 45.0, {"one size": 0}),
    "PX-7781": ("Volt Smartwatch", "electronics", ("black", "blue"), 149.0, {"one size": 3}),
}
_SIZES = {"small": "S", "medium": "M", "large": "L", "xl": "XL"}
# order id -> (product, status, date)
_ORDERS = {
    "ORD-88412": ("Nimbus Wireless Earbuds", "shipped", "expected 2026-03-19"),
    "ORD-90107": ("Aero Rain Jacket", "processing", "ships within 2 days"),
    "ORD-77003": ("Cotton Crew Tee", "delivered", "delivered 2026-03-02"),
}


def _id(product_id: str) -> str:
    return product_id.strip().upper()


def _any(value: Any) -> bool:
    return value in (None, "") or str(value).lower() in ("any", "all colors", "all sizes")


@dataclass
class _Shop:
    def product_search(self, category: str, color: str = "any", size: str = "any") -> Any:
        found = [
            {"product_id": pid, "name": name, "color_options": list(colors), "price": price}
            for pid, (name, kind, colors, price, stock) in _PRODUCTS.items()
            if kind == category.lower()
            and (_any(color) or color.lower() in colors)
            and (_any(size) or _SIZES.get(size.lower(), size) in stock)
        ]
        return {"products": found}

    def get_product_details(
        self, product_id: str, color: str = "all colors", size: str = "all sizes"
    ) -> Any:
        name, kind, colors, price, stock = _PRODUCTS.get(
            _id(product_id), ("not listed", "", (), 0.0, {})
        )
        return {
            "product_id": _id(product_id),
            "name": name,
            "category": kind,
            "price": price,
            "colors": list(colors),
            "sizes": list(stock),
        }

    def inventory_management(
        self, product_id: str, sizes: list[str] | None = None, color: str = "Any"
    ) -> Any:
        _, _, _, _, stock = _PRODUCTS.get(_id(product_id), ("", "", (), 0.0, {}))
        asked = [_SIZES.get(s.lower(), s.upper()) for s in sizes or []] or list(stock)
        levels = {s: stock.get(s, 0) for s in asked}
        return {"product_id": _id(product_id), "color": color, "stock": levels}

    def order_status_check(self, order_id: str, product: str) -> Any:
        name, status, when = _ORDERS.get(order_id.strip().upper(), (product, "not found", ""))
        return {
            "order_id": order_id.strip().upper(),
            "product": name,
            "status": status,
            "detail": when,
        }


def build() -> list[Any]:
    """The four tools over a fresh shop (seven products, three orders)."""
    return tools(NAME, _Shop())


_SEARCH = "product_search"
_DETAILS = "get_product_details"
_STOCK = "inventory_management"
_ORDER = "order_status_check"

CASES: tuple[Case, ...] = (
    Case(
        "single",
        "dev",
        (
            turn(
                "What's the status of order ORD-88412 for the Nimbus Wireless Earbuds?",
                call(_ORDER, order_id="ORD-88412", product="Nimbus Wireless Earbuds"),
                answer=["shipped"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "Search for red clothing.",
                call(_SEARCH, category="clothing", color="red"),
                answer=["cotton crew tee"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Check the status of ORD-90107 (Aero Rain Jacket) and ORD-77003 (Cotton Crew Tee).",
                call(_ORDER, order_id="ORD-90107", product="Aero Rain Jacket"),
                call(_ORDER, order_id="ORD-77003", product="Cotton Crew Tee"),
                answer=["processing", "delivered"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Find yellow clothing and tell me how many of it you have in each size.",
                call(_SEARCH, category="clothing", color="yellow"),
                call(_STOCK, product_id="PX-1042"),
                answer=["7"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Search home appliances and get the full details of what you find.",
                call(_SEARCH, category="home appliances"),
                call(_DETAILS, product_id="PX-6033"),
                answer=["breeze desk fan"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Get details for PX-2210 and PX-7781, and check the stock of PX-1042 and of "
                "PX-3307 in size XL.",
                call(_DETAILS, product_id="PX-2210"),
                call(_DETAILS, product_id="PX-7781"),
                call(_STOCK, product_id="PX-1042", sizes=one_of(["XL"], ["xl"])),
                call(_STOCK, product_id="PX-3307", sizes=one_of(["XL"], ["xl"])),
                answer=["nimbus", "volt", "2", "5"],
            ),
        ),
    ),
    Case("none", "dev", (turn("What size should I get if I'm between a medium and a large?"),)),
    Case("none", "dev", (turn("Thank you!"),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "Search electronics in black.",
                call(_SEARCH, category="electronics", color="black"),
                answer=["nimbus", "volt"],
            ),
            turn(
                "And in blue?",
                call(_SEARCH, category="electronics", color="blue"),
                answer=["volt"],
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "Find green books.",
                call(_SEARCH, category="books", color="green"),
                answer=["quiet forest"],
            ),
            turn(
                "How many copies of that do you have?",
                call(_STOCK, product_id="PX-5120"),
                answer=["40"],
            ),
        ),
    ),
)

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
