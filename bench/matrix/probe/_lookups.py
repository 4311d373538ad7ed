"""A third probe set: calendar chains whose first step finds what the request only names.

Written in the eighteenth pass (2026-12-05) after the held-out half's calendar requests were
counted at 7 of 14 (not read): each request names an event or a note ("my dentist
appointment", "the team sync", "the wifi password") or "today", and the step that needs its
day, time or id must wait for a search or for ``today``. Four ask what the first probe
set's calendar chains ask, in shorter words; the other four are new. Keep the order: case
ids are positional (calendar probe cases 36-43).
"""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn

__all__ = ["LOOKUPS"]


def _chain(*turns_: object) -> Case:
    return Case("chain", "probe", tuple(turns_))  # type: ignore[arg-type]


CALENDAR = (
    _chain(
        turn(
            "What weekday is my dentist appointment on?",
            call("find_events", query=contains("dentist")),
            call("weekday", day="2026-03-17"),
            answer=["tuesday"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Cancel the dentist, please.",
            call("find_events", query=contains("dentist")),
            call("cancel_event", event_id="E-2"),
            answer=["cancel"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "What's the wifi password?",
            call("search_notes", query=contains("wifi")),
            call("read_note", note_id="N-2"),
            answer=["blue-falcon-42"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "What else is on the day of my project review?",
            call("find_events", query=contains("project review")),
            call("list_events", day="2026-03-18"),
            answer=["project review"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Which weekday is it today?",
            call("today"),
            call("weekday", day="2026-03-14"),
            answer=["saturday"],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "How many days from today until my team sync?",
            call("find_events", query=contains("team sync")),
            call("today"),
            call("days_between", start="2026-03-14", end="2026-03-16"),
            answer=["2"],
        )
    ),
    _chain(
        turn(
            "Put a 30-minute 'Prep' at the first free time on the day of the team sync.",
            call("find_events", query=contains("team sync")),
            call("find_free_slot", day="2026-03-16", minutes=30),
            call("add_event", title=contains("prep"), day="2026-03-16", start="09:30", minutes=30),
            answer=[("e-4", "added", "scheduled", "booked")],
            ordered=True,
        )
    ),
    _chain(
        turn(
            "Move the team sync to 2026-03-20 at the same time.",
            call("find_events", query=contains("team sync")),
            call("add_event", title=contains("team sync"), day="2026-03-20", start="09:00"),
            call("cancel_event", event_id="E-1"),
            answer=[("e-4", "moved", "added", "scheduled")],
        )
    ),
)

LOOKUPS: dict[str, tuple[Case, ...]] = {"calendar": CALENDAR}
"""The third probe set's cases by tool set name (only the calendar has them)."""
