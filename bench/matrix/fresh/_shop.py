# fresh held-out half: do not read while tuning
"""The support-bot tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "wats 4,375 minus 1,289",
                call("calculate", operation="subtract", left=4375, right=1289),
                answer=["3086"],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "Could you tell me which company customer C-104 works for, please?",
                call("customer_contact_lookup", customer_id="C-104"),
                answer=["sakura"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "percent check: 27 out of 120, and 91 out of 260",
                call("percentage", part=27, total=120),
                call("percentage", part=91, total=260),
                answer=["22.5", "35"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "Two quotes need 12% knocked off: one at 640 and one at 1,980. What do they "
                "come to?",
                call("discount_calculator", price=640, rate_percent=12),
                call("discount_calculator", price=1980, rate_percent=12),
                answer=["563", "1742"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "whats our SKU-200 stock worth at 45 apiece, and what % of a 1000 target is that",
                call("product_lookup", sku="SKU-200"),
                call("calculate", operation="multiply", left=7, right=45).commuting(
                    "left", "right"
                ),
                call("percentage", part=315, total=1000),
                answer=["31.5"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Knock 35% off 2,460, and then tell me what percent of 3,000 the new price is.",
                call("discount_calculator", price=2460, rate_percent=35),
                call("percentage", part=1599, total=3000),
                answer=["53.3"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Check stock for SKU-300 and SKU-100, and while you're at it pull up the "
                "contacts for C-102 and C-103.",
                call("product_lookup", sku="SKU-300"),
                call("product_lookup", sku="SKU-100"),
                call("customer_contact_lookup", customer_id="C-102"),
                call("customer_contact_lookup", customer_id="C-103"),
                answer=["4", "12", "rossi", "connor"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("is a tomato a fruit or a vegetable?", answer=["fruit"]),)),
    Case("none", "fresh", (turn("thx, bye"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "What's 18% off 950?",
                call("discount_calculator", price=950, rate_percent=18),
                answer=["779"],
            ),
            turn(
                "ok and at 22%?",
                call("discount_calculator", price=950, rate_percent=22),
                answer=["741"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Add 'renew the domain' to my todos pls",
                call("todo_add", title=contains("domain")),
                answer=[("#1", "added")],
            ),
            turn(
                "Mark that one as done.",
                call("todo_complete", id=1),
                answer=[("completed", "done")],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "How many units of SKU-300 do we have on hand?",
                call("product_lookup", sku="SKU-300"),
                answer=["4"],
            ),
            turn(
                "Multiply that by 19.5 for me.",
                call("calculate", operation="multiply", left=4, right=19.5).commuting(
                    "left", "right"
                ),
                answer=["78"],
            ),
        ),
    ),
)
