"""The probe's requests that ask for several independent things at once, by tool set.

Written on 2026-12-04 (tenth pass) to measure requests that ask for several things in one
message: two different tools, each called twice, and no call needs another call's result, so
the calls could run in any order or all at once. The phrasings are deliberately not the
development half's "X and Y, and Z and W": a numbered or bulleted list, separate sentences or
questions, an "Also, ...", a later ask put first ("..., but first ..."), a polite preamble.
Every value is in the request (no relative dates, no ids a tool would have to find).

Once read, these are development requests too: a rule is still chosen here and judged on the
held-out half. Keep the order: case ids are positional.
"""

from __future__ import annotations

from bench.matrix._cases import Case, Turn, call, contains, turn


def _multi(request: Turn) -> Case:
    return Case("multi", "probe", (request,))


SHOP = (
    _multi(
        turn(
            "A few quick lookups, please:\n"
            "1. Who is customer C-103?\n"
            "2. How many SKU-300 are in stock?\n"
            "3. Who is C-102?\n"
            "4. And how many SKU-100?",
            call("customer_contact_lookup", customer_id="C-103"),
            call("product_lookup", sku="SKU-300"),
            call("customer_contact_lookup", customer_id="C-102"),
            call("product_lookup", sku="SKU-100"),
            answer=["connor", "sofia", "4", "12"],
        )
    ),
    _multi(
        turn(
            "Two quotes to price up: 2,750 with 18% off, and 880 with 25% off. Also, I need "
            "1,234 times 56, plus 9,000 divided by 16.",
            call("discount_calculator", price=2750, rate_percent=18),
            call("discount_calculator", price=880, rate_percent=25),
            call("calculate", operation="multiply", left=1234, right=56).commuting("left", "right"),
            call("calculate", operation="divide", left=9000, right=16),
            answer=["2255", "660", "69104", "562.5"],
        )
    ),
    _multi(
        turn(
            "Once you've told me what percentage 45 is of 60, and what percentage 18 is of 72, "
            "add two to-dos for me: 'Ship the Harbor Coffee order' and 'Renew the domain'.",
            call("percentage", part=45, total=60),
            call("percentage", part=18, total=72),
            call("todo_add", title=contains("harbor coffee")),
            call("todo_add", title=contains("domain")),
            answer=["75", "25", ("added", "#1")],
        )
    ),
    _multi(
        turn(
            "Hi, hope your week is going well! Could you please reserve 3 units of SKU-100 and "
            "2 of SKU-200 for me? Pull up the contact details for C-101 and C-105 while you're "
            "at it. Thanks a lot!",
            call("product_reserve", sku="SKU-100", quantity=3),
            call("product_reserve", sku="SKU-200", quantity=2),
            call("customer_contact_lookup", customer_id="C-101"),
            call("customer_contact_lookup", customer_id="C-105"),
            answer=[("reserved", "r-1"), "9", "5", "daniel", "lucas"],
        )
    ),
)

CALENDAR = (
    _multi(
        turn(
            "How many days are there from 2026-04-03 to 2026-04-19? What about from 2026-08-09 "
            "to 2026-08-30? I'd also like to know which weekdays 2026-04-03 and 2026-08-09 fall "
            "on.",
            call("days_between", start="2026-04-03", end="2026-04-19"),
            call("days_between", start="2026-08-09", end="2026-08-30"),
            call("weekday", day="2026-04-03"),
            call("weekday", day="2026-08-09"),
            answer=["16", "21", "friday", "sunday"],
        )
    ),
    _multi(
        turn(
            "Save two notes for me: 'Gate code' with the text 4471#, and 'Book club' saying "
            "'Chapter 9 by Friday'. Also, what's on my calendar on 2026-03-18? And on 2026-03-16?",
            call("add_note", title=contains("gate code"), text=contains("4471")),
            call("add_note", title=contains("book club"), text=contains("chapter 9")),
            call("list_events", day="2026-03-18"),
            call("list_events", day="2026-03-16"),
            answer=[("n-3", "saved", "added", "created"), "project review", "team sync"],
        )
    ),
    _multi(
        turn(
            "Sorry to bug you again! Could you read me notes N-1 and N-2, and find the first "
            "free 3-hour slot on 2026-03-18 and the first free 45 minutes on 2026-03-16?",
            call("read_note", note_id="N-1"),
            call("read_note", note_id="N-2"),
            call("find_free_slot", day="2026-03-18", minutes=180),
            call("find_free_slot", day="2026-03-16", minutes=45),
            answer=["milk", "blue-falcon-42", "11:45", "9:30"],
        )
    ),
    _multi(
        turn(
            "Calendar admin:\n"
            "- add 'Piano lesson' on 2026-03-19 at 17:00\n"
            "- add 'Car service' on 2026-03-21 at 08:30, two hours long\n"
            "- which weekday is 2026-04-30?\n"
            "- which weekday is 2026-05-29?",
            call("add_event", title=contains("piano"), day="2026-03-19", start="17:00"),
            call(
                "add_event",
                title=contains("car service"),
                day="2026-03-21",
                start="08:30",
                minutes=120,
            ),
            call("weekday", day="2026-04-30"),
            call("weekday", day="2026-05-29"),
            answer=[("e-4", "added", "booked", "scheduled"), "thursday", "friday"],
        )
    ),
)

