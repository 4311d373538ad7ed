# fresh held-out half: do not read while tuning
"""The calendar tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "Which day of the week will 2027-02-14 be?",
                call("weekday", day="2027-02-14"),
                answer=["sunday"],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "how many days frm 2026-05-03 to 2026-08-21",
                call("days_between", start="2026-05-03", end="2026-08-21"),
                answer=["110"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "Weekdays for 2026-09-09 and 2026-10-31 please.",
                call("weekday", day="2026-09-09"),
                call("weekday", day="2026-10-31"),
                answer=["wednesday", "saturday"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "Make two notes: 'Boiler' saying 'service due in May', and 'Gym' saying "
                "'locker 212'.",
                call("add_note", title="Boiler", text=contains("service due in may")),
                call("add_note", title="Gym", text=contains("locker 212")),
                answer=[("n-3", "saved", "created", "added")],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "What weekday does my project review fall on?",
                call("find_events", query=contains("review")),
                call("weekday", day="2026-03-18"),
                answer=["wednesday"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Book a 2-hour 'Quarterly planning' in the first free spot on 2026-03-18.",
                call("find_free_slot", day="2026-03-18", minutes=120),
                call(
                    "add_event",
                    title=contains("quarterly planning"),
                    day="2026-03-18",
                    start="09:00",
                    minutes=120,
                ),
                answer=["9:00"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "On the day of my team sync, when could a 3-hour workshop start at the earliest?",
                call("find_events", query=contains("sync")),
                call("find_free_slot", day="2026-03-16", minutes=180),
                answer=["9:30"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Two things: the weekdays of 2026-06-01 and 2026-06-30, and what's booked on "
                "2026-03-18 and 2026-03-17?",
                call("weekday", day="2026-06-01"),
                call("weekday", day="2026-06-30"),
                call("list_events", day="2026-03-18"),
                call("list_events", day="2026-03-17"),
                answer=["monday", "tuesday", "project review", "dentist"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("Can you explain what a leap year is?"),)),
    Case("none", "fresh", (turn("cheers mate"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "What's happening on 2026-03-18?",
                call("list_events", day="2026-03-18"),
                answer=["project review"],
            ),
            turn("and on the 17th?", call("list_events", day="2026-03-17"), answer=["dentist"]),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Search my calendar for the dentist.",
                call("find_events", query=contains("dentist")),
                answer=[("2026-03-17", "march 17", "17 march")],
            ),
            turn("Which weekday is that?", call("weekday", day="2026-03-17"), answer=["tuesday"]),
        ),
    ),
)
