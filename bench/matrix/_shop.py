"""Support-bot's thirteen tools, real, over a fresh store in a temporary folder."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, turn
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
        "held-out",
        (
            turn(
                "What's 15% off 2000?",
                call("discount_calculator", price=2000, rate_percent=15),
                answer=["1700"],
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
    Case(
        "single",
        "held-out",
        (
            turn(
                "What's the phone number of customer C-103?",
                call("customer_contact_lookup", customer_id="C-103"),
                answer=["5550103"],
            ),
        ),
    ),
    # The same tool twice.
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
        "held-out",
        (
            turn(
                "Look up SKU-100 and SKU-300.",
                call("product_lookup", sku="SKU-100"),
                call("product_lookup", sku="SKU-300"),
                answer=["12", "4"],
            ),
        ),
    ),
    # Two tools, the second needing the first's result.
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
        "held-out",
        (
            turn(
                "Check the stock of SKU-300 and reserve all of it.",
                call("product_lookup", sku="SKU-300"),
                call("product_reserve", sku="SKU-300", quantity=4),
                answer=[("reserved", "reservation", "r-1")],
                ordered=True,
            ),
        ),
    ),
    # No tool.
    Case("none", "dev", (turn("Hi! Who are you?"),)),
    Case("none", "dev", (turn("What is the capital of France?", answer=["paris"]),)),
    Case("none", "held-out", (turn("Thanks, that's all for today."),)),
    Case("none", "held-out", (turn("What's the weather like in Paris today?"),)),
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
        "follow-up",
        "held-out",
        (
            turn(
                "What is 1250 plus 730?",
                call("calculate", operation="add", left=1250, right=730),
                answer=["1980"],
            ),
            turn(
                "Divide that by 4.",
                call("calculate", operation="divide", left=1980, right=4),
                answer=["495"],
            ),
        ),
    ),
)

SHOP = ToolSet("support-bot", build, CASES)
