# The held-out half of the support-bot cases: do not read this file while tuning.
"""The support-bot tool set's held-out cases (reported, never tuned on)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, one_of, turn

CASES = (
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
        "held-out",
        (
            turn(
                "What's the phone number of customer C-103?",
                call("customer_contact_lookup", customer_id="C-103"),
                answer=["5550103"],
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
    Case(
        "twice",
        "held-out",
        (
            turn(
                "What's the price of each of these after 30% off: 80 and 120?",
                call("discount_calculator", price=80, rate_percent=30),
                call("discount_calculator", price=120, rate_percent=30),
                answer=["56", "84"],
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
    Case(
        "chain",
        "held-out",
        (
            turn(
                "Take 20% off 1,450, then split what's left evenly between 4 people.",
                call("discount_calculator", price=1450, rate_percent=20),
                call("calculate", operation="divide", left=1160, right=4),
                answer=["290"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "Reserve every unit of SKU-200 we have, then add a to-do to ship it with the "
                "reservation number in it.",
                call("product_lookup", sku="SKU-200"),
                call("product_reserve", sku="SKU-200", quantity=7),
                call("todo_add", title=contains("R-1")),
                answer=["r-1", ("to-do", "todo", "task", "#1")],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "held-out",
        (
            turn(
                "What's 45% off 300 and 15% off 2,200? And what are 17 times 23 and 144 "
                "divided by 12?",
                call("discount_calculator", price=300, rate_percent=45),
                call("discount_calculator", price=2200, rate_percent=15),
                call("calculate", operation="multiply", left=17, right=23),
                call("calculate", operation="divide", left=144, right=12),
                answer=["165", "1870", "391", "12"],
            ),
        ),
    ),
    Case("none", "held-out", (turn("Thanks, that's all for today."),)),
    Case("none", "held-out", (turn("What's the weather like in Paris today?"),)),
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
    Case(
        "refer",
        "held-out",
        (
            turn(
                "Who's our contact at customer C-102?",
                call("customer_contact_lookup", customer_id="C-102"),
                answer=["sofia rossi"],
            ),
            turn(
                "Add a to-do to send her the new catalogue.",
                call("todo_add", title=one_of(contains("Sofia"), contains("Rossi"))),
                answer=[("added", "to-do", "todo", "#1")],
            ),
        ),
    ),
)
