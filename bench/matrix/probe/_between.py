"""A fifth probe set: chains with a step between what the request gives and what it asks.

Written in the twenty-third pass (2026-12-06), before any rule of that pass was judged on
it, for the shape most of the held-out half's chain misses were counted in (not read): the
first line of the plan needs a value the request does not give, so a lookup comes first,
and a third step follows. Here a result holds an id of another kind than the next step takes
(a patient's id where an appointment's goes), the request names a record only by what it is
("the product we have the most of", "Tom Becker's vaccination"), or a number the request
gives must be converted before the step that takes it. Four per tool set, in phrasings the
other sets do not use. Keep the order: case ids are positional (probe cases 40-43, the
calendar's 48-51).
"""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, probe_case, turn

__all__ = ["BETWEEN"]


SHOP = (
    probe_case(
        "chain",
        turn(
            "Put 'Send the SKU-300 catalogue' on my to-do list and then mark it as done.",
            call("todo_add", title=contains("sku-300", "catalogue")),
            call("todo_complete", id=1),
            answer=[("done", "complete")],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "How many SKU-200 do we have? At 20 apiece, what is that stock worth after 10% off?",
            call("product_lookup", sku="SKU-200"),
            call("calculate", operation="multiply", left=7, right=20).commuting("left", "right"),
            call("discount_calculator", price=140, rate_percent=10),
            answer=["126"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Set aside 3 units of whichever product has the most stock.",
            call("product_list"),
            call("product_reserve", sku="SKU-100", quantity=3),
            answer=["sku-100"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "What is customer C-102's phone number? Add a to-do to ring that number.",
            call("customer_contact_lookup", customer_id="C-102"),
            call("todo_add", title=contains("0102")),
            answer=["0102"],
            ordered=True,
        ),
    ),
)

CALENDAR = (
    probe_case(
        "chain",
        turn(
            "How many days away is my dentist appointment?",
            call("find_events", query=contains("dentist")),
            call("today"),
            call("days_between", start="2026-03-14", end="2026-03-17"),
            answer=["3"],
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Book 'Lunch with Ana' in the first free 45 minutes on the day of my project review.",
            call("find_events", query=contains("review")),
            call("find_free_slot", day="2026-03-18", minutes=45),
            call("add_event", title=contains("lunch"), day="2026-03-18", start="09:00", minutes=45),
            answer=[("09:00", "9:00", "9 am")],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Clear everything off my calendar for 2026-03-16.",
            call("list_events", day="2026-03-16"),
            call("cancel_event", event_id="E-1"),
            answer=[("cancel", "removed", "cleared", "deleted")],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Copy the wifi password into a new note called 'Guest wifi'.",
            call("search_notes", query=contains("wifi")),
            call("read_note", note_id="N-2"),
            call("add_note", title=contains("guest"), text=contains("blue-falcon-42")),
            answer=["n-3"],
            ordered=True,
        ),
    ),
)

ORDERS = (
    probe_case(
        "chain",
        turn(
            "A parcel weighs 6 lb. What's express shipping to Japan for it, in euros?",
            call("convert_units", value=6, from_unit="lb", to_unit="kg"),
            call("shipping_quote", weight_kg=2.72, country="Japan", speed="express"),
            call("currency_convert", amount=34.52, from_currency="USD", to_currency="EUR"),
            answer=["31.76"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Average 2, 4 and 9, and quote economy shipping to Canada for that many kg.",
            call("average", numbers=[2, 4, 9]),
            call("shipping_quote", weight_kg=5, country="Canada", speed="economy"),
            answer=["25.5"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Change 2,500 JPY into euros, and those euros into dollars.",
            call("currency_convert", amount=2500, from_currency="JPY", to_currency="EUR"),
            call("currency_convert", amount=15.38, from_currency="EUR", to_currency="USD"),
            answer=["16.72"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Message Priya what express shipping of a 3 kg parcel to Brazil costs.",
            call("shipping_quote", weight_kg=3, country="Brazil", speed="express"),
            call("send_message", to="Priya", text=contains("35.5")),
            answer=[("sent", "m-1")],
            ordered=True,
        ),
    ),
)

CLINIC = (
    probe_case(
        "chain",
        turn(
            "When does Aisha Khan see the doctor next?",
            call("find_patient", name=contains("khan")),
            call("list_appointments", patient_id="P-103"),
            answer=[("2026-03-18", "march 18", "18 march")],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Cancel Tom Becker's vaccination.",
            call("find_patient", name=contains("becker")),
            call("list_appointments", patient_id="P-102"),
            call("cancel_appointment", appointment_id="A-504"),
            answer=[("cancel",)],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "Is our dermatologist free on 2026-03-18?",
            call("list_doctors"),
            call("doctor_availability", doctor_id="D-3", day="2026-03-18"),
            answer=["09:00"],
            ordered=True,
        ),
    ),
    probe_case(
        "chain",
        turn(
            "E-mail Lena Novak that her lab results are in.",
            call("find_patient", name=contains("novak")),
            call("patient_lookup", patient_id="P-105"),
            call("send_message", to="lena.novak@post.example", text=contains("lab")),
            answer=[("sent", "m-1")],
            ordered=True,
        ),
    ),
)

BETWEEN: dict[str, tuple[Case, ...]] = {
    "support-bot": SHOP,
    "calendar": CALENDAR,
    "orders": ORDERS,
    "clinic": CLINIC,
}
"""The fifth probe set's requests by tool set name."""
