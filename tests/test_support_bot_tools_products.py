from __future__ import annotations

import json
from pathlib import Path

import pytest

from springtail import ToolArgumentsError
from support_bot._store import Store
from support_bot.tool_names import PRODUCT_LIST, PRODUCT_LOOKUP, PRODUCT_RESERVE
from support_bot.tools import ProductTools, business_tools


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.in_data_dir(tmp_path)


@pytest.fixture
def products(store: Store) -> ProductTools:
    return ProductTools(store)


def test_list_and_lookup(products: ProductTools) -> None:
    assert products.product_list().splitlines() == [
        "SKU-100 Spring AI Starter Workbook: 12 in stock",
        "SKU-200 Agent Design Notes: 7 in stock",
        "SKU-300 RAG Practice Dataset: 4 in stock",
    ]
    assert products.product_lookup("  sku-200 ") == "SKU-200 Agent Design Notes: 7 in stock"
    assert "Known SKUs: SKU-100, SKU-200, SKU-300" in products.product_lookup("SKU-999")


def test_reserve_takes_stock(products: ProductTools, store: Store) -> None:
    answer = products.product_reserve("sku-100", 2)
    assert answer == (
        "Reserved 2 unit(s) of SKU-100 (Spring AI Starter Workbook); reservation R-1; "
        "10 left in stock."
    )
    assert store.product("SKU-100").stock == 10


@pytest.mark.parametrize(
    ("sku", "quantity", "fragment"),
    [
        ("SKU-100", 0, "at least 1"),
        ("SKU-100", -2, "at least 1"),
        ("SKU-999", 1, "No product with SKU 'SKU-999'"),
        ("SKU-300", 5, "Only 4 unit(s) of SKU-300"),
    ],
)
def test_refusals_say_why_and_reserve_nothing(
    products: ProductTools, store: Store, sku: str, quantity: int, fragment: str
) -> None:
    answer = products.product_reserve(sku, quantity)
    assert fragment in answer
    assert answer.endswith("Nothing was reserved.")
    assert store.reservations() == []


def test_reserve_requires_approval_and_others_do_not(store: Store) -> None:
    tools = {cb.tool_definition.name: cb for cb in business_tools(store)}
    assert set(tools) >= {PRODUCT_LIST, PRODUCT_LOOKUP, PRODUCT_RESERVE}
    assert getattr(tools[PRODUCT_RESERVE], "requires_approval", None) is True
    assert not getattr(tools[PRODUCT_LOOKUP], "requires_approval", False)
    assert (
        tools[PRODUCT_RESERVE]
        .call('{"sku": "SKU-200", "quantity": 3}')
        .startswith("Reserved 3 unit(s) of SKU-200")
    )


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"sku": "SKU-100", "quantity": 2**63}, "quantity"),  # SQLite's INTEGER ends at 2**63-1
        ({"sku": "SKU-100", "quantity": 1_000_001}, "quantity"),
        ({"sku": "SKU-100", "quantity": 0}, "quantity"),
        ({"sku": "S" * 100_000, "quantity": 1}, "sku"),
    ],
)
def test_the_schema_refuses_quantities_and_skus_out_of_range(
    store: Store, arguments: dict[str, object], field: str
) -> None:
    tools = {cb.tool_definition.name: cb for cb in business_tools(store)}
    with pytest.raises(ToolArgumentsError) as info:
        tools[PRODUCT_RESERVE].call(json.dumps(arguments))
    message = str(info.value)
    assert f"'{field}'" in message
    assert "SQLite" not in message
    assert len(message) < 400
    assert store.reservations() == []
    assert store.product("SKU-100").stock == 12


def test_the_quantity_range_is_in_the_schema(store: Store) -> None:
    tools = {cb.tool_definition.name: cb for cb in business_tools(store)}
    quantity = tools[PRODUCT_RESERVE].tool_definition.input_schema["properties"]["quantity"]
    assert (quantity["minimum"], quantity["maximum"]) == (1, 1_000_000)
