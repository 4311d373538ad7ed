"""bfcl-dining: BFCL's ``Restaurants_2`` and ``Payment_1`` functions over a fake booking app."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bench.matrix._cases import Case, ToolSet
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


CASES: tuple[Case, ...] = ()

TOOL_SET = ToolSet(NAME, build, CASES + FRESH, origin="elsewhere")
