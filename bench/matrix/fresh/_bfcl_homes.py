# fresh held-out half: do not read while tuning
"""The bfcl-homes tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, turn

_HOMES = "Homes_2_FindHomeByArea"
_VISIT = "Homes_2_ScheduleVisit"
_CARS = "RentalCars_3_GetCarsAvailable"
_RESERVE = "RentalCars_3_ReserveCar"
_WEATHER = "Weather_1_GetWeather"

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "whats the weather in Raleigh, NC on 2026-07-04",
                call(_WEATHER, city="Raleigh, NC", date="2026-07-04"),
                answer=["thunder"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "I'm choosing between Chicago, IL and Portland, OR for 2026-10-15. How's the "
                "weather looking in each?",
                call(_WEATHER, city="Chicago, IL", date="2026-10-15"),
                call(_WEATHER, city="Portland, OR", date="2026-10-15"),
                answer=["windy", "rain"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Find a 3-bedroom, 2-bath home to buy in Raleigh, NC and set up a viewing of it "
                "on 2026-08-22.",
                call(_HOMES, area="Raleigh, NC", intent="buy", number_of_beds=3, number_of_baths=2),
                call(_VISIT, property_name="Pine Hollow House", visit_date="2026-08-22"),
                answer=["pine hollow"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Check the forecast for Denver, CO and Fremont, CA on 2026-11-20, and list "
                "sedans and SUVs in Denver, CO from 2026-11-20 10:00 to 2026-11-23.",
                call(_WEATHER, city="Denver, CO", date="2026-11-20"),
                call(_WEATHER, city="Fremont, CA", date="2026-11-20"),
                call(
                    _CARS,
                    city="Denver, CO",
                    start_date="2026-11-20",
                    pickup_time="10:00",
                    end_date="2026-11-23",
                    car_type="Sedan",
                ),
                call(
                    _CARS,
                    city="Denver, CO",
                    start_date="2026-11-20",
                    pickup_time="10:00",
                    end_date="2026-11-23",
                    car_type="SUV",
                ),
                answer=["snow", "sunny", "camry", "escape"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("Is it better to rent or to buy, in general?"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "Reserve a hatchback in Fremont, CA from 2026-09-01 at 08:30 to 2026-09-05, no "
                "insurance.",
                call(
                    _RESERVE,
                    pickup_location="Fremont, CA",
                    start_date="2026-09-01",
                    pickup_time="08:30",
                    end_date="2026-09-05",
                    car_type="Hatchback",
                    add_insurance=False,
                ),
                answer=[("rc-7001", "reserved")],
            ),
            turn(
                "And how's the weather there on 2026-09-01?",
                call(_WEATHER, city="Fremont, CA", date="2026-09-01"),
                answer=["sunny"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Any 1-bed, 1-bath rentals in Denver, CO with in-unit laundry?",
                call(
                    _HOMES,
                    area="Denver, CO",
                    intent="rent",
                    number_of_beds=1,
                    number_of_baths=1,
                    in_unit_laundry="True",
                ),
                answer=["larimer"],
            ),
            turn(
                "Book me a visit there on 2026-08-09 for 2 people.",
                call(
                    _VISIT, property_name="Larimer Lofts", visit_date="2026-08-09", visitor_count=2
                ),
                answer=[("v-301", "scheduled", "booked")],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "Can you check which cars I could rent in Portland, OR, picking up 2026-09-12 at "
                "13:00 and returning 2026-09-14?",
                call(
                    _CARS,
                    city="Portland, OR",
                    start_date="2026-09-12",
                    pickup_time="13:00",
                    end_date="2026-09-14",
                ),
                answer=["camry"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Is there a 2-bed, 2-bath rental with a garage in Denver, CO? If so, arrange a "
                "visit on 2026-08-29 for 4 people.",
                call(
                    _HOMES,
                    area="Denver, CO",
                    intent="rent",
                    number_of_beds=2,
                    number_of_baths=2,
                    has_garage="True",
                ),
                call(
                    _VISIT, property_name="Highland Flats", visit_date="2026-08-29", visitor_count=4
                ),
                answer=["highland"],
                ordered=True,
            ),
        ),
    ),
)
