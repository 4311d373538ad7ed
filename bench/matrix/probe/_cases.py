"""The probe's chained requests, by tool set."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn


def _chain(*turns_: object) -> Case:
    return Case("chain", "probe", tuple(turns_))  # type: ignore[arg-type]


SHOP = (
    _chain(
        turn(
            "Look up customer C-102 and add a to-do to call her back.",
            call("customer_contact_lookup", customer_id="C-102"),
            call("todo_add", title=contains("sofia")),
            answer=["sofia"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "How many units of SKU-300 do we have, and what would they cost at 40 each?",
            call("product_lookup", sku="SKU-300"),
            call("calculate", operation="multiply", left=4, right=40).commuting("left", "right"),
            answer=["160"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Take 15% off 2,400, then tell me what percentage the result is of 3,000.",
            call("discount_calculator", price=2400, rate_percent=15),
            call("percentage", part=2040, total=3000),
            answer=["2040", "68"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "What's 45 times 8, divided by 6?",
            call("calculate", operation="multiply", left=45, right=8).commuting("left", "right"),
            call("calculate", operation="divide", left=360, right=6),
            answer=["60"],
            ordered=True,
        )
    ),
)

CALENDAR = (
    _chain(
        turn(
            "What day of the week is it today?",
            call("today"),
            call("weekday", day="2026-03-14"),
            answer=["saturday"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "When is my dentist appointment, and what weekday is that?",
            call("find_events", query=contains("dentist")),
            call("weekday", day="2026-03-17"),
            answer=["tuesday"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Read me my wifi password note.",
            call("search_notes", query=contains("wifi")),
            call("read_note", note_id="N-2"),
            answer=["blue-falcon-42"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "How many days from today is my project review?",
            call("find_events", query=contains("project")),
            call("today"),
            call("days_between", start="2026-03-14", end="2026-03-18"),
            answer=["4"],
        )
    ),
)

ORDERS = (
    _chain(
        turn(
            "Convert 50 GBP to dollars, and then those dollars to yen.",
            call("currency_convert", amount=50, from_currency="GBP", to_currency="USD"),
            call("currency_convert", amount=63.29, from_currency="USD", to_currency="JPY"),
            answer=["9461"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Place an order for Lee Park, 2 units of SKU-7 by express, then check its status.",
            call(
                "create_order",
                customer={"name": "Lee Park"},
                items=[{"sku": "SKU-7", "quantity": 2}],
                shipping="express",
            ),
            call("order_status", order_id="O-1001"),
            answer=["processing"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "A parcel weighs 10 lb. Quote economy shipping to Canada for it.",
            call("convert_units", value=10, from_unit="lb", to_unit="kg"),
            call("shipping_quote", weight_kg=4.54, country="Canada", speed="economy"),
            answer=["23.89"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Average 80, 90 and 130 dollars and give me that in euros.",
            call("average", numbers=[80, 90, 130]),
            call("currency_convert", amount=100, from_currency="USD", to_currency="EUR"),
            answer=["92"],
            ordered=True,
        )
    ),
)

CLINIC = (
    _chain(
        turn(
            "Cancel Maria Gonzalez's next appointment.",
            call("find_patient", name=contains("gonzalez")),
            call("list_appointments", patient_id="P-101"),
            call("cancel_appointment", appointment_id="A-501"),
            answer=["a-501"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "What would patient P-101 pay for a blood test?",
            call("patient_lookup", patient_id="P-101"),
            call("visit_price", visit_type="blood test"),
            call("patient_share", price=60, coverage_percent=80),
            answer=["12"],
        )
    ),
    _chain(
        turn(
            "When is Dr. Brandt free on 2026-03-18?",
            call("list_doctors"),
            call("doctor_availability", doctor_id="D-3", day="2026-03-18"),
            answer=["15:00"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Book P-105 with our cardiologist on 2026-03-19 at 11:00 for a checkup.",
            call("list_doctors"),
            call(
                "book_appointment",
                patient_id="P-105",
                doctor_id="D-2",
                day="2026-03-19",
                time="11:00",
                visit_type="checkup",
            ),
            answer=["a-505"],
            ordered=True,
        )
    ),
)

PROBE = {"support-bot": SHOP, "calendar": CALENDAR, "orders": ORDERS, "clinic": CLINIC}
"""The probe's cases by tool set name."""