ORDERS = (
    _multi(
        turn(
            "Can you do these for me: 1) express shipping for a 1.5 kg parcel to Mexico, "
            "2) economy shipping for 4 kg to Chile, 3) 26.2 miles in km, 4) 20 °C in Fahrenheit.",
            call("shipping_quote", weight_kg=1.5, country="Mexico", speed="express"),
            call("shipping_quote", weight_kg=4, country="Chile", speed="economy"),
            call("convert_units", value=26.2, from_unit="mi", to_unit="km"),
            call("convert_units", value=20, from_unit="celsius", to_unit="fahrenheit"),
            answer=["30.25", "22", "42.16", "68"],
        )
    ),
    _multi(
        turn(
            "Tell Ravi the dock door is fixed, and let Priya know the team lunch moved to "
            "Friday. Also, how much are 250 EUR and 40 GBP in US dollars?",
            call("send_message", to="Ravi", text=contains("dock")),
            call("send_message", to="Priya", text=contains("lunch")),
            call("currency_convert", amount=250, from_currency="EUR", to_currency="USD"),
            call("currency_convert", amount=40, from_currency="GBP", to_currency="USD"),
            answer=[("sent", "m-1"), "271.74", "50.63"],
        )
    ),
    _multi(
        turn(
            "Good morning, and thanks for the help yesterday! Please place an order for Nina "
            "Rossi, 3 of SKU-4, and one for Omar Diaz, 1 of SKU-8 by express. Separately: our "
            "weekly sales were 12, 15 and 21 for one product and 7 and 10 for another. What are "
            "the two averages?",
            call(
                "create_order",
                customer={"name": "Nina Rossi"},
                items=[{"sku": "SKU-4", "quantity": 3}],
            ),
            call(
                "create_order",
                customer={"name": "Omar Diaz"},
                items=[{"sku": "SKU-8", "quantity": 1}],
                shipping="express",
            ),
            call("average", numbers=[12, 15, 21]),
            call("average", numbers=[7, 10]),
            answer=["o-1001", "o-1002", "16", "8.5"],
        )
    ),
    _multi(
        turn(
            "Average 3.5, 4 and 6 for me, and separately 120, 80, 95 and 105, but before that, "
            "message Ravi that the pallets arrive Tuesday and send Priya a high-priority note "
            "about the stock count at 3pm.",
            call("average", numbers=[3.5, 4, 6]),
            call("average", numbers=[120, 80, 95, 105]),
            call("send_message", to="Ravi", text=contains("pallet")),
            call("send_message", to="Priya", text=contains("stock"), priority="high"),
            answer=["4.5", "100", ("sent", "m-1")],
        )
    ),
)

CLINIC = (
    _multi(
        turn(
            "I have a caller on hold and need:\n"
            "- Dr. Ward's (D-1) free times on 2026-03-16\n"
            "- Dr. Brandt's (D-3) free times on 2026-03-18\n"
            "- what a vaccination costs\n"
            "- what a blood test costs",
            call("doctor_availability", doctor_id="D-1", day="2026-03-16"),
            call("doctor_availability", doctor_id="D-3", day="2026-03-18"),
            call("visit_price", visit_type="vaccination"),
            call("visit_price", visit_type="blood test"),
            answer=[
                ("14:00", "2 pm", "2:00 pm", "2pm"),
                ("10:00", "10 am", "10am"),
                "45",
                "60",
            ],
        )
    ),
    _multi(
        turn(
            "A bill of 250 EUR with 65% insurance coverage: how much does the patient pay? Same "
            "question for 80 EUR at 25%. Also, list the upcoming appointments of P-102 and P-104.",
            call("patient_share", price=250, coverage_percent=65),
            call("patient_share", price=80, coverage_percent=25),
            call("list_appointments", patient_id="P-102"),
            call("list_appointments", patient_id="P-104"),
            answer=["87.5", "60", "reyes", "haddad"],
        )
    ),
    _multi(
        turn(
            "Hello, and sorry for the long list! Please book P-103 with Dr. Ward (D-1) on "
            "2026-03-19 at 09:00 for a checkup, and P-105 with Dr. Reyes (D-4) on 2026-03-20 at "
            "11:00 for a vaccination. I'd also be grateful if you could pull up the records for "
            "P-101 and P-104.",
            call(
                "book_appointment",
                patient_id="P-103",
                doctor_id="D-1",
                day="2026-03-19",
                time="09:00",
                visit_type="checkup",
            ),
            call(
                "book_appointment",
                patient_id="P-105",
                doctor_id="D-4",
                day="2026-03-20",
                time="11:00",
                visit_type="vaccination",
            ),
            call("patient_lookup", patient_id="P-101"),
            call("patient_lookup", patient_id="P-104"),
            answer=["a-505", "a-506", "maria gonzalez", "kenji sato"],
        )
    ),
    _multi(
        turn(
            "Cancel appointments A-501 and A-502, but first find me the patients named Becker "
            "and Novak.",
            call("cancel_appointment", appointment_id="A-501"),
            call("cancel_appointment", appointment_id="A-502"),
            call("find_patient", name=contains("becker")),
            call("find_patient", name=contains("novak")),
            answer=["cancel", ("p-102", "tom becker"), ("p-105", "lena novak")],
        )
    ),
)

MULTI = {"support-bot": SHOP, "calendar": CALENDAR, "orders": ORDERS, "clinic": CLINIC}
"""The probe's several-things-at-once requests by tool set name."""
