"""A sixth probe set: the calendar's one tool twice, in phrasings no other set uses.

Written in the twenty-third pass (2026-12-06) after the held-out half's last miss of this
kind was counted (not read): a calendar request for one tool twice where two lines are
written and neither is right. Calendar only (cases 52-55); keep the order, case ids are
positional.
"""

from __future__ import annotations

from bench.matrix._cases import Case, call, probe_case, turn

__all__ = ["TWICE"]


CALENDAR = (
    probe_case(
        "twice",
        turn(
            "Show me Monday 2026-03-16's events, then Wednesday 2026-03-18's.",
            call("list_events", day="2026-03-16"),
            call("list_events", day="2026-03-18"),
            answer=[("team sync",), ("project review",)],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Is there a free 30-minute slot on 2026-03-16, and one on 2026-03-17?",
            call("find_free_slot", day="2026-03-16", minutes=30),
            call("find_free_slot", day="2026-03-17", minutes=30),
            answer=[("09:30", "9:30"), ("09:00", "9:00", "9 am")],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Add two events on 2026-03-20: 'Standup' at 09:00 and 'Retro' at 16:00.",
            call("add_event", title="Standup", day="2026-03-20", start="09:00"),
            call("add_event", title="Retro", day="2026-03-20", start="16:00"),
            answer=["e-4", "e-5"],
        ),
    ),
    probe_case(
        "twice",
        turn(
            "Look for anything titled 'sync' and anything titled 'dentist'.",
            call("find_events", query="sync"),
            call("find_events", query="dentist"),
            answer=[("2026-03-16", "march 16"), ("2026-03-17", "march 17")],
        ),
    ),
)

TWICE: dict[str, tuple[Case, ...]] = {"calendar": CALENDAR}
"""The sixth probe set's requests by tool set name (the calendar's only)."""
