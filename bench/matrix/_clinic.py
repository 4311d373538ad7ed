"""The clinic's front desk as a tool set: its development cases (tools in ``_clinic_tools``)."""

from __future__ import annotations

from bench.matrix._cases import Case, ToolSet, call, contains, turn
from bench.matrix._clinic_tools import build
from bench.matrix.heldout._clinic import CASES as HELD_OUT

CASES = (
    Case(
        "single",
        "dev",
        (
            turn(
                "Which dermatologists do you have?",
                call("list_doctors", specialty="dermatology"),
                answer=["brandt"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "How much is a blood test?",
                call("visit_price", visit_type="blood test"),
                answer=["60"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Pull up the records for patients P-102 and P-105.",
                call("patient_lookup", patient_id="P-102"),
                call("patient_lookup", patient_id="P-105"),
                answer=["tom becker", "lena novak"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "What do a checkup, a vaccination and an x-ray each cost?",
                call("visit_price", visit_type="checkup"),
                call("visit_price", visit_type="vaccination"),
                call("visit_price", visit_type="x-ray"),
                answer=["90", "45", "180"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Send patient P-103 an e-mail reminding her to bring her insurance card.",
                call("patient_lookup", patient_id="P-103"),
                call("send_message", to="aisha.khan@mailbox.example", text=contains("insurance")),
                answer=[("sent", "m-1")],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Book Tom Becker in with Dr. Haddad (D-2) on 2026-03-19 at 10:00 for a "
                "consultation.",
                call("find_patient", name=contains("becker")),
                call(
                    "book_appointment",
                    patient_id="P-102",
                    doctor_id="D-2",
                    day="2026-03-19",
                    time="10:00",
                    visit_type="consultation",
                ),
                answer=["a-505"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "How much will patient P-104 pay out of pocket for an x-ray?",
                call("patient_lookup", patient_id="P-104"),
                call("visit_price", visit_type="x-ray"),
                call("patient_share", price=180, coverage_percent=70),
                answer=["54"],
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Look up patients P-101 and P-104, and tell me what a checkup and a consultation "
                "cost.",
                call("patient_lookup", patient_id="P-101"),
                call("patient_lookup", patient_id="P-104"),
                call("visit_price", visit_type="checkup"),
                call("visit_price", visit_type="consultation"),
                answer=["maria gonzalez", "kenji sato", "90", "120"],
            ),
        ),
    ),
    Case("none", "dev", (turn("Hello there!"),)),
    Case("none", "dev", (turn("What does BMI stand for?", answer=["body mass index"]),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "What does a vaccination cost?",
                call("visit_price", visit_type="vaccination"),
                answer=["45"],
            ),
            turn("And an x-ray?", call("visit_price", visit_type="x-ray"), answer=["180"]),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "Who is patient P-105?",
                call("patient_lookup", patient_id="P-105"),
                answer=["lena novak"],
            ),
            turn(
                "Text her that her lab results are ready.",
                call("send_message", to="+420 2 555 0105", text=contains("result"), channel="sms"),
                answer=[("sent", "m-1")],
            ),
        ),
    ),
)

CLINIC = ToolSet("clinic", build, CASES + HELD_OUT)
