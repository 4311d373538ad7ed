# fresh held-out half: do not read while tuning
"""The bfcl-events tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, one_of, turn

_FIND = "Events_3_FindEvents"
_BUY = "Events_3_BuyEventTickets"
_BUS = "Buses_3_FindBus"
_TICKET = "Buses_3_BuyBusTicket"

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "theater in denver co?",
                call(_FIND, event_type="Theater", city="Denver, CO"),
                answer=["our town"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "I'd love to see some live music. What's on in Seattle, WA, and what's on in "
                "Denver, CO?",
                call(_FIND, event_type="Music", city="Seattle, WA"),
                call(_FIND, event_type="Music", city="Denver, CO"),
                answer=["kaya moss", "red rocks"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Get 2 tickets for whatever theater show is on in Seattle, WA.",
                call(_FIND, event_type="Theater", city="Seattle, WA"),
                call(
                    _BUY,
                    event_name="The Glass Menagerie",
                    number_of_tickets=2,
                    date="2026-09-20",
                    city="Seattle, WA",
                ),
                answer=["glass menagerie"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Find buses from Sacramento, CA to Reno, NV on 2026-10-03 and on 2026-10-04, "
                "and music events in Chicago, IL on 09/12/2026 and 09/19/2026.",
                call(
                    _BUS,
                    from_city="Sacramento, CA",
                    to_city="Reno, NV",
                    departure_date="2026-10-03",
                ),
                call(
                    _BUS,
                    from_city="Sacramento, CA",
                    to_city="Reno, NV",
                    departure_date="2026-10-04",
                ),
                call(
                    _FIND,
                    event_type="Music",
                    city="Chicago, IL",
                    date=one_of("09/12/2026", "2026-09-12"),
                ),
                call(
                    _FIND,
                    event_type="Music",
                    city="Chicago, IL",
                    date=one_of("09/19/2026", "2026-09-19"),
                ),
                answer=["08:15", "velvet hours", "brass avenue"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("What does an usher do at a theater?"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "Buy a bus ticket from Fresno, CA to San Diego, CA on 2026-10-11 at 14:40 for 3 "
                "people.",
                call(
                    _TICKET,
                    from_city="Fresno, CA",
                    to_city="San Diego, CA",
                    departure_date="2026-10-11",
                    departure_time="14:40",
                    num_passengers=3,
                ),
                answer=[("bt-4401", "booked")],
            ),
            turn(
                "Also any theater in Chicago, IL?",
                call(_FIND, event_type="Theater", city="Chicago, IL"),
                answer=["hamlet"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Show me one-stop buses from Austin, TX to Dallas, TX on 2026-10-20.",
                call(
                    _BUS,
                    from_city="Austin, TX",
                    to_city="Dallas, TX",
                    departure_date="2026-10-20",
                    category="one-stop",
                ),
                answer=["11:05"],
            ),
            turn(
                "Book that bus for me.",
                call(
                    _TICKET,
                    from_city="Austin, TX",
                    to_city="Dallas, TX",
                    departure_date="2026-10-20",
                    departure_time="11:05",
                ),
                answer=[("bt-4401", "booked")],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "Show me buses from Reno, NV to Sacramento, CA on 2026-11-07 for 4 people.",
                call(
                    _BUS,
                    from_city="Reno, NV",
                    to_city="Sacramento, CA",
                    departure_date="2026-11-07",
                    num_passengers=4,
                ),
                answer=["08:15"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Take the one-stop bus from Denver, CO to Boulder, CO on 2026-10-30; just book "
                "it for 2.",
                call(
                    _BUS,
                    from_city="Denver, CO",
                    to_city="Boulder, CO",
                    departure_date="2026-10-30",
                    num_passengers=2,
                    category="one-stop",
                ),
                call(
                    _TICKET,
                    from_city="Denver, CO",
                    to_city="Boulder, CO",
                    departure_date="2026-10-30",
                    departure_time="11:05",
                    num_passengers=2,
                ),
                answer=["11:05"],
                ordered=True,
            ),
        ),
    ),
)
