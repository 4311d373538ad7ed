# The held-out half of the calendar cases: do not read this file while tuning.
"""The calendar tool set's held-out cases (reported, never tuned on)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn

CASES = (
    Case(
        "single",
        "held-out",
        (
            turn(
                "How many days are there between 2026-03-14 and 2026-04-02?",
                call("days_between", start="2026-03-14", end="2026-04-02"),
                answer=["19"],
            ),
        ),
    ),
    Case(
        "single",
        "held-out",
        (
            turn(
                "Do I have any notes about groceries?",
                call("search_notes", query=contains("groceries")),
                answer=[("n-1", "groceries")],
            ),
        ),
    ),
    Case(
        "twice",
        "held-out",
        (
            turn(
                "Show my events on 2026-03-16 and on 2026-03-18.",
                call("list_events", day="2026-03-16"),
                call("list_events", day="2026-03-18"),
                answer=["team sync", "project review"],
            ),
        ),
    ),
    Case(
        "twice",
        "held-out",
        (
            turn(
                "How many days is it from 2026-03-14 to 2026-07-01, and to 2026-12-25? I need "
                "both.",
                call("days_between", start="2026-03-14", end="2026-07-01"),
                call("days_between", start="2026-03-14", end="2026-12-25"),
                answer=["109", "286"],
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "Find my wifi password in my notes.",
                call("search_notes", query=contains("wifi")),
                call("read_note", note_id="N-2"),
                answer=["blue-falcon-42"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "Cancel my project review.",
                call("find_events", query=contains("review")),
                call("cancel_event", event_id="E-3"),
                answer=["cancel"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "held-out",
        (
            turn(
                "How many days until my dentist appointment?",
                call("find_events", query=contains("dentist")),
                call("today"),
                call("days_between", start="2026-03-14", end="2026-03-17"),
                answer=["3"],
            ),
        ),
    ),
    Case(
        "multi",
        "held-out",
        (
            turn(
                "Save two notes, 'Locker' saying 'row 4, number 18' and 'Parking' saying "
                "'level B2', and tell me how many days it is from 2026-03-14 to 2026-04-30 and "
                "to 2026-08-15.",
                call("add_note", title="Locker", text=contains("row 4", "18")),
                call("add_note", title="Parking", text=contains("B2")),
                call("days_between", start="2026-03-14", end="2026-04-30"),
                call("days_between", start="2026-03-14", end="2026-08-15"),
                answer=["47", "154", ("n-3", "n-4", "saved", "added")],
            ),
        ),
    ),
    Case("none", "held-out", (turn("Tell me a joke."),)),
    Case("none", "held-out", (turn("Can you order me a pizza?"),)),
    Case(
        "follow-up",
        "held-out",
        (
            turn(
                "Add a note titled Gate code with the text 4417.",
                call("add_note", title="Gate code", text="4417"),
                answer=["n-3"],
            ),
            turn(
                "Now read that note back to me.", call("read_note", note_id="N-3"), answer=["4417"]
            ),
        ),
    ),
    Case(
        "refer",
        "held-out",
        (
            turn(
                "Add a 45-minute 'Call with the bank' on 2026-03-19 at 14:00.",
                call(
                    "add_event",
                    title=contains("bank"),
                    day="2026-03-19",
                    start="14:00",
                    minutes=45,
                ),
                answer=[("e-4", "added", "booked", "scheduled")],
            ),
            turn("Actually, scrap that.", call("cancel_event", event_id="E-4"), answer=["cancel"]),
        ),
    ),
)
