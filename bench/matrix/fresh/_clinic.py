# fresh held-out half: do not read while tuning
"""The clinic tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "who are ur cardiologists",
                call("list_doctors", specialty="cardiology"),
                answer=["haddad"],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "In what year was patient P-101 born?",
                call("patient_lookup", patient_id="P-101"),
                answer=["1984"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "What share of a visit does insurance cover for P-103, and for P-104?",
                call("patient_lookup", patient_id="P-103"),
                call("patient_lookup", patient_id="P-104"),
                answer=["90", "70"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "I'd like to know what's coming up for P-101 and for P-102.",
                call("list_appointments", patient_id="P-101"),
                call("list_appointments", patient_id="P-102"),
                answer=[("a-501", "ward", "checkup"), ("a-504", "reyes", "vaccination")],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Cancel Aisha Khan's next appointment.",
                call("find_patient", name=contains("khan")),
                call("list_appointments", patient_id="P-103"),
                call("cancel_appointment", appointment_id="A-502"),
                answer=["cancel"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "How much would P-101 be out of pocket for a blood test?",
                call("patient_lookup", patient_id="P-101"),
                call("visit_price", visit_type="blood test"),
                call("patient_share", price=60, coverage_percent=80),
                answer=["12"],
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "What do a vaccination and a blood test cost, and who are patients P-102 and "
                "P-103?",
                call("visit_price", visit_type="vaccination"),
                call("visit_price", visit_type="blood test"),
                call("patient_lookup", patient_id="P-102"),
                call("patient_lookup", patient_id="P-103"),
                answer=["45", "60", "tom becker", "aisha khan"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("What's a normal resting heart rate for an adult?"),)),
    Case("none", "fresh", (turn("ok thank you, have a nice day"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "Show me P-104's upcoming appointments.",
                call("list_appointments", patient_id="P-104"),
                answer=["haddad"],
            ),
            turn("And P-101's?", call("list_appointments", patient_id="P-101"), answer=["ward"]),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Look up Tom Becker for me.",
                call("find_patient", name=contains("becker")),
                answer=["becker"],
            ),
            turn(
                "Book him a vaccination with Dr. Reyes (D-4) on 2026-03-23 at 11:00.",
                call(
                    "book_appointment",
                    patient_id="P-102",
                    doctor_id="D-4",
                    day="2026-03-23",
                    time="11:00",
                    visit_type="vaccination",
                ),
                answer=["a-505"],
            ),
        ),
    ),
)
