"""A second domain: a calendar and notes, eleven tools with plain results (numbers, ids, JSON)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Any

from bench.matrix._cases import Case, ToolSet, call, contains, turn
from bench.matrix.heldout._calendar import CASES as HELD_OUT
from springtail import Param, tool, tool_callbacks

_TODAY = date(2026, 3, 14)


@dataclass
class _Event:
    id: str
    title: str
    day: date
    start: str
    minutes: int


@dataclass
class _Calendar:
    events: list[_Event] = field(default_factory=list)
    notes: dict[str, tuple[str, str]] = field(default_factory=dict)

    @tool(description="List the events on one day.")
    def list_events(self, day: Annotated[date, Param("The day, YYYY-MM-DD")]) -> str:
        found = [
            {"id": e.id, "title": e.title, "start": e.start, "minutes": e.minutes}
            for e in self.events
            if e.day == day
        ]
        return json.dumps(found)

    @tool(description="Find events whose title contains a word of the query; returns ids and days.")
    def find_events(self, query: str) -> str:
        words = query.lower().split()
        found = [
            {"id": e.id, "title": e.title, "day": e.day.isoformat(), "start": e.start}
            for e in self.events
            if any(w in e.title.lower() for w in words)
        ]
        return json.dumps(found)

    @tool(description="Add an event to the calendar; returns its id.")
    def add_event(
        self,
        title: str,
        day: Annotated[date, Param("The day, YYYY-MM-DD")],
        start: Annotated[str, Param("Start time, HH:MM")],
        minutes: Annotated[int, Param("Length in minutes")] = 60,
    ) -> str:
        # Numbered past the highest id, not the count: after a cancellation the count
        # would hand out an id that another event still has.
        number = max((int(e.id.split("-")[1]) for e in self.events), default=0) + 1
        event = _Event(f"E-{number}", title, day, start, minutes)
        self.events.append(event)
        return event.id

    @tool(description="Cancel an event by its id.")
    def cancel_event(self, event_id: str) -> str:
        for event in self.events:
            if event.id == event_id.strip().upper():
                self.events.remove(event)
                return "cancelled"
        return f"no event {event_id}"

    @tool(description="The first free time on a day for an event of the given length.")
    def find_free_slot(self, day: date, minutes: int) -> str:
        busy = sorted(
            (int(e.start[:2]) * 60 + int(e.start[3:]), e.minutes)
            for e in self.events
            if e.day == day
        )
        start = 9 * 60
        for begin, length in busy:
            if start + minutes <= begin:
                break
            start = max(start, begin + length)
        return f"{start // 60:02d}:{start % 60:02d}"

    @tool(description="Save a note; returns its id.")
    def add_note(self, title: str, text: str) -> str:
        note_id = f"N-{len(self.notes) + 1}"
        self.notes[note_id] = (title, text)
        return note_id

    @tool(description="Find notes whose title or text contains the query; returns ids and titles.")
    def search_notes(self, query: str) -> str:
        words = query.lower().split()
        found = [
            {"id": i, "title": t}
            for i, (t, x) in self.notes.items()
            if any(w in f"{t} {x}".lower() for w in words)
        ]
        return json.dumps(found)

    @tool(description="The full text of a note by its id.")
    def read_note(self, note_id: str) -> str:
        note = self.notes.get(note_id.strip().upper())
        return note[1] if note else f"no note {note_id}"

    @tool(description="The number of days from one date to another.")
    def days_between(self, start: date, end: date) -> int:
        return (end - start).days

    @tool(description="The day of the week of a date.")
    def weekday(self, day: date) -> str:
        return day.strftime("%A")

    @tool(description="Today's date.")
    def today(self) -> str:
        return _TODAY.isoformat()


def build() -> list[Any]:
    """The eleven tools over a fresh calendar (three events next week, two notes)."""
    calendar = _Calendar()
    monday = _TODAY + timedelta(days=2)
    calendar.events += [
        _Event("E-1", "Team sync", monday, "09:00", 30),
        _Event("E-2", "Dentist", monday + timedelta(days=1), "15:00", 60),
        _Event("E-3", "Project review", monday + timedelta(days=2), "11:00", 45),
    ]
    calendar.notes.update(
        {"N-1": ("Groceries", "milk, eggs, bread"), "N-2": ("Wifi password", "blue-falcon-42")}
    )
    return tool_callbacks(calendar)


CASES = (
    Case(
        "single",
        "dev",
        (
            turn(
                "What's on my calendar on 2026-03-17?",
                call("list_events", day="2026-03-17"),
                answer=["dentist"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "What day of the week is 2026-12-25?",
                call("weekday", day="2026-12-25"),
                answer=["friday"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "What weekday is 2026-07-14, and what weekday is 2026-11-26?",
                call("weekday", day="2026-07-14"),
                call("weekday", day="2026-11-26"),
                answer=["tuesday", "thursday"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "What have I got on March 16, 17 and 18, 2026?",
                call("list_events", day="2026-03-16"),
                call("list_events", day="2026-03-17"),
                call("list_events", day="2026-03-18"),
                answer=["team sync", "dentist", "project review"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "How many days is it from today until 2026-04-01?",
                call("today"),
                call("days_between", start="2026-03-14", end="2026-04-01"),
                answer=["18"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Find me a free 90-minute slot on 2026-03-16 and put 'Budget review' in it.",
                call("find_free_slot", day="2026-03-16", minutes=90),
                call(
                    "add_event",
                    title=contains("budget review"),
                    day="2026-03-16",
                    start="09:30",
                    minutes=90,
                ),
                answer=["9:30"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Copy my groceries note into a new note called 'Sunday shopping'.",
                call("search_notes", query=contains("groceries")),
                call("read_note", note_id="N-1"),
                call("add_note", title="Sunday shopping", text=contains("milk", "eggs", "bread")),
                answer=[("n-3", "saved", "copied", "created", "added")],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "What weekdays are 2026-04-10 and 2026-04-14, and what's on my calendar on "
                "2026-03-16 and 2026-03-17?",
                call("weekday", day="2026-04-10"),
                call("weekday", day="2026-04-14"),
                call("list_events", day="2026-03-16"),
                call("list_events", day="2026-03-17"),
                answer=["friday", "tuesday", "team sync", "dentist"],
            ),
        ),
    ),
    Case("none", "dev", (turn("Good morning!"),)),
    Case("none", "dev", (turn("How many minutes are there in a day?", answer=["1440"]),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "What's on my calendar on 2026-03-16?",
                call("list_events", day="2026-03-16"),
                answer=["team sync"],
            ),
            turn("Cancel it.", call("cancel_event", event_id="E-1"), answer=["cancel"]),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "When's my first free half hour on 2026-03-17?",
                call("find_free_slot", day="2026-03-17", minutes=30),
                answer=["9:00"],
            ),
            turn(
                "Put a call with Nadia there.",
                call("add_event", title=contains("nadia"), day="2026-03-17", start="09:00"),
                answer=[("e-4", "added", "booked", "scheduled")],
            ),
        ),
    ),
)

CALENDAR = ToolSet("calendar", build, CASES + HELD_OUT)
