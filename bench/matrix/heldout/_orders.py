# The held-out half of the order-desk cases: do not read this file while tuning.
"""The order desk's held-out cases (reported, never tuned on)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, one_of, turn

CASES = (
    Case(
        "single",
        "held-out",
        (
            turn(
                "What's the status of order O-2002?",
                call("order_status", order_id="O-2002"),
                answer=["shipped"],
            ),
        ),
    ),
    Case(
        "single",
        "held-out",
        (
            turn(
                "How much is 250 USD in EUR?",
                call("currency_convert", amount=250, from_currency="USD", to_currency="EUR"),
                answer=["230"],
            ),
        ),
    ),
    Case(
        "twice",
        "held-out",
        (
            turn(
                "Get me shipping quotes for a 2 kg parcel to Canada, one economy and one express.",
                call("shipping_quote", weight_kg=2, country="Canada", speed="economy"),
                call("shipping_quote", weight_kg=2, country="Canada", speed="express"),
                answer=["15", "32"],
            ),
        ),
    ),
    Case(
        "twice",
        "held-out",
        (
            turn(
                "How much is 60 kg in pounds, and 150 lb in kg? Both, please.",
                call("convert_units", value=60, from_unit="kg", to_unit="lb"),
                call("convert_units", value=150, from_unit="lb", to_unit="kg"),
                answer=["132.28", "68.04"],
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "Order 2 of SKU-7 for Ana Lima with express shipping, then tell me its status.",
                call(
                    "create_order",
                    customer={"name": "Ana Lima"},
                    items=[{"sku": "SKU-7", "quantity": 2}],
                    shipping="express",
                ),
                call("order_status", order_id="O-1001"),
                answer=["processing"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "Convert 10 lb to kg, then get me a standard shipping quote to France for that "
                "weight.",
                call("convert_units", value=10, from_unit="lb", to_unit="kg"),
                call("shipping_quote", weight_kg=4.54, country="France", speed="standard"),
                answer=["27.89"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "Average these three invoices in euros, 120, 95 and 130, convert that to "
                "dollars, and message the figure to Priya.",
                call("average", numbers=[120, 95, 130]),
                call("currency_convert", amount=115, from_currency="EUR", to_currency="USD"),
                call("send_message", to="Priya", text=contains("125")),
                answer=["125", ("sent", "m-1")],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "held-out",
        (
            turn(
                "Tell Sam and Lee that the inventory count starts at 3pm. Also, what's 18 km in "
                "miles and 40 lb in kg?",
                call("send_message", to="Sam", text=contains("inventory")),
                call("send_message", to="Lee", text=contains("inventory")),
                call("convert_units", value=18, from_unit="km", to_unit="mi"),
                call("convert_units", value=40, from_unit="lb", to_unit="kg"),
                answer=["11.18", "18.14", ("sent", "m-1", "m-2")],
            ),
        ),
    ),
    Case("none", "held-out", (turn("Who wrote Hamlet?", answer=["shakespeare"]),)),
    Case("none", "held-out", (turn("Can you book me a flight to Rome?"),)),
    Case(
        "follow-up",
        "held-out",
        (
            turn(
                "Send a high-priority message to Sam saying the shipment is late.",
                call("send_message", to="Sam", text=contains("late"), priority="high"),
                answer=[("sent", "m-1")],
            ),
            turn(
                "Send the same message to Priya.",
                call("send_message", to="Priya", text=contains("late")),
                answer=[("sent", "m-2")],
            ),
        ),
    ),
    Case(
        "refer",
        "held-out",
        (
            turn(
                "When is order O-2002 arriving?",
                call("order_status", order_id="O-2002"),
                answer=[("2026-03-18", "march 18", "18 march")],
            ),
            turn(
                "Let Ben know by message.",
                call(
                    "send_message",
                    to="Ben",
                    text=one_of(contains("2026-03-18"), contains("march 18"), contains("18 march")),
                ),
                answer=[("sent", "m-1")],
            ),
        ),
    ),
)
