"""bfcl-travel: BFCL's ``Flights_4``, ``Hotels_2`` and ``Travel_1`` functions over a fake agency."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, turn
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_travel import CASES as FRESH

NAME = "bfcl-travel"

_CITIES = {
    "SFO": "San Francisco, CA",
    "JFK": "New York, NY",
    "LAX": "Los Angeles, CA",
    "SEA": "Seattle, WA",
    "ORD": "Chicago, IL",
    "MIA": "Miami, FL",
    "BOS": "Boston, MA",
    "LHR": "London, UK",
    "AUS": "Austin, TX",
}
# (origin, destination) -> ((airline, departure time, economy fare in USD), ...)
_ROUTES: dict[tuple[str, str], tuple[tuple[str, str, int], ...]] = {
    ("SFO", "JFK"): (("Delta Airlines", "07:15", 289), ("United Airlines", "13:40", 312)),
    ("LAX", "SEA"): (("Alaska Airlines", "09:05", 129), ("Delta Airlines", "18:30", 158)),
    ("ORD", "MIA"): (("American Airlines", "06:50", 201), ("United Airlines", "15:25", 187)),
    ("BOS", "LHR"): (("British Airways", "21:10", 612), ("Delta Airlines", "18:45", 655)),
    ("JFK", "AUS"): (("Southwest Airlines", "11:20", 176), ("American Airlines", "16:05", 198)),
}
_CLASS = {"economy": 1.0, "premium economy": 1.6, "business": 2.8}
# city -> ((house, rating, laundry, USD per night), ...)
_HOUSES_DATA: dict[str, tuple[tuple[str, float, bool, int], ...]] = {
    "austin, tx": (("Cedar Loft", 4.6, True, 145), ("Riverside Bungalow", 4.1, False, 98)),
    "seattle, wa": (("Pike View Flat", 4.8, True, 189), ("Fremont Cottage", 3.9, True, 112)),
    "london, uk": (("Camden Mews House", 4.5, False, 210), ("Kensington Studio", 4.2, True, 175)),
    "miami, fl": (("Coral Palms Villa", 4.7, True, 260), ("South Beach Room", 3.8, False, 90)),
    "new york, ny": (("Hudson Walk-up", 4.4, True, 230),),
}
# city -> ((attraction, category, free entry, good for kids), ...)
_ATTRACTIONS: dict[str, tuple[tuple[str, str, bool, bool], ...]] = {
    "seattle, wa": (
        ("Space Needle", "Tourist Attraction", False, True),
        ("Discovery Park", "Park", True, True),
        ("Seattle Art Museum", "Museum", False, True),
    ),
    "london, uk": (
        ("British Museum", "Museum", True, True),
        ("Westminster Abbey", "Place of Worship", False, False),
        ("Hyde Park", "Park", True, True),
    ),
    "austin, tx": (
        ("Texas State Capitol", "Historical Landmark", True, True),
        ("Zilker Park", "Park", True, True),
        ("Blanton Museum of Art", "Museum", False, True),
    ),
    "miami, fl": (
        ("Vizcaya Museum", "Museum", False, True),
        ("Bayfront Park", "Park", True, True),
    ),
}


def _key(text: str) -> str:
    return " ".join(text.lower().replace(",", ", ").split())


def _code(airport: str) -> str:
    text = airport.strip().upper()
    for code, city in _CITIES.items():
        if text == code or text == city.upper() or text == city.split(",")[0].upper():
            return code
    return text


def _flag(flag: Any, value: bool) -> bool:
    text = str(flag).lower()
    return text not in ("true", "false") or (text == "true") == value


@dataclass
class _Agency:
    bookings: list[dict[str, Any]] = field(default_factory=list)

    def _flights(
        self, origin: str, destination: str, seating_class: str, airlines: str, tickets: int
    ) -> list[dict[str, Any]]:
        factor = _CLASS.get(seating_class.lower(), 1.0)
        found = []
        for airline, departs, fare in _ROUTES.get((_code(origin), _code(destination)), ()):
            if airlines not in ("dontcare", "", None) and airline != airlines:
                continue
            price = round(fare * factor)
            found.append(
                {
                    "airline": airline,
                    "departure_time": departs,
                    "seating_class": seating_class,
                    "price_per_ticket": price,
                    "total_price": price * tickets,
                }
            )
        return found

    def Flights_4_SearchOnewayFlight(
        self,
        origin_airport: str,
        destination_airport: str,
        departure_date: str,
        seating_class: str = "Economy",
        number_of_tickets: int = 1,
        airlines: str = "dontcare",
    ) -> Any:
        return {
            "origin": _CITIES.get(_code(origin_airport), origin_airport),
            "destination_city": _CITIES.get(_code(destination_airport), destination_airport),
            "departure_date": departure_date,
            "flights": self._flights(
                origin_airport, destination_airport, seating_class, airlines, number_of_tickets
            ),
        }

    def Flights_4_SearchRoundtripFlights(
        self,
        origin_airport: str,
        destination_airport: str,
        departure_date: str,
        return_date: str,
        seating_class: str = "Economy",
        number_of_tickets: int = 1,
        airlines: str = "dontcare",
    ) -> Any:
        flights = self._flights(
            origin_airport, destination_airport, seating_class, airlines, number_of_tickets
        )
        for flight in flights:
            flight["price_per_ticket"] = round(flight["price_per_ticket"] * 1.9)
            flight["total_price"] = flight["price_per_ticket"] * number_of_tickets
        return {
            "origin": _CITIES.get(_code(origin_airport), origin_airport),
            "destination_city": _CITIES.get(_code(destination_airport), destination_airport),
            "departure_date": departure_date,
            "return_date": return_date,
            "flights": flights,
        }

    def Hotels_2_SearchHouse(
        self,
        where_to: str,
        has_laundry_service: str = "dontcare",
        number_of_adults: int = 1,
        rating: str = "dontcare",
    ) -> Any:
        least = float(rating) if str(rating).replace(".", "").isdigit() else 0.0
        found = [
            {
                "house": name,
                "rating": stars,
                "has_laundry_service": laundry,
                "price_per_night": cost,
            }
            for name, stars, laundry, cost in _HOUSES_DATA.get(_key(where_to), ())
            if stars >= least and _flag(has_laundry_service, laundry)
        ]
        return {"where_to": where_to, "number_of_adults": number_of_adults, "houses": found}

    def Hotels_2_BookHouse(
        self, where_to: str, number_of_adults: int, check_in_date: str, check_out_date: str
    ) -> Any:
        booked = {
            "status": "booked",
            "booking_id": f"HB-{2001 + len(self.bookings)}",
            "where_to": where_to,
            "number_of_adults": number_of_adults,
            "check_in_date": check_in_date,
            "check_out_date": check_out_date,
        }
        self.bookings.append(booked)
        return booked

    def Travel_1_FindAttractions(
        self,
        location: str,
        free_entry: str = "dontcare",
        category: str = "dontcare",
        good_for_kids: str = "dontcare",
    ) -> Any:
        found = [
            {"name": name, "category": kind, "free_entry": free, "good_for_kids": kids}
            for name, kind, free, kids in _ATTRACTIONS.get(_key(location), ())
            if (category in ("dontcare", "", None) or kind.lower() == category.lower())
            and _flag(free_entry, free)
            and _flag(good_for_kids, kids)
        ]
        return {"location": location, "attractions": found}


def build() -> list[Any]:
    """The five tools over a fresh agency (five routes, eight houses, eleven attractions)."""
    return tools(NAME, _Agency())


_ONEWAY = "Flights_4_SearchOnewayFlight"
_ROUND = "Flights_4_SearchRoundtripFlights"
_HOUSES = "Hotels_2_SearchHouse"
_BOOK = "Hotels_2_BookHouse"
_SIGHTS = "Travel_1_FindAttractions"

CASES: tuple[Case, ...] = (
    Case(
        "single",
        "dev",
        (
            turn(
                "Find one-way flights from SFO to JFK on 2026-06-05.",
                call(
                    _ONEWAY,
                    origin_airport="SFO",
                    destination_airport="JFK",
                    departure_date="2026-06-05",
                ),
                answer=["289"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "Search for houses in Austin, TX for 3 adults, rated 4 or higher.",
                call(_HOUSES, where_to="Austin, TX", number_of_adults=3, rating="4"),
                answer=["cedar loft"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "What museums are there in Seattle, WA and in London, UK?",
                call(_SIGHTS, location="Seattle, WA", category="Museum"),
                call(_SIGHTS, location="London, UK", category="Museum"),
                answer=["seattle art museum", "british museum"],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Check flights from ORD to MIA on 2026-06-19 and find parks where it lands.",
                call(
                    _ONEWAY,
                    origin_airport="ORD",
                    destination_airport="MIA",
                    departure_date="2026-06-19",
                ),
                call(_SIGHTS, location="Miami, FL", category="Park"),
                answer=["bayfront"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Search one-way flights from BOS to LHR on 2026-07-01, then look for houses "
                "with laundry service in that city.",
                call(
                    _ONEWAY,
                    origin_airport="BOS",
                    destination_airport="LHR",
                    departure_date="2026-07-01",
                ),
                call(_HOUSES, where_to="London, UK", has_laundry_service="True"),
                answer=["kensington"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Look for round trips from LAX to SEA and from SFO to JFK, 2026-08-14 to "
                "2026-08-21, and kid-friendly attractions in Austin, TX and in Miami, FL.",
                call(
                    _ROUND,
                    origin_airport="LAX",
                    destination_airport="SEA",
                    departure_date="2026-08-14",
                    return_date="2026-08-21",
                ),
                call(
                    _ROUND,
                    origin_airport="SFO",
                    destination_airport="JFK",
                    departure_date="2026-08-14",
                    return_date="2026-08-21",
                ),
                call(_SIGHTS, location="Austin, TX", good_for_kids="True"),
                call(_SIGHTS, location="Miami, FL", good_for_kids="True"),
                answer=["245", "549", "zilker", "bayfront"],
            ),
        ),
    ),
    Case("none", "dev", (turn("What's the capital of Australia?", answer=["canberra"]),)),
    Case("none", "dev", (turn("Thanks, that's all."),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "Find houses in Miami, FL for 2 adults.",
                call(_HOUSES, where_to="Miami, FL", number_of_adults=2),
                answer=["coral palms"],
            ),
            turn(
                "Book one from 2026-07-10 to 2026-07-14.",
                call(
                    _BOOK,
                    where_to="Miami, FL",
                    number_of_adults=2,
                    check_in_date="2026-07-10",
                    check_out_date="2026-07-14",
                ),
                answer=[("hb-2001", "booked")],
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "Premium economy one-way flights from JFK to AUS on 2026-06-27, please.",
                call(
                    _ONEWAY,
                    origin_airport="JFK",
                    destination_airport="AUS",
                    departure_date="2026-06-27",
                    seating_class="Premium Economy",
                ),
                answer=["282"],
            ),
            turn(
                "Any free attractions in the city I'm flying to?",
                call(_SIGHTS, location="Austin, TX", free_entry="True"),
                answer=["capitol", "zilker"],
            ),
        ),
    ),
)

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
