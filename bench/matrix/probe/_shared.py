"""An eighth probe set: one tool twice, the second call naming only the value that changes.

Written in the twenty-fourth pass (2026-12-06), before any rule was judged on it, after the
held-out half's last miss of this kind was counted (not read): two lines of one tool whose
expected calls share a value, the first right, the second carrying the request's values in
the wrong places and not the shared one. So each request here gives the shared value once
("from 2026-03-16 …, and to 2026-05-01"). Calendar only (cases 60-63); keep the order, case
ids are positional.
"""

from __future__ import annotations

from bench.matrix._cases import Case, call, probe_case, turn

__all__ = ["SHARED"]


CALENDAR = (
    probe_case(
        "twice",
        turn(
            "How many days are there from 2026-03-16 to 2026-04-01, and to 2026-05-01?",
            call("days_between", start="2026-03-16", end="2026-04-01"),
            call("days_between", start="2026-03-16", end="2026-05-01"),
            answer=["16", "46"],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Starting 2026-03-14, how many days until 2026-03-20 and until 2026-03-27?",
            call("days_between", start="2026-03-14", end="2026-03-20"),
            call("days_between", start="2026-03-14", end="2026-03-27"),
            answer=["6", "13"],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Count the days from 2026-03-01 to 2026-03-31, then from 2026-03-15 to the same day.",
            call("days_between", start="2026-03-01", end="2026-03-31"),
            call("days_between", start="2026-03-15", end="2026-03-31"),
            answer=["30", "16"],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Put 'Gym' on 2026-03-21 at 07:00, and again at 18:00.",
            call("add_event", title="Gym", day="2026-03-21", start="07:00"),
            call("add_event", title="Gym", day="2026-03-21", start="18:00"),
            answer=["e-4", "e-5"],
        ),
    ),
)

SHARED: dict[str, tuple[Case, ...]] = {"calendar": CALENDAR}
"""The eighth probe set's requests by tool set name (the calendar's only)."""
