"""bfcl-homes: BFCL's ``Homes_2``, ``RentalCars_3`` and ``Weather_1`` functions over fakes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, turn
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_homes import CASES as FRESH

NAME = "bfcl-homes"

# area -> ((property, intent, beds, baths, garage, in-unit laundry, price in USD), ...)
_HOMES_DATA: dict[str, tuple[tuple[str, str, int, int, bool, bool, int], ...]] = {
    "fremont, ca": (
        ("Mission Ridge Apartments", "rent", 2, 1, True, True, 2850),
        ("Lakeview Terrace", "rent", 3, 2, False, True, 3400),
        ("Oak Court Homes", "buy", 3, 2, True, False, 1150000),
    ),
    "denver, co": (
        ("Larimer Lofts", "rent", 1, 1, False, True, 1900),
        ("Highland Flats", "rent", 2, 2, True, False, 2300),
        ("Cherry Creek Villas", "buy", 4, 3, True, True, 890000),
    ),
    "raleigh, nc": (
        ("Oakwood Commons", "rent", 2, 2, True, True, 1750),
        ("Pine Hollow House", "buy", 3, 2, True, True, 415000),
    ),
}
_CARS_DATA = (
    ("Kia Rio", "Hatchback", 35),
    ("Honda Fit", "Hatchback", 38),
    ("Toyota Camry", "Sedan", 52),
    ("Ford Escape", "SUV", 67),
)
_INSURANCE_PER_DAY = 14
# city -> (forecast, high °C, low °C, chance of rain %)
_WEATHER_DATA: dict[str, tuple[str, int, int, int]] = {
    "fremont, ca": ("Sunny", 21, 10, 5),
    "denver, co": ("Snow showers", 3, -6, 70),
    "raleigh, nc": ("Thunderstorms", 27, 19, 80),
    "portland, or": ("Light rain", 12, 7, 65),
    "chicago, il": ("Windy", 9, 2, 20),
}


def _key(text: str) -> str:
    return " ".join(text.lower().replace(",", ", ").split())


def _flag(flag: Any, value: bool) -> bool:
    text = str(flag).lower()
    return text not in ("true", "false") or (text == "true") == value


def _days(start: str, end: str) -> int:
    try:
        return max(1, (date.fromisoformat(end) - date.fromisoformat(start)).days)
    except ValueError:
        return 1


@dataclass
class _Agent:
    visits: list[dict[str, Any]] = field(default_factory=list)
    cars: list[dict[str, Any]] = field(default_factory=list)

    def Homes_2_FindHomeByArea(
        self,
        area: str,
        intent: str,
        number_of_beds: int,
        number_of_baths: int,
        has_garage: str = "dontcare",
        in_unit_laundry: str = "dontcare",
    ) -> Any:
        found = [
            {
                "property_name": name,
                "address_area": area,
                "number_of_beds": beds,
                "number_of_baths": baths,
                "has_garage": garage,
                "in_unit_laundry": laundry,
                "rent_per_month" if kind == "rent" else "price": price,
            }
            for name, kind, beds, baths, garage, laundry, price in _HOMES_DATA.get(_key(area), ())
            if kind == intent.lower()
            and beds >= int(number_of_beds)
            and baths >= int(number_of_baths)
            and _flag(has_garage, garage)
            and _flag(in_unit_laundry, laundry)
        ]
        return {"properties": found}

    def Homes_2_ScheduleVisit(
        self,
        property_name: str,
        visit_date: str,
        visitor_count: int = 1,
        accessibility_requirements: bool = False,
    ) -> Any:
        visit = {
            "status": "scheduled",
            "visit_id": f"V-{301 + len(self.visits)}",
            "property_name": property_name,
            "visit_date": visit_date,
            "visitor_count": visitor_count,
        }
        self.visits.append(visit)
        return visit

    def RentalCars_3_GetCarsAvailable(
        self,
        city: str,
        start_date: str,
        pickup_time: str,
        end_date: str,
        car_type: str = "dontcare",
    ) -> Any:
        found = [
            {"car_model": model, "car_type": kind, "price_per_day": price}
            for model, kind, price in _CARS_DATA
            if car_type in ("dontcare", "", None) or kind.lower() == car_type.lower()
        ]
        return {"city": city, "start_date": start_date, "end_date": end_date, "cars": found}

    def RentalCars_3_ReserveCar(
        self,
        pickup_location: str,
        start_date: str,
        pickup_time: str,
        end_date: str,
        car_type: str,
        add_insurance: bool,
    ) -> Any:
        days = _days(start_date, end_date)
        rate = next((p for _, k, p in _CARS_DATA if k.lower() == str(car_type).lower()), 35)
        total = days * (rate + (_INSURANCE_PER_DAY if add_insurance else 0))
        car = {
            "status": "reserved",
            "reservation_id": f"RC-{7001 + len(self.cars)}",
            "pickup_location": pickup_location,
            "start_date": start_date,
            "end_date": end_date,
            "car_type": car_type,
            "add_insurance": add_insurance,
            "total_price": total,
        }
        self.cars.append(car)
        return car

    def Weather_1_GetWeather(self, city: str, date: str = "2019-03-01") -> Any:
        forecast, high, low, rain = _WEATHER_DATA.get(_key(city), ("Cloudy", 15, 8, 30))
        return {
            "city": city,
            "date": date,
            "forecast": forecast,
            "high_celsius": high,
            "low_celsius": low,
            "chance_of_rain_percent": rain,
        }


def build() -> list[Any]:
    """The five tools over fresh listings (eight homes in three areas, four cars)."""
    return tools(NAME, _Agent())


_HOMES = "Homes_2_FindHomeByArea"
_VISIT = "Homes_2_ScheduleVisit"
_CARS = "RentalCars_3_GetCarsAvailable"
_RESERVE = "RentalCars_3_ReserveCar"
_WEATHER = "Weather_1_GetWeather"

CASES: tuple[Case, ...] = (
    Case(
        "single",
        "dev",
        (
            turn(
                "Find a 2-bedroom, 1-bath place to rent in Fremont, CA.",
                call(
                    _HOMES, area="Fremont, CA", intent="rent", number_of_beds=2, number_of_baths=1
                ),
                answer=["mission ridge"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "What's the weather going to be in Denver, CO on 2026-12-05?",
                call(_WEATHER, city="Denver, CO", date="2026-12-05"),
                answer=["snow"],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Which SUVs and which hatchbacks can I rent in Raleigh, NC from 2026-06-10 at "
                "09:00 until 2026-06-12?",
                call(
                    _CARS,
                    city="Raleigh, NC",
                    start_date="2026-06-10",
                    pickup_time="09:00",
                    end_date="2026-06-12",
                    car_type="SUV",
                ),
                call(
                    _CARS,
                    city="Raleigh, NC",
                    start_date="2026-06-10",
                    pickup_time="09:00",
                    end_date="2026-06-12",
                    car_type="Hatchback",
                ),
                answer=["escape", ("rio", "fit")],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Find a 4-bed, 3-bath house to buy in Denver, CO and schedule a visit for "
                "2026-06-06.",
                call(_HOMES, area="Denver, CO", intent="buy", number_of_beds=4, number_of_baths=3),
                call(_VISIT, property_name="Cherry Creek Villas", visit_date="2026-06-06"),
                answer=["cherry creek"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Look for a 2-bed, 2-bath rental with a garage in Raleigh, NC and book a viewing "
                "of it on 2026-06-13 for 3 people.",
                call(
                    _HOMES,
                    area="Raleigh, NC",
                    intent="rent",
                    number_of_beds=2,
                    number_of_baths=2,
                    has_garage="True",
                ),
                call(
                    _VISIT,
                    property_name="Oakwood Commons",
                    visit_date="2026-06-13",
                    visitor_count=3,
                ),
                answer=["oakwood"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Get the weather for Portland, OR and Chicago, IL on 2026-06-01, and find "
                "3-bedroom, 2-bath homes to rent in Fremont, CA and to buy in Raleigh, NC.",
                call(_WEATHER, city="Portland, OR", date="2026-06-01"),
                call(_WEATHER, city="Chicago, IL", date="2026-06-01"),
                call(
                    _HOMES, area="Fremont, CA", intent="rent", number_of_beds=3, number_of_baths=2
                ),
                call(_HOMES, area="Raleigh, NC", intent="buy", number_of_beds=3, number_of_baths=2),
                answer=["rain", "windy", "lakeview", "pine hollow"],
            ),
        ),
    ),
    Case("none", "dev", (turn("What's a good credit score for a mortgage?"),)),
    Case("none", "dev", (turn("Hello!"),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "Show me sedans in Chicago, IL from 2026-07-01 at 10:00 to 2026-07-03.",
                call(
                    _CARS,
                    city="Chicago, IL",
                    start_date="2026-07-01",
                    pickup_time="10:00",
                    end_date="2026-07-03",
                    car_type="Sedan",
                ),
                answer=["camry"],
            ),
            turn(
                "Reserve one, with insurance.",
                call(
                    _RESERVE,
                    pickup_location="Chicago, IL",
                    start_date="2026-07-01",
                    pickup_time="10:00",
                    end_date="2026-07-03",
                    car_type="Sedan",
                    add_insurance=True,
                ),
                answer=[("rc-7001", "reserved")],
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "Any homes to buy in Fremont, CA with 3 beds and 2 baths?",
                call(_HOMES, area="Fremont, CA", intent="buy", number_of_beds=3, number_of_baths=2),
                answer=["oak court"],
            ),
            turn(
                "Schedule a visit there on 2026-06-20.",
                call(_VISIT, property_name="Oak Court Homes", visit_date="2026-06-20"),
                answer=[("v-301", "scheduled")],
            ),
        ),
    ),
)

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
