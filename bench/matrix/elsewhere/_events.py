"""bfcl-events: BFCL's ``Events_3`` and ``Buses_3`` functions over a fake ticket office."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, turn
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_events import CASES as FRESH

NAME = "bfcl-events"

# city -> ((event, type, date, venue, USD per ticket), ...)
_EVENTS: dict[str, tuple[tuple[str, str, str, str, int], ...]] = {
    "chicago, il": (
        ("The Velvet Hours", "Music", "2026-09-12", "Riverside Hall", 55),
        ("Hamlet Reimagined", "Theater", "2026-09-13", "Goodman Stage", 72),
        ("Brass Avenue", "Music", "2026-09-19", "Lakeshore Arena", 40),
    ),
    "seattle, wa": (
        ("Kaya Moss Live", "Music", "2026-09-19", "Neptune Theatre", 48),
        ("The Glass Menagerie", "Theater", "2026-09-20", "Rep Theater", 64),
    ),
    "denver, co": (
        ("Red Rocks Revival", "Music", "2026-09-26", "Mission Ballroom", 61),
        ("Our Town", "Theater", "2026-09-27", "Buell Theatre", 58),
    ),
}
# category -> ((departure, arrival, USD per passenger), ...)
_BUSES = {
    "direct": (("08:15", "12:05", 42), ("14:40", "18:30", 38)),
    "one-stop": (("11:05", "16:50", 29),),
}


def _key(text: str) -> str:
    return " ".join(text.lower().replace(",", ", ").split())


def _iso(day: str) -> str:
    for form in ("%m/%d/%Y", "%Y-%m-%d"):
        try:
            return datetime.strptime(day.strip(), form).date().isoformat()
        except ValueError:
            continue
    return day


@dataclass
class _Office:
    tickets: list[dict[str, Any]] = field(default_factory=list)

    def Events_3_FindEvents(self, event_type: str, city: str, date: str = "dontcare") -> Any:
        wanted = None if date in ("dontcare", "", None) else _iso(date)
        found = [
            {
                "event_name": name,
                "event_type": kind,
                "date": day,
                "venue": venue,
                "price_per_ticket": price,
            }
            for name, kind, day, venue, price in _EVENTS.get(_key(city), ())
            if kind.lower() == event_type.lower() and wanted in (None, day)
        ]
        return {"city": city, "events": found}

    def Events_3_BuyEventTickets(
        self, event_name: str, number_of_tickets: int, date: str, city: str
    ) -> Any:
        price = next(
            (p for n, _, _, _, p in _EVENTS.get(_key(city), ()) if n.lower() == event_name.lower()),
            50,
        )
        ticket = {
            "status": "purchased",
            "order_id": f"EV-{9001 + len(self.tickets)}",
            "event_name": event_name,
            "date": _iso(date),
            "number_of_tickets": number_of_tickets,
            "total_price": price * number_of_tickets,
        }
        self.tickets.append(ticket)
        return ticket

    def Buses_3_FindBus(
        self,
        from_city: str,
        to_city: str,
        departure_date: str,
        num_passengers: int = 1,
        category: str = "direct",
    ) -> Any:
        found = [
            {
                "departure_time": leaves,
                "arrival_time": arrives,
                "category": category,
                "price_per_passenger": fare,
                "total_price": fare * num_passengers,
            }
            for leaves, arrives, fare in _BUSES.get(category, _BUSES["direct"])
        ]
        return {
            "from_city": from_city,
            "to_city": to_city,
            "departure_date": departure_date,
            "buses": found,
        }

    def Buses_3_BuyBusTicket(
        self,
        from_city: str,
        to_city: str,
        departure_date: str,
        departure_time: str,
        num_passengers: int = 1,
        additional_luggage: bool = False,
    ) -> Any:
        ticket = {
            "status": "booked",
            "ticket_id": f"BT-{4401 + len(self.tickets)}",
            "from_city": from_city,
            "to_city": to_city,
            "departure_date": departure_date,
            "departure_time": departure_time,
            "num_passengers": num_passengers,
            "additional_luggage": additional_luggage,
        }
        self.tickets.append(ticket)
        return ticket


def build() -> list[Any]:
    """The four tools over a fresh office (seven events in three cities, three buses a day)."""
    return tools(NAME, _Office())


_FIND = "Events_3_FindEvents"
_BUY = "Events_3_BuyEventTickets"
_BUS = "Buses_3_FindBus"
_TICKET = "Buses_3_BuyBusTicket"

CASES: tuple[Case, ...] = (
    Case(
        "single",
        "dev",
        (
            turn(
                "What music events are happening in Chicago, IL?",
                call(_FIND, event_type="Music", city="Chicago, IL"),
                answer=["velvet hours", "brass avenue"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "Buy 3 tickets to Our Town in Denver, CO on 2026-09-27.",
                call(
                    _BUY,
                    event_name="Our Town",
                    number_of_tickets=3,
                    date="2026-09-27",
                    city="Denver, CO",
                ),
                answer=[("ev-9001", "purchased", "bought", "174")],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Find direct buses from Portland, OR to Seattle, WA on 2026-08-08 and on "
                "2026-08-09.",
                call(
                    _BUS,
                    from_city="Portland, OR",
                    to_city="Seattle, WA",
                    departure_date="2026-08-08",
                ),
                call(
                    _BUS,
                    from_city="Portland, OR",
                    to_city="Seattle, WA",
                    departure_date="2026-08-09",
                ),
                answer=["08:15"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Buy 2 tickets for the music event in Denver, CO.",
                call(_FIND, event_type="Music", city="Denver, CO"),
                call(
                    _BUY,
                    event_name="Red Rocks Revival",
                    number_of_tickets=2,
                    date="2026-09-26",
                    city="Denver, CO",
                ),
                answer=["red rocks"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Book the earliest direct bus from Boston, MA to New York, NY on 2026-08-15 for "
                "2 passengers.",
                call(
                    _BUS,
                    from_city="Boston, MA",
                    to_city="New York, NY",
                    departure_date="2026-08-15",
                    num_passengers=2,
                ),
                call(
                    _TICKET,
                    from_city="Boston, MA",
                    to_city="New York, NY",
                    departure_date="2026-08-15",
                    departure_time="08:15",
                    num_passengers=2,
                ),
                answer=["8:15"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Find theater in Seattle, WA and in Chicago, IL, and buses from San Francisco, "
                "CA to Los Angeles, CA on 2026-08-20 and 2026-08-21.",
                call(_FIND, event_type="Theater", city="Seattle, WA"),
                call(_FIND, event_type="Theater", city="Chicago, IL"),
                call(
                    _BUS,
                    from_city="San Francisco, CA",
                    to_city="Los Angeles, CA",
                    departure_date="2026-08-20",
                ),
                call(
                    _BUS,
                    from_city="San Francisco, CA",
                    to_city="Los Angeles, CA",
                    departure_date="2026-08-21",
                ),
                answer=["glass menagerie", "hamlet", "08:15"],
            ),
        ),
    ),
    Case("none", "dev", (turn("What's the difference between a musical and an opera?"),)),
    Case("none", "dev", (turn("Hey!"),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "Music in Seattle, WA?",
                call(_FIND, event_type="Music", city="Seattle, WA"),
                answer=["kaya moss"],
            ),
            turn(
                "And in Denver, CO?",
                call(_FIND, event_type="Music", city="Denver, CO"),
                answer=["red rocks"],
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "What theater is on in Chicago, IL?",
                call(_FIND, event_type="Theater", city="Chicago, IL"),
                answer=["hamlet"],
            ),
            turn(
                "Get me 4 tickets for it.",
                call(
                    _BUY,
                    event_name="Hamlet Reimagined",
                    number_of_tickets=4,
                    date="2026-09-13",
                    city="Chicago, IL",
                ),
                answer=[("ev-9001", "purchased", "bought")],
            ),
        ),
    ),
)

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
