"""The probe's chained requests, by tool set, in two sets of four per tool set.

The first four of each tuple were read in the fifth pass; the second four were written in the
seventh pass and are unread by the model's tuning until measured. Keep the order: case ids are
positional.
"""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, one_of, turn


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
    # Second set, written 2026-12-03 (seventh pass), unread by the model's tuning until measured.
    _chain(
        turn(
            "We need 20 copies of Agent Design Notes for a workshop. How many short are we?",
            call("product_list"),
            call("calculate", operation="subtract", left=20, right=7),
            answer=["13"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Reserve every SKU-300 we still have.",
            call("product_lookup", sku="SKU-300"),
            call("product_reserve", sku="SKU-300", quantity=4),
            answer=["4", ("r-1", "reserved")],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Add a to-do to send out today's stock report, with the date in it.",
            call("current_date"),
            call(
                "todo_add",
                title=one_of(contains("2026-03-14"), contains("march 14"), contains("14 march")),
            ),
            answer=[("2026-03-14", "march 14", "14 march"), ("added", "#1")],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Knock 15% off 1,980 and put a to-do on my list to quote Daniel that price.",
            call("discount_calculator", price=1980, rate_percent=15),
            call("todo_add", title=one_of(contains("1683"), contains("1,683"))),
            answer=["1683"],
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
    # Second set, written 2026-12-03 (seventh pass), unread by the model's tuning until measured.
    _chain(
        turn(
            "Please drop the team sync from my calendar, I can't make it.",
            call("find_events", query=one_of(contains("sync"), contains("team"))),
            call("cancel_event", event_id="E-1"),
            answer=["cancel"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Push my dentist appointment to 2026-03-19, same time.",
            call("find_events", query=contains("dentist")),
            call("cancel_event", event_id="E-2"),
            call("add_event", title=contains("dentist"), day="2026-03-19", start="15:00"),
            answer=[("moved", "cancel", "rescheduled"), ("15:00", "3 pm", "3:00 pm")],
        )
    ),
    _chain(
        turn(
            "Put 'Call the bank' on my calendar for today at 16:00.",
            call("today"),
            call("add_event", title=contains("bank"), day="2026-03-14", start="16:00"),
            answer=[("e-4", "added", "booked", "scheduled")],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "On the day of my project review, find two free hours and block them for tax "
            "paperwork.",
            call("find_events", query=one_of(contains("project"), contains("review"))),
            call("find_free_slot", day="2026-03-18", minutes=120),
            call("add_event", title=contains("tax"), day="2026-03-18", start="09:00", minutes=120),
            answer=["9:00"],
            ordered=True,
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
    # Second set, written 2026-12-03 (seventh pass), unread by the model's tuning until measured.
    _chain(
        turn(
            "When will order O-2002 arrive? Let Priya know the date.",
            call("order_status", order_id="O-2002"),
            call(
                "send_message",
                to="Priya",
                text=one_of(contains("2026-03-18"), contains("march 18"), contains("18 march")),
            ),
            answer=[("2026-03-18", "march 18", "18 march"), ("sent", "m-1")],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "The warehouse thermometer reads 86 °F. Message Ravi the reading in Celsius, high "
            "priority.",
            call("convert_units", value=86, from_unit="fahrenheit", to_unit="celsius"),
            call("send_message", to="Ravi", text=contains("30"), priority="high"),
            answer=["30", ("sent", "m-1")],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "For a 3 kg box to Norway, what's the average of the economy and express shipping "
            "prices?",
            call("shipping_quote", weight_kg=3, country="Norway", speed="economy"),
            call("shipping_quote", weight_kg=3, country="Norway", speed="express"),
            call("average", numbers=one_of([18.5, 35.5], [35.5, 18.5])),
            answer=["27"],
        )
    ),
    _chain(
        turn(
            "Order SKU-5 for Carla Mendes by express, as many as we sell in an average week; "
            "the last four weeks were 14, 18, 22 and 26.",
            call("average", numbers=[14, 18, 22, 26]),
            call(
                "create_order",
                customer={"name": "Carla Mendes"},
                items=[{"sku": "SKU-5", "quantity": 20}],
                shipping="express",
            ),
            answer=["20", "o-1001"],
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
    # Second set, written 2026-12-03 (seventh pass), unread by the model's tuning until measured.
    _chain(
        turn(
            "Send Tom Becker a text that our parking lot is closed this week.",
            call("find_patient", name=contains("becker")),
            call("patient_lookup", patient_id="P-102"),
            call("send_message", to="+49 30 555 0102", text=contains("parking"), channel="sms"),
            answer=[("sent", "m-1")],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "When is Aisha Khan coming in, and who is she seeing?",
            call("find_patient", name=contains("khan")),
            call("list_appointments", patient_id="P-103"),
            answer=[("14:00", "2 pm", "2:00 pm"), ("2026-03-18", "march 18", "18 march"), "brandt"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Kenji Sato's checkup comes to 90 EUR. How much of it does he pay himself?",
            call("find_patient", name=contains("sato")),
            call("patient_lookup", patient_id="P-104"),
            call("patient_share", price=90, coverage_percent=70),
            answer=["27"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Book P-101 into Dr. Haddad's earliest opening on 2026-03-17, for a consultation.",
            call("list_doctors"),
            call("doctor_availability", doctor_id="D-2", day="2026-03-17"),
            call(
                "book_appointment",
                patient_id="P-101",
                doctor_id="D-2",
                day="2026-03-17",
                time="10:00",
                visit_type="consultation",
            ),
            answer=["a-505", "10:00"],
            ordered=True,
        )
    ),
)

PROBE = {"support-bot": SHOP, "calendar": CALENDAR, "orders": ORDERS, "clinic": CLINIC}
"""The probe's cases by tool set name."""
