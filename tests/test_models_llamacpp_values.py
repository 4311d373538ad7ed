"""The values a text writes, read by shape alone (``_llamacpp/_values.py``)."""

from __future__ import annotations

from springtail.models._llamacpp._values import (
    Known,
    RequestValues,
    literals,
    normal,
    shape,
    value_tokens,
)


def test_literals_are_tokens_with_digits_quoted_phrases_and_codes() -> None:
    assert literals("What is 12 times 7, and what is 300 divided by 4?") == {"12", "7", "300", "4"}
    assert literals("Look up SKU-100 and SKU-200.") == {"sku-100", "sku-200"}
    assert literals("What's on my calendar on 2026-03-17?") == {"2026-03-17"}
    assert literals("Add two to-dos: 'call Bob' and 'email Alice'.") == {"call bob", "email alice"}
    assert literals("How much is 1,250.50 EUR in USD?") == {"1250.5", "eur", "usd"}


def test_literals_read_the_same_in_any_language() -> None:
    # No word of any language is known: the values are the same in German and Spanish.
    assert literals("Wie viel sind 1,250.50 EUR in USD?") == {"1250.5", "eur", "usd"}
    assert literals("¿Cuántas unidades de SKU-200 quedan el 2026-03-17?") == {
        "sku-200",
        "2026-03-17",
    }
    assert literals("Füge „Milch kaufen“ hinzu") == {"milch kaufen"}


def test_small_talk_and_shouting_carry_no_literals() -> None:
    assert literals("Hi! Who are you?") == frozenset()
    assert literals("I NEED HELP NOW") == frozenset()


def test_numbers_compare_by_value() -> None:
    assert normal("12") == normal(12) == normal(12.0) == normal("12.00") == "12"
    assert normal("1,250.50") == "1250.5"
    assert normal("SKU-100") == "sku-100"


def test_a_literal_has_a_shape() -> None:
    assert shape("12") == shape("1250.5") == "number"
    assert shape("2026-07-14") == shape("2026-11-26") == "9-9-9"
    assert shape("sku-100") == shape("c-7") == "a-9"
    assert shape("call bob") == shape("email alice") == "a a"


def test_request_values_are_spelled_as_a_call_would_write_them() -> None:
    values = RequestValues.of("Send 35,000 to ann@example.com for SKU-100, and add a to-do.")
    assert {"35000", "ann@example.com", "SKU-100"} <= values.spelled
    assert "35,000" in value_tokens("Send 35,000 now")


def test_known_numbers_are_the_numbers_a_conversation_writes() -> None:
    known = Known("Reserve 2 units of SKU-100 at 1,250.50 each; r1 = lookup returned: 4 in stock")
    assert {"2", "1250.5", "4"} <= known.numbers
