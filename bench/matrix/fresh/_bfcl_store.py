# fresh held-out half: do not read while tuning
"""The bfcl-store tool set's fresh cases (counted, never read)."""

from __future__ import annotations

from bench.matrix._cases import Case, call, one_of, turn

_SEARCH = "product_search"
_DETAILS = "get_product_details"
_STOCK = "inventory_management"
_ORDER = "order_status_check"

CASES = (
    Case(
        "single",
        "fresh",
        (
            turn(
                "Where's my order ORD-77003? It was a Cotton Crew Tee.",
                call(_ORDER, order_id="ORD-77003", product="Cotton Crew Tee"),
                answer=["delivered"],
            ),
        ),
    ),
    Case(
        "twice",
        "fresh",
        (
            turn(
                "pls give me details on PX-4415 and PX-6033",
                call(_DETAILS, product_id="PX-4415"),
                call(_DETAILS, product_id="PX-6033"),
                answer=["rocket", "fan"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Is the blue smartwatch you sell in stock? Search electronics to find it first.",
                call(_SEARCH, category="electronics", color="blue"),
                call(_STOCK, product_id="PX-7781"),
                answer=["3"],
                ordered=True,
            ),
        ),
    ),
    Case(
        "multi",
        "fresh",
        (
            turn(
                "Could you search toys and books, and check how many of PX-1042 in size L and "
                "of PX-3307 in size S are left?",
                call(_SEARCH, category="toys"),
                call(_SEARCH, category="books"),
                call(_STOCK, product_id="PX-1042", sizes=one_of(["L"], ["large"])),
                call(_STOCK, product_id="PX-3307", sizes=one_of(["S"], ["small"])),
                answer=["rocket", "quiet forest", "7", "12"],
            ),
        ),
    ),
    Case("none", "fresh", (turn("What's a good way to wash a rain jacket?"),)),
    Case(
        "follow-up",
        "fresh",
        (
            turn(
                "How much stock of PX-3307 is there in sizes M and XL?",
                call(_STOCK, product_id="PX-3307", sizes=["M", "XL"]),
                answer=["9", "5"],
            ),
            turn(
                "Same for PX-1042.",
                call(_STOCK, product_id="PX-1042", sizes=["M", "XL"]),
                answer=["0", "2"],
            ),
        ),
    ),
    Case(
        "refer",
        "fresh",
        (
            turn(
                "Show me white electronics.",
                call(_SEARCH, category="electronics", color="white"),
                answer=["earbuds"],
            ),
            turn(
                "What sizes and colours does that come in?",
                call(_DETAILS, product_id="PX-2210"),
                answer=["black"],
            ),
        ),
    ),
    Case(
        "single",
        "fresh",
        (
            turn(
                "I'd like the details of product PX-1042, the yellow one in size L.",
                call(_DETAILS, product_id="PX-1042"),
                answer=["89"],
            ),
        ),
    ),
    Case(
        "chain",
        "fresh",
        (
            turn(
                "Find green clothing and check its stock in size M.",
                call(_SEARCH, category="clothing", color="green"),
                call(_STOCK, product_id="PX-3307", sizes=one_of(["M"], ["medium"])),
                answer=["9"],
                ordered=True,
            ),
        ),
    ),
)
