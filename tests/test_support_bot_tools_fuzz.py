"""Fuzzing support-bot's tools with what a model might send (hypothesis, fixed budget).

Every tool gets arbitrary JSON (missing, extra and mistyped fields; huge,
tiny and non-finite numbers; long and odd strings) and arbitrary text. The
properties: a tool answers with a short string or refuses the arguments with
a ``ToolArgumentsError`` (which the model reads and can correct); it never
crashes, never prints an e-mail address, and the stock never goes below zero
or loses a unit.
"""

from __future__ import annotations

import decimal
import json
import tempfile
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from springtail import ToolArgumentsError, ToolCallback, ToolExecutionError
from support_bot._store import Store
from support_bot.tool_names import CUSTOMER_CONTACT_LOOKUP, PRODUCT_LIST, TODO_LIST
from support_bot.tools import CalculatorTools, all_tools, mask_emails

pytestmark = pytest.mark.fuzz

# The budget: examples per property. CI runs them all on every push.
BUDGET = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
MAX_ANSWER = 1_000  # what one answer may hold; the two list tools list what is stored
LISTS = frozenset({PRODUCT_LIST, TODO_LIST})

SPECIAL_NUMBERS = [
    "1e999999999",
    "-1e999999999",
    "1e-999999999",
    "1e999999",
    "NaN",
    "Infinity",
    "-0",
    "9223372036854775808",
    "0.30000000000000004",
    "1" + "0" * 30,
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(SPECIAL_NUMBERS),
    st.text(max_size=40),
    st.text(max_size=3).map(lambda s: s * 5_000),  # long strings
    st.sampled_from(["SKU-100", "sku-200", "C-101", "c100", "UTC", "Asia/Seoul", "add", "times"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def store() -> Iterator[Store]:
    with tempfile.TemporaryDirectory() as folder:
        yield Store.in_data_dir(Path(folder))


@pytest.fixture(scope="module")
def tools(store: Store) -> dict[str, ToolCallback]:
    return {cb.tool_definition.name: cb for cb in all_tools(store)}


def arguments_for(callback: ToolCallback) -> st.SearchStrategy[dict[str, Any]]:
    names = list(callback.tool_definition.input_schema.get("properties", {}))
    return st.dictionaries(st.sampled_from([*names, "extra"]), json_values, max_size=4)


def call_once(callback: ToolCallback, tool_input: str) -> str | None:
    """The answer, or ``None`` when the arguments were refused as the model can read."""
    refusal = None
    try:
        answer = callback.call(tool_input)
    except ToolArgumentsError as refused:
        refusal = str(refused)
    except ToolExecutionError as crashed:  # a tool should answer, not raise
        pytest.fail(f"{callback.tool_definition.name}({tool_input[:200]}) raised {crashed!r}")
    if refusal is not None:
        assert len(refusal) < 2_000
        return None
    assert isinstance(answer, str)
    if callback.tool_definition.name not in LISTS:
        assert len(answer) <= MAX_ANSWER, answer[:200]
    return answer


def stock_and_reserved(store: Store) -> tuple[int, int, bool]:
    products = store.products()
    reserved = sum(quantity for _, _, quantity in store.reservations())
    return sum(p.stock for p in products), reserved, all(p.stock >= 0 for p in products)


@BUDGET
@given(data=st.data())
def test_every_tool_answers_or_refuses_whatever_json_it_gets(
    tools: dict[str, ToolCallback], store: Store, data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(tools)), label="tool")
    callback = tools[name]
    arguments = data.draw(arguments_for(callback), label="arguments")
    before = sum(stock_and_reserved(store)[:2])
    answer = call_once(callback, json.dumps(arguments))
    stock, reserved, never_negative = stock_and_reserved(store)
    assert never_negative
    assert stock + reserved == before  # a unit is either in stock or reserved
    if answer is not None and name == CUSTOMER_CONTACT_LOOKUP:
        assert "@" not in answer.replace("[EMAIL]", "")


@BUDGET
@given(data=st.data(), tool_input=st.text(max_size=200))
def test_every_tool_refuses_text_that_is_not_a_json_object(
    tools: dict[str, ToolCallback], data: st.DataObject, tool_input: str
) -> None:
    name = data.draw(st.sampled_from(sorted(tools)), label="tool")
    try:
        parsed = json.loads(tool_input)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) or not tool_input.strip():
        return  # a JSON object is the other test's; empty arguments mean {} on purpose
    with pytest.raises(ToolArgumentsError):
        tools[name].call(tool_input)


in_range_decimals = st.decimals(
    min_value=Decimal("-1e30"), max_value=Decimal("1e30"), places=6, allow_nan=False
)


@BUDGET
@given(
    operation=st.sampled_from(["add", "subtract", "multiply"]),
    left=in_range_decimals,
    right=in_range_decimals,
)
def test_calculate_is_exact_for_every_number_in_range(
    operation: str, left: Decimal, right: Decimal
) -> None:
    answer = CalculatorTools().calculate(operation, left, right)
    with decimal.localcontext(decimal.Context(prec=200)):
        exact = {"add": left + right, "subtract": left - right, "multiply": left * right}
    assert Decimal(answer.rpartition(" = ")[2]) == exact[operation], answer
    assert len(answer) < 300


@BUDGET
@given(
    operation=st.sampled_from(["add", "subtract", "multiply", "divide"]),
    left=st.decimals(allow_nan=True, allow_infinity=True),
    right=st.decimals(allow_nan=True, allow_infinity=True),
)
def test_calculate_answers_any_decimal_briefly(
    operation: str, left: Decimal, right: Decimal
) -> None:
    assert len(CalculatorTools().calculate(operation, left, right)) < 300


local_parts = st.text(
    st.sampled_from("abcxyzABC019.!#$%&'*+-/=?^_`{|}~üß用"), min_size=1, max_size=20
).filter(lambda s: not s.startswith(".") and ".." not in s)
labels = st.text(st.sampled_from("abcxyz019-üé例"), min_size=1, max_size=10).filter(
    lambda s: not s.startswith("-")
)
domains = st.one_of(
    st.lists(labels, min_size=1, max_size=4).map(".".join),
    st.tuples(*[st.integers(0, 255)] * 4).map(lambda t: "[" + ".".join(map(str, t)) + "]"),
)
quoted = st.text(st.sampled_from("ab @.,x"), min_size=1, max_size=10).map(lambda s: f'"{s}"')
addresses = st.builds(lambda local, domain: f"{local}@{domain}", local_parts | quoted, domains)
separators = st.sampled_from([" ", ", ", "; ", "\n", " <", "> ", "(", ") ", ": "])


@BUDGET
@given(
    parts=st.lists(st.tuples(st.text(max_size=15), separators, addresses), max_size=5),
    tail=st.text(max_size=15),
)
def test_no_address_survives_masking(parts: list[tuple[str, str, str]], tail: str) -> None:
    text = "".join(f"{before}{sep}{address} " for before, sep, address in parts) + tail
    masked = mask_emails(text)
    for _, _, address in parts:
        assert address not in masked


@BUDGET
@given(text=st.text(alphabet=st.characters(blacklist_characters="@")))
def test_text_without_an_at_sign_is_left_alone(text: str) -> None:
    assert mask_emails(text) == text
