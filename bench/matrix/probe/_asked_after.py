"""A seventh probe set: the calendar's one tool twice, then a question about the two results.

Written in the twenty-fourth pass (2026-12-06), before any rule of the pass was judged on
it. The held-out half's last miss of this kind, counted (not read), writes two lines and
then ``BareStepAsked`` asks about a part of the request with no value, after which the model
writes nothing more: so each request here ends with such a part ("Are they the same?",
"which is earlier"), answered from the two results with no third call. Calendar only (cases
56-59); keep the order, case ids are positional.
"""

from __future__ import annotations

from bench.matrix._cases import Case, call, probe_case, turn

__all__ = ["ASKED_AFTER"]


CALENDAR = (
    probe_case(
        "twice",
        turn(
            "What weekday is 2026-03-20, and what weekday is 2026-03-27? Are they the same?",
            call("weekday", day="2026-03-20"),
            call("weekday", day="2026-03-27"),
            answer=["friday"],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "How many days is it from 2026-03-16 to 2026-04-01, and from 2026-03-16 to "
            "2026-05-01? Which is further?",
            call("days_between", start="2026-03-16", end="2026-04-01"),
            call("days_between", start="2026-03-16", end="2026-05-01"),
            answer=["16", "46"],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Read notes N-1 and N-2 and tell me which one is longer.",
            call("read_note", note_id="N-1"),
            call("read_note", note_id="N-2"),
            answer=["milk", "blue-falcon-42"],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Find a free 60-minute slot on 2026-03-16 and one on 2026-03-17, then say which "
            "is earlier.",
            call("find_free_slot", day="2026-03-16", minutes=60),
            call("find_free_slot", day="2026-03-17", minutes=60),
            answer=[("09:30", "9:30"), ("09:00", "9:00", "9 am")],
        ),
    ),
)

ASKED_AFTER: dict[str, tuple[Case, ...]] = {"calendar": CALENDAR}
"""The seventh probe set's requests by tool set name (the calendar's only)."""
