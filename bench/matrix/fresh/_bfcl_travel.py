# fresh held-out half: do not read while tuning
"""The bfcl-travel tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, turn

_ONEWAY = "Flights_4_SearchOnewayFlight"
_ROUND = "Flights_4_SearchRoundtripFlights"
_HOUSES = "Hotels_2_SearchHouse"
_BOOK = "Hotels_2_BookHouse"
_SIGHTS = "Travel_1_FindAttractions"

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "Flights from BOS to LHR on 2026-10-04, business class?",
                call(
                    _ONEWAY,
                    origin_airport="BOS",
                    destination_airport="LHR",
                    departure_date="2026-10-04",
                    seating_class="Business",
                ),
                answer=["1714"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "Are there attractions with free entry in London, UK and in Austin, TX?",
                call(_SIGHTS, location="London, UK", free_entry="True"),
                call(_SIGHTS, location="Austin, TX", free_entry="True"),
                answer=["british museum", "zilker"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Search one-way from JFK to AUS on 2026-11-02, then show me museums in the city "
                "it lands in.",
                call(
                    _ONEWAY,
                    origin_airport="JFK",
                    destination_airport="AUS",
                    departure_date="2026-11-02",
                ),
                call(_SIGHTS, location="Austin, TX", category="Museum"),
                answer=["blanton"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Look up houses in Miami, FL and in London, UK, and check round trips from ORD "
                "to MIA and from BOS to LHR, leaving 2026-12-01 and back 2026-12-08.",
                call(_HOUSES, where_to="Miami, FL"),
                call(_HOUSES, where_to="London, UK"),
                call(
                    _ROUND,
                    origin_airport="ORD",
                    destination_airport="MIA",
                    departure_date="2026-12-01",
                    return_date="2026-12-08",
                ),
                call(
                    _ROUND,
                    origin_airport="BOS",
                    destination_airport="LHR",
                    departure_date="2026-12-01",
                    return_date="2026-12-08",
                ),
                answer=["coral palms", "camden", "355", "1163"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("What's the best time of year to visit Japan?"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "Book a house in Seattle, WA for 2 adults from 2026-09-04 to 2026-09-07.",
                call(
                    _BOOK,
                    where_to="Seattle, WA",
                    number_of_adults=2,
                    check_in_date="2026-09-04",
                    check_out_date="2026-09-07",
                ),
                answer=[("hb-2001", "booked")],
            ),
            turn(
                "Also find kid-friendly attractions there.",
                call(_SIGHTS, location="Seattle, WA", good_for_kids="True"),
                answer=["space needle"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "One-way flights LAX to SEA on 2026-09-18, please.",
                call(
                    _ONEWAY,
                    origin_airport="LAX",
                    destination_airport="SEA",
                    departure_date="2026-09-18",
                ),
                answer=["129"],
            ),
            turn(
                "Which parks are there in that city?",
                call(_SIGHTS, location="Seattle, WA", category="Park"),
                answer=["discovery park"],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "Round trip SFO to JFK, out 2026-10-21 and back 2026-10-25, for 2 people?",
                call(
                    _ROUND,
                    origin_airport="SFO",
                    destination_airport="JFK",
                    departure_date="2026-10-21",
                    return_date="2026-10-25",
                    number_of_tickets=2,
                ),
                answer=[("549", "1098")],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "I'm flying SFO to JFK on 2026-11-14. Find a house to stay in where I land, for "
                "2 adults.",
                call(
                    _ONEWAY,
                    origin_airport="SFO",
                    destination_airport="JFK",
                    departure_date="2026-11-14",
                ),
                call(_HOUSES, where_to="New York, NY", number_of_adults=2),
                answer=["hudson"],
                ordered=True,
            ),
        ),
    ),
)
