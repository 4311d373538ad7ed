"""Support-bot's thirteen tools, real, over a fresh store in a temporary folder."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, turn
from bench.matrix.heldout._shop import CASES as HELD_OUT
from support_bot._store import Store
from support_bot.tools import all_tools

_NOW = datetime(2026, 3, 14, 10, 30, tzinfo=UTC)


def build() -> list[Any]:
    """The tools over a new store (seeded: SKU-100 12, SKU-200 7, SKU-300 4; C-100…C-105)."""
    folder = Path(tempfile.mkdtemp(prefix="matrix-shop-"))
    return all_tools(Store(folder / "support-bot.db"), clock=lambda: _NOW)


CASES = (
    # One tool.
    Case(
        "single",
        "dev",
        (
            turn(
                "What is 128 times 32?",
                call("calculate", operation="multiply", left=128, right=32),
                answer=["4096"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "How many units of SKU-200 are left?",
                call("product_lookup", sku="SKU-200"),
                answer=["7"],
            ),
        ),
    ),
    # The same tool twice (or three times).
    Case(
        "twice",
        "dev",
        (
            turn(
                "What is 12 times 7, and what is 300 divided by 4?",
                call("calculate", operation="multiply", left=12, right=7),
                call("calculate", operation="divide", left=300, right=4),
                answer=["84", "75"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Who are customers C-100, C-101 and C-105? Just names and companies, please.",
                call("customer_contact_lookup", customer_id="C-100"),
                call("customer_contact_lookup", customer_id="C-101"),
                call("customer_contact_lookup", customer_id="C-105"),
                answer=["minji kim", "daniel park", "lucas meyer"],
            ),
        ),
    ),
    # A call that needs an earlier call's result.
    Case(
        "chain",
        "dev",
        (
            turn(
                "What is 12 times 12, and what percentage is that of 576?",
                call("calculate", operation="multiply", left=12, right=12),
                call("percentage", part=144, total=576),
                answer=["25"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "A 35,000 order gets 18% off. What's the final price, and what percent of our "
                "40,000 budget is that?",
                call("discount_calculator", price=35000, rate_percent=18),
                call("percentage", part=28700, total=40000),
                answer=["28700", "71.75"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "What would all our SKU-100 stock come to at 25 each, with 10% off the total?",
                call("product_lookup", sku="SKU-100"),
                call("calculate", operation="multiply", left=12, right=25).commuting(
                    "left", "right"
                ),
                call("discount_calculator", price=300, rate_percent=10),
                answer=["270"],
                ordered=True,
            ),
        ),
    ),
    # Two different tools, each twice.
    Case(
        "multi",
        "dev",
        (
            turn(
                "Look up customers C-100 and C-104, and check the stock of SKU-100 and SKU-200.",
                call("customer_contact_lookup", customer_id="C-100"),
                call("customer_contact_lookup", customer_id="C-104"),
                call("product_lookup", sku="SKU-100"),
                call("product_lookup", sku="SKU-200"),
                answer=["minji", "aiko", "12", "7"],
            ),
        ),
    ),
    # No tool.
    Case("none", "dev", (turn("Hi! Who are you?"),)),
    Case("none", "dev", (turn("What is the capital of France?", answer=["paris"]),)),
    # Follow-ups in one conversation.
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "How many units of SKU-200 are in stock?",
                call("product_lookup", sku="SKU-200"),
                answer=["7"],
            ),
            turn(
                "Reserve 2 of them.",
                call("product_reserve", sku="SKU-200", quantity=2),
                answer=[("reserved", "reservation", "r-1", "5 left", "5 units")],
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "What's 45 times 12?",
                call("calculate", operation="multiply", left=45, right=12),
                answer=["540"],
            ),
            turn(
                "Take 15% off that.",
                call("discount_calculator", price=540, rate_percent=15),
                answer=["459"],
            ),
        ),
    ),
)

SHOP = ToolSet("support-bot", build, CASES + HELD_OUT)
