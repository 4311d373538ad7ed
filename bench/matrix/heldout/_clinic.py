# The held-out half of the clinic cases: do not read this file while tuning.
"""The clinic's held-out cases (reported, never tuned on)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn

CASES = (
    Case(
        "single",
        "held-out",
        (
            turn(
                "What appointments does patient P-103 have coming up?",
                call("list_appointments", patient_id="P-103"),
                answer=[("brandt", "a-502"), ("14:00", "2 pm", "2pm", "2:00 pm")],
            ),
        ),
    ),
    Case(
        "single",
        "held-out",
        (
            turn(
                "Please cancel appointment A-503.",
                call("cancel_appointment", appointment_id="A-503"),
                answer=["cancel"],
            ),
        ),
    ),
    Case(
        "twice",
        "held-out",
        (
            turn(
                "Find the patients called Khan, Sato and Novak.",
                call("find_patient", name=contains("khan")),
                call("find_patient", name=contains("sato")),
                call("find_patient", name=contains("novak")),
                answer=["p-103", "p-104", "p-105"],
            ),
        ),
    ),
    Case(
        "twice",
        "held-out",
        (
            turn(
                "What do a blood test and a consultation cost? I need both prices.",
                call("visit_price", visit_type="blood test"),
                call("visit_price", visit_type="consultation"),
                answer=["60", "120"],
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "Send Kenji Sato an e-mail that his test results are in.",
                call("find_patient", name=contains("sato")),
                call("patient_lookup", patient_id="P-104"),
                call("send_message", to="k.sato@netmail.example", text=contains("result")),
                answer=[("sent", "m-1")],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "What's the first time Dr. Reyes (D-4) has free on 2026-03-20? Book Lena Novak "
                "(P-105) into it for a vaccination.",
                call("doctor_availability", doctor_id="D-4", day="2026-03-20"),
                call(
                    "book_appointment",
                    patient_id="P-105",
                    doctor_id="D-4",
                    day="2026-03-20",
                    time="10:00",
                    visit_type="vaccination",
                ),
                answer=[("10:00", "10 am", "10am"), "a-505"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "What would patient P-102 pay for a consultation after insurance?",
                call("patient_lookup", patient_id="P-102"),
                call("visit_price", visit_type="consultation"),
                call("patient_share", price=120, coverage_percent=50),
                answer=["60"],
            ),
        ),
    ),
    Case(
        "multi",
        "held-out",
        (
            turn(
                "Find the patients named Gonzalez and Becker, and check Dr. Brandt's (D-3) free "
                "slots on 2026-03-18 and 2026-03-19.",
                call("find_patient", name=contains("gonzalez")),
                call("find_patient", name=contains("becker")),
                call("doctor_availability", doctor_id="D-3", day="2026-03-18"),
                call("doctor_availability", doctor_id="D-3", day="2026-03-19"),
                answer=[
                    ("p-101", "maria gonzalez"),
                    ("p-102", "tom becker"),
                    ("16:00", "4 pm", "4pm"),
                ],
            ),
        ),
    ),
    Case("none", "held-out", (turn("Good evening!"),)),
    Case("none", "held-out", (turn("What's the difference between a virus and a bacterium?"),)),
    Case(
        "follow-up",
        "held-out",
        (
            turn(
                "Does Dr. Haddad (D-2) have any openings on 2026-03-17?",
                call("doctor_availability", doctor_id="D-2", day="2026-03-17"),
                answer=[("10:00", "10 am", "10am")],
            ),
            turn(
                "What about 2026-03-19?",
                call("doctor_availability", doctor_id="D-2", day="2026-03-19"),
                answer=[("09:00", "9:00", "9 am", "9am")],
            ),
        ),
    ),
    Case(
        "refer",
        "held-out",
        (
            turn(
                "Can you find patient Maria Gonzalez?",
                call("find_patient", name=contains("gonzalez")),
                answer=[("p-101", "1984")],
            ),
            turn(
                "Book her in with Dr. Ward (D-1) for a checkup on 2026-03-17 at 11:00.",
                call(
                    "book_appointment",
                    patient_id="P-101",
                    doctor_id="D-1",
                    day="2026-03-17",
                    time="11:00",
                    visit_type="checkup",
                ),
                answer=["a-505"],
            ),
        ),
    ),
)
