"""bfcl-dining: BFCL's ``Restaurants_2`` and ``Payment_1`` functions over a fake booking app."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.matrix._cases import Case, ToolSet, call, turn
from bench.matrix.elsewhere._bfcl import tools
from bench.matrix.fresh._bfcl_dining import CASES as FRESH

NAME = "bfcl-dining"
DEPOSIT_PER_SEAT = 15.0
TODAY = "2026-03-14"

# (name, category, price range, vegetarian options, outdoor seating, phone)
_RESTAURANTS: dict[str, tuple[tuple[str, str, str, bool, bool, str], ...]] = {
    "oakland, ca": (
        ("Casa Verde", "Mexican", "moderate", True, True, "510-555-0142"),
        ("Golden Lotus", "Chinese", "cheap", True, False, "510-555-0177"),
        ("Harbor Grill", "Seafood", "pricey", False, True, "510-555-0190"),
        ("Trattoria Sole", "Italian", "moderate", True, False, "510-555-0123"),
    ),
    "sacramento, ca": (
        ("Bangkok Garden", "Thai", "cheap", True, True, "916-555-0110"),
        ("Il Forno", "Italian", "pricey", True, True, "916-555-0168"),
        ("Sakura House", "Japanese", "moderate", False, False, "916-555-0135"),
    ),
    "austin, tx": (
        ("Smoke Ridge", "Barbecue", "moderate", False, True, "512-555-0181"),
        ("Taqueria Luna", "Mexican", "cheap", True, True, "512-555-0104"),
        ("Saffron Table", "Indian", "moderate", True, False, "512-555-0159"),
    ),
}


def _key(text: str) -> str:
    return " ".join(text.lower().replace(",", ", ").split())


def _wanted(flag: Any, value: bool) -> bool:
    if isinstance(flag, bool):
        return flag == value
    return str(flag).lower() not in ("true", "false") or (str(flag).lower() == "true") == value


@dataclass
class _App:
    reservations: list[dict[str, Any]] = field(default_factory=list)
    payments: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)

    def Restaurants_2_FindRestaurants(
        self,
        category: str,
        location: str,
        price_range: str = "dontcare",
        has_vegetarian_options: Any = "dontcare",
        has_seating_outdoors: Any = "dontcare",
    ) -> Any:
        found = [
            {
                "restaurant_name": name,
                "category": kind,
                "price_range": price,
                "has_vegetarian_options": veg,
                "has_seating_outdoors": outdoor,
                "phone_number": phone,
            }
            for name, kind, price, veg, outdoor, phone in _RESTAURANTS.get(_key(location), ())
            if kind.lower() == category.lower()
            and (price_range in ("dontcare", "", None) or price == price_range)
            and _wanted(has_vegetarian_options, veg)
            and _wanted(has_seating_outdoors, outdoor)
        ]
        return {"location": location, "restaurants": found}

    def Restaurants_2_ReserveRestaurant(
        self,
        restaurant_name: str,
        location: str,
        time: str,
        number_of_seats: int,
        date: str | None = None,
    ) -> Any:
        booked = {
            "status": "confirmed",
            "reservation_id": f"RS-{501 + len(self.reservations)}",
            "restaurant_name": restaurant_name,
            "location": location,
            "date": date or TODAY,
            "time": time,
            "number_of_seats": number_of_seats,
            "deposit_due_usd": DEPOSIT_PER_SEAT * number_of_seats,
        }
        self.reservations.append(booked)
        return booked

    def Payment_1_RequestPayment(
        self, receiver: str, amount: float, private_visibility: bool = False
    ) -> Any:
        made = {
            "status": "requested",
            "request_id": f"PR-{1 + len(self.requests)}",
            "receiver": receiver,
            "amount": amount,
            "private_visibility": private_visibility,
        }
        self.requests.append(made)
        return made

    def Payment_1_MakePayment(
        self,
        payment_method: str,
        amount: float,
        receiver: str,
        private_visibility: bool = False,
    ) -> Any:
        made = {
            "status": "sent",
            "payment_id": f"PM-{1 + len(self.payments)}",
            "receiver": receiver,
            "amount": amount,
            "payment_method": payment_method,
            "private_visibility": private_visibility,
        }
        self.payments.append(made)
        return made


def build() -> list[Any]:
    """The four tools over a fresh app (ten restaurants in three cities, no bookings yet)."""
    return tools(NAME, _App())


_FIND = "Restaurants_2_FindRestaurants"
_RESERVE = "Restaurants_2_ReserveRestaurant"
_REQUEST = "Payment_1_RequestPayment"
_PAY = "Payment_1_MakePayment"

CASES: tuple[Case, ...] = (
    Case(
        "single",
        "dev",
        (
            turn(
                "Find me a moderately priced Italian restaurant in Oakland, CA.",
                call(_FIND, category="Italian", location="Oakland, CA", price_range="moderate"),
                answer=["trattoria sole"],
            ),
        ),
    ),
    Case(
        "single",
        "dev",
        (
            turn(
                "Send 48.20 to Keanu with my debit card.",
                call(_PAY, payment_method="debit card", amount=48.2, receiver="Keanu"),
                answer=[("sent", "pm-1", "paid")],
            ),
        ),
    ),
    Case(
        "twice",
        "dev",
        (
            turn(
                "Request 25 dollars from Lola and 40 dollars from Mateo.",
                call(_REQUEST, receiver="Lola", amount=25),
                call(_REQUEST, receiver="Mateo", amount=40),
                answer=[("pr-1", "request")],
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Find a Japanese restaurant in Sacramento, CA and book it for 4 at 18:45 on "
                "2026-05-16.",
                call(_FIND, category="Japanese", location="Sacramento, CA"),
                call(
                    _RESERVE,
                    restaurant_name="Sakura House",
                    location="Sacramento, CA",
                    time="18:45",
                    number_of_seats=4,
                    date="2026-05-16",
                ),
                answer=["sakura house"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "dev",
        (
            turn(
                "Reserve 6 seats at Smoke Ridge in Austin, TX at 19:00 on 2026-05-22, then pay "
                "the deposit from my app balance.",
                call(
                    _RESERVE,
                    restaurant_name="Smoke Ridge",
                    location="Austin, TX",
                    time="19:00",
                    number_of_seats=6,
                    date="2026-05-22",
                ),
                call(_PAY, payment_method="app balance", amount=90, receiver="Smoke Ridge"),
                answer=["90"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "dev",
        (
            turn(
                "Find Chinese food in Oakland, CA and barbecue in Austin, TX, and send 10 "
                "dollars each to Ravi and Ana by debit card.",
                call(_FIND, category="Chinese", location="Oakland, CA"),
                call(_FIND, category="Barbecue", location="Austin, TX"),
                call(_PAY, payment_method="debit card", amount=10, receiver="Ravi"),
                call(_PAY, payment_method="debit card", amount=10, receiver="Ana"),
                answer=["golden lotus", "smoke ridge"],
            ),
        ),
    ),
    Case("none", "dev", (turn("How much should I tip at a restaurant in the US?"),)),
    Case("none", "dev", (turn("Good evening, how are you?"),)),
    Case(
        "follow-up",
        "dev",
        (
            turn(
                "Send 30 dollars to Wes from my credit card.",
                call(_PAY, payment_method="credit card", amount=30, receiver="Wes"),
                answer=[("sent", "pm-1", "paid")],
            ),
            turn(
                "Send the same to Noor.",
                call(_PAY, payment_method="credit card", amount=30, receiver="Noor"),
                answer=[("sent", "pm-2", "paid")],
            ),
        ),
    ),
    Case(
        "refer",
        "dev",
        (
            turn(
                "Find vegetarian-friendly Mexican places in Austin, TX.",
                call(_FIND, category="Mexican", location="Austin, TX", has_vegetarian_options=True),
                answer=["taqueria luna"],
            ),
            turn(
                "Book a table there for 2 at 12:30.",
                call(
                    _RESERVE,
                    restaurant_name="Taqueria Luna",
                    location="Austin, TX",
                    time="12:30",
                    number_of_seats=2,
                ),
                answer=[("rs-501", "confirmed", "booked", "reserved")],
            ),
        ),
    ),
)

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
