"""A third domain with other parameter shapes: enums, nested objects, lists and optionals."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from bench.matrix._cases import Case, ToolSet, call, contains, one_of, turn
from bench.matrix.heldout._orders import CASES as HELD_OUT
from springtail import tool, tool_callbacks

Unit = Literal["km", "mi", "kg", "lb", "celsius", "fahrenheit"]
Currency = Literal["USD", "EUR", "GBP", "JPY"]

_TO_BASE: dict[str, tuple[str, float]] = {
    "km": ("m", 1000.0),
    "mi": ("m", 1609.344),
    "kg": ("g", 1000.0),
    "lb": ("g", 453.59237),
}
_PER_USD: dict[str, float] = {"USD": 1.0, "EUR": 0.92, "GBP": 0.79, "JPY": 149.5}


class Customer(BaseModel):
    """Who an order is for."""

    name: str
    email: str | None = None


class OrderItem(BaseModel):
    """One line of an order."""

    sku: str
    quantity: int


@dataclass
class _Shop:
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)
    messages: list[tuple[str, str, str | None]] = field(default_factory=list)

    @tool(description="Convert a value between units of length, weight or temperature.")
    def convert_units(self, value: float, from_unit: Unit, to_unit: Unit) -> float:
        if {from_unit, to_unit} <= {"celsius", "fahrenheit"}:
            if from_unit == to_unit:
                return value
            result = (value - 32) * 5 / 9 if from_unit == "fahrenheit" else value * 9 / 5 + 32
            return round(result, 2)
        base, factor = _TO_BASE[from_unit]
        other, other_factor = _TO_BASE.get(to_unit, ("", 1.0))
        if base != other:
            raise ValueError(f"cannot convert {from_unit} to {to_unit}")
        return round(value * factor / other_factor, 2)

    @tool(description="Convert an amount of money between currencies at today's rate.")
    def currency_convert(
        self, amount: float, from_currency: Currency, to_currency: Currency
    ) -> float:
        return round(amount / _PER_USD[from_currency] * _PER_USD[to_currency], 2)

    @tool(description="Place an order for a customer; returns the order id.")
    def create_order(
        self,
        customer: Customer,
        items: list[OrderItem],
        shipping: Literal["standard", "express"] = "standard",
    ) -> str:
        order_id = f"O-{1001 + sum(k.startswith('O-1') for k in self.orders)}"
        self.orders[order_id] = {
            "order_id": order_id,
            "status": "processing",
            "customer": customer.name,
            "shipping": shipping,
            "items": [i.model_dump() for i in items],
        }
        return order_id

    @tool(description="The status of an order by its id.")
    def order_status(self, order_id: str) -> str:
        order = self.orders.get(order_id.strip().upper())
        if order is None:
            return f"no order {order_id}"
        return json.dumps({k: order[k] for k in ("order_id", "status", "eta") if k in order})

    @tool(description="The price in USD of shipping a parcel.")
    def shipping_quote(
        self, weight_kg: float, country: str, speed: Literal["economy", "standard", "express"]
    ) -> float:
        base = {"economy": 8.0, "standard": 12.0, "express": 25.0}[speed]
        return round(base + 3.5 * weight_kg, 2)

    @tool(description="The arithmetic mean of a list of numbers.")
    def average(self, numbers: list[float]) -> float:
        return round(sum(numbers) / len(numbers), 4) if numbers else 0.0

    @tool(description="Send a short message to a colleague.")
    def send_message(
        self, to: str, text: str, priority: Literal["low", "normal", "high"] | None = None
    ) -> str:
        self.messages.append((to, text, priority))
        return f"M-{len(self.messages)}"


def build() -> list[Any]:
    """The seven tools over a fresh shop (order O-2002 shipped, arriving 2026-03-18)."""
    shop = _Shop()
    shop.orders["O-2002"] = {
        "order_id": "O-2002",
        "status": "shipped",
        "eta": "2026-03-18",
        "customer": "Ben Okafor",
        "shipping": "standard",
        "items": [],
    }
    return tool_callbacks(shop)


CASES = (
    Case(
        "single",
        "dev",
        (
            turn(
                "Convert 42 km to miles.",
                call("convert_units", value=42, from_unit="km", to_unit="mi"),
                answer=["26.1"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "What is the average of 4, 8, 15 and 23?",
                call("average", numbers=[4, 8, 15, 23]),
                answer=["12.5"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Convert 10 kg to pounds and 100 fahrenheit to celsius.",
                call("convert_units", value=10, from_unit="kg", to_unit="lb"),
                call("convert_units", value=100, from_unit="fahrenheit", to_unit="celsius"),
                answer=["22.05", "37.78"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "What's 100 USD in euros, pounds and yen?",
                call("currency_convert", amount=100, from_currency="USD", to_currency="EUR"),
                call("currency_convert", amount=100, from_currency="USD", to_currency="GBP"),
                call("currency_convert", amount=100, from_currency="USD", to_currency="JPY"),
                answer=["92", "79", "14950"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Take the average of 12, 18 and 30, and convert that many km to miles.",
                call("average", numbers=[12, 18, 30]),
                call("convert_units", value=20, from_unit="km", to_unit="mi"),
                answer=["12.43"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Quote express shipping for a 3 kg parcel to Japan, work out what that is in "
                "yen, and send Sam the yen price.",
                call("shipping_quote", weight_kg=3, country="Japan", speed="express"),
                call("currency_convert", amount=35.5, from_currency="USD", to_currency="JPY"),
                call("send_message", to="Sam", text=one_of(contains("5307"), contains("5,307"))),
                answer=["5307.25", ("sent", "m-1")],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Order 5 of SKU-9 for Dana Cruz and message Sam the order number.",
                call(
                    "create_order",
                    customer={"name": "Dana Cruz"},
                    items=[{"sku": "SKU-9", "quantity": 5}],
                ),
                call("send_message", to="Sam", text=contains("O-1001")),
                answer=["o-1001"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Quote standard shipping to Spain for a 2 kg and a 6 kg parcel, and convert 75 "
                "USD and 120 USD to EUR.",
                call("shipping_quote", weight_kg=2, country="Spain", speed="standard"),
                call("shipping_quote", weight_kg=6, country="Spain", speed="standard"),
                call("currency_convert", amount=75, from_currency="USD", to_currency="EUR"),
                call("currency_convert", amount=120, from_currency="USD", to_currency="EUR"),
                answer=["19", "33", "69", "110.4"],
            ),
        ),
    ),
    Case("none", "dev", (turn("Thank you so much!"),)),
    Case(
        "none",
        "dev",
        (turn("At what temperature in Celsius does water boil at sea level?", answer=["100"]),),
    ),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "How much is 80 EUR in USD?",
                call("currency_convert", amount=80, from_currency="EUR", to_currency="USD"),
                answer=["86.96"],
            ),
            turn(
                "And in GBP?",
                call("currency_convert", amount=80, from_currency="EUR", to_currency="GBP"),
                answer=["68.7"],
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "Quote express shipping for a 5 kg parcel to Brazil.",
                call("shipping_quote", weight_kg=5, country="Brazil", speed="express"),
                answer=["42.5"],
            ),
            turn(
                "What's that in euros?",
                call("currency_convert", amount=42.5, from_currency="USD", to_currency="EUR"),
                answer=["39.1"],
            ),
        ),
    ),
)

ORDERS = ToolSet("orders", build, CASES + HELD_OUT)
