# fresh held-out half: do not read while tuning
"""The orders tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, contains, turn

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "5 miles in km?",
                call("convert_units", value=5, from_unit="mi", to_unit="km"),
                answer=["8.05"],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "Could you average out 7.5, 9, 11 and 14.5 for me?",
                call("average", numbers=[7.5, 9, 11, 14.5]),
                answer=["10.5"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "25 celsius in fahrenheit, and 50 fahrenheit in celsius",
                call("convert_units", value=25, from_unit="celsius", to_unit="fahrenheit"),
                call("convert_units", value=50, from_unit="fahrenheit", to_unit="celsius"),
                answer=["77", "10"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "I have 300 GBP and 12,000 JPY left over from a trip. What's each worth in "
                "dollars?",
                call("currency_convert", amount=300, from_currency="GBP", to_currency="USD"),
                call("currency_convert", amount=12000, from_currency="JPY", to_currency="USD"),
                answer=["379.75", "80.27"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Ship 4 kg express to Mexico and tell me that price in GBP.",
                call("shipping_quote", weight_kg=4, country="Mexico", speed="express"),
                call("currency_convert", amount=39, from_currency="USD", to_currency="GBP"),
                answer=["30.81"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Average 14, 22 and 39 kg, turn that into pounds, and message Lee the result.",
                call("average", numbers=[14, 22, 39]),
                call("convert_units", value=25, from_unit="kg", to_unit="lb"),
                call("send_message", to="Lee", text=contains("55.12")),
                answer=["55.12", ("sent", "m-1")],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Convert 3 km and 9 km to miles, and 50 EUR and 70 EUR to yen.",
                call("convert_units", value=3, from_unit="km", to_unit="mi"),
                call("convert_units", value=9, from_unit="km", to_unit="mi"),
                call("currency_convert", amount=50, from_currency="EUR", to_currency="JPY"),
                call("currency_convert", amount=70, from_currency="EUR", to_currency="JPY"),
                answer=["1.86", "5.59", "8125", "11375"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("how many grams in a kilogram?", answer=["1000"]),)),
    Case("none", "fresh", (turn("You've been really helpful, thanks a bunch!"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "How much is 45 GBP in EUR?",
                call("currency_convert", amount=45, from_currency="GBP", to_currency="EUR"),
                answer=["52.41"],
            ),
            turn(
                "what about in yen?",
                call("currency_convert", amount=45, from_currency="GBP", to_currency="JPY"),
                answer=["8515.82"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Place an order for Rosa Delgado: 3 of SKU-41, express.",
                call(
                    "create_order",
                    customer={"name": "Rosa Delgado"},
                    items=[{"sku": "SKU-41", "quantity": 3}],
                    shipping="express",
                ),
                answer=["o-1001"],
            ),
            turn(
                "What's its status?", call("order_status", order_id="O-1001"), answer=["processing"]
            ),
        ),
    ),
)
