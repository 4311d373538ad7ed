# fresh held-out half: do not read while tuning
"""The bfcl-dining tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, turn

_FIND = "Restaurants_2_FindRestaurants"
_RESERVE = "Restaurants_2_ReserveRestaurant"
_REQUEST = "Payment_1_RequestPayment"
_PAY = "Payment_1_MakePayment"

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "I need a cheap Thai place in Sacramento, CA",
                call(_FIND, category="Thai", location="Sacramento, CA", price_range="cheap"),
                answer=["bangkok garden"],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "pls request 37.50 from Marisol, keep it private",
                call(_REQUEST, receiver="Marisol", amount=37.5, private_visibility=True),
                answer=[("pr-1", "request")],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "Send 15 dollars to Theo and 22 dollars to Imani from my app balance.",
                call(_PAY, payment_method="app balance", amount=15, receiver="Theo"),
                call(_PAY, payment_method="app balance", amount=22, receiver="Imani"),
                answer=[("sent", "pm-1", "paid")],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Find an Indian restaurant in Austin, TX and reserve 3 seats there at 19:30 on "
                "2026-06-12.",
                call(_FIND, category="Indian", location="Austin, TX"),
                call(
                    _RESERVE,
                    restaurant_name="Saffron Table",
                    location="Austin, TX",
                    time="19:30",
                    number_of_seats=3,
                    date="2026-06-12",
                ),
                answer=["saffron table"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Look for Mexican spots in Oakland, CA and in Austin, TX, and request 12 dollars "
                "each from Jonah and from Priyanka.",
                call(_FIND, category="Mexican", location="Oakland, CA"),
                call(_FIND, category="Mexican", location="Austin, TX"),
                call(_REQUEST, receiver="Jonah", amount=12),
                call(_REQUEST, receiver="Priyanka", amount=12),
                answer=["casa verde", "taqueria luna"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("What's the difference between a bistro and a brasserie?"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "Any seafood restaurants in Oakland, CA?",
                call(_FIND, category="Seafood", location="Oakland, CA"),
                answer=["harbor grill"],
            ),
            turn(
                "What about Italian ones?",
                call(_FIND, category="Italian", location="Oakland, CA"),
                answer=["trattoria sole"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Book a table for 2 at Il Forno in Sacramento, CA at 20:00 on 2026-06-20.",
                call(
                    _RESERVE,
                    restaurant_name="Il Forno",
                    location="Sacramento, CA",
                    time="20:00",
                    number_of_seats=2,
                    date="2026-06-20",
                ),
                answer=[("rs-501", "confirmed", "booked", "reserved")],
            ),
            turn(
                "Pay the deposit with my credit card.",
                call(_PAY, payment_method="credit card", amount=30, receiver="Il Forno"),
                answer=["30"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Book a table for 5 at 13:15 on 2026-06-27 at the Chinese place in Oakland, CA, "
                "then pay the deposit by debit card.",
                call(_FIND, category="Chinese", location="Oakland, CA"),
                call(
                    _RESERVE,
                    restaurant_name="Golden Lotus",
                    location="Oakland, CA",
                    time="13:15",
                    number_of_seats=5,
                    date="2026-06-27",
                ),
                call(_PAY, payment_method="debit card", amount=75, receiver="Golden Lotus"),
                answer=["75"],
                ordered=True,
            ),
        ),
    ),
)
