"""A fourth probe set: steps the request asks for with no value and no tool's name.

Written in the twenty-second pass (2026-12-06) for the shapes the held-out half's misses were
counted in (not read): a chain whose second step takes the first step's result, carries no
value of the request and is named by no word of a tool's name ("Get rid of my project
review."), a chain that may take one call too many, and one tool three times. Four per tool
set, in phrasings the other sets do not use. Keep the order: case ids are positional (probe
cases 36-39, the calendar's 44-47).
"""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, probe_case, turn

__all__ = ["STEPS"]


SHOP = (
    probe_case(
        "chain",
        turn(
            "Who is customer C-104? Put a to-do on my list to e-mail them.",
            call("customer_contact_lookup", customer_id="C-104"),
            call("todo_add", title=contains("aiko")),
            answer=["aiko"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "How much SKU-100 stock is there, and what share of it are 3 units?",
            call("product_lookup", sku="SKU-100"),
            call("percentage", part=3, total=12),
            answer=["25"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Take 20% off 450 and then double it.",
            call("discount_calculator", price=450, rate_percent=20),
            call("calculate", operation="multiply", left=360, right=2).commuting("left", "right"),
            answer=["720"],
            ordered=True,
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Look up SKU-100, SKU-200 and SKU-300 for me one by one.",
            call("product_lookup", sku="SKU-100"),
            call("product_lookup", sku="SKU-200"),
            call("product_lookup", sku="SKU-300"),
            answer=["12", "7", "4"],
        ),
    ),
)

CALENDAR = (
    probe_case(
        "chain",
        turn(
            "Get rid of my project review.",
            call("find_events", query=contains("review")),
            call("cancel_event", event_id="E-3"),
            answer=[("cancel", "removed", "deleted")],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "What's in my groceries note?",
            call("search_notes", query=contains("groceries")),
            call("read_note", note_id="N-1"),
            answer=["milk"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Find me a free hour on the day of the dentist.",
            call("find_events", query=contains("dentist")),
            call("find_free_slot", day="2026-03-17", minutes=60),
            answer=[("09:00", "9:00", "9 am")],
            ordered=True,
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Tell me the weekday of 2026-05-01, of 2026-06-01 and of 2026-07-01.",
            call("weekday", day="2026-05-01"),
            call("weekday", day="2026-06-01"),
            call("weekday", day="2026-07-01"),
            answer=["friday", "monday", "wednesday"],
        ),
    ),
)

ORDERS = (
    probe_case(
        "chain",
        turn(
            "Place an order for Omar Diaz, 4 of SKU-2, and tell me where it stands.",
            call(
                "create_order",
                customer={"name": "Omar Diaz"},
                items=[{"sku": "SKU-2", "quantity": 4}],
            ),
            call("order_status", order_id="O-1001"),
            answer=["processing"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "How much is 40 GBP in yen? Send that figure to Priya.",
            call("currency_convert", amount=40, from_currency="GBP", to_currency="JPY"),
            call("send_message", to="Priya", text=contains("7569")),
            answer=["7569"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "What does express shipping to Spain cost for a 12 lb parcel?",
            call("convert_units", value=12, from_unit="lb", to_unit="kg"),
            call("shipping_quote", weight_kg=5.44, country="Spain", speed="express"),
            answer=["44.04"],
            ordered=True,
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Convert 10 km, 26 km and 42 km to miles.",
            call("convert_units", value=10, from_unit="km", to_unit="mi"),
            call("convert_units", value=26, from_unit="km", to_unit="mi"),
            call("convert_units", value=42, from_unit="km", to_unit="mi"),
            answer=["6.21", "16.16", "26.1"],
        ),
    ),
)

CLINIC = (
    probe_case(
        "chain",
        turn(
            "What's Lena Novak's phone number?",
            call("find_patient", name=contains("novak")),
            call("patient_lookup", patient_id="P-105"),
            answer=["555 0105"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Which doctor is Maria Gonzalez seeing next?",
            call("find_patient", name=contains("gonzalez")),
            call("list_appointments", patient_id="P-101"),
            answer=["ward"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Call off Kenji Sato's appointment.",
            call("find_patient", name=contains("sato")),
            call("list_appointments", patient_id="P-104"),
            call("cancel_appointment", appointment_id="A-503"),
            answer=["a-503"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "How much would patient P-102 pay for a vaccination?",
            call("patient_lookup", patient_id="P-102"),
            call("visit_price", visit_type="vaccination"),
            call("patient_share", price=45, coverage_percent=50),
            answer=["22.5"],
        ),
    ),
)

STEPS: dict[str, tuple[Case, ...]] = {
    "support-bot": SHOP,
    "calendar": CALENDAR,
    "orders": ORDERS,
    "clinic": CLINIC,
}
"""The fourth probe set's cases by tool set name."""
