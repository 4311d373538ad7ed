"""Binding a plan line's references to results that are one plain value, without the model."""

from __future__ import annotations

from typing import Any

import pytest

from springtail.models._llamacpp._binding import (
    UNBOUND,
    bind,
    keyed_values,
    misread_day,
    scalar,
    shaped_tokens,
    stated_numbers,
)
from springtail.models._llamacpp._plan import PlanLine, Ref, Result, Template

RESULTS = {
    "r1": Result("create_order", "O-1001", is_error=False),
    "r2": Result("currency_convert", "5307.25", is_error=False),
    "r3": Result("patient_lookup", "Aisha Khan, aisha.khan@mailbox.example, 70 %", is_error=False),
    "r4": Result("average", "20.0", is_error=False),
    "r5": Result("create_order", "No such SKU", is_error=True),
}
TEXT = {"type": "string"}


def template(source: str) -> Template:
    line = PlanLine.parse(f"r9 = f(x={source})")
    assert line is not None
    value = dict(line.arguments)["x"]
    assert isinstance(value, Template)
    return value


@pytest.mark.parametrize(
    ("data", "value"),
    [
        ("O-1001", "O-1001"),
        ("5307.25", 5307.25),
        ("12", 12),
        ('"hello there"', "hello there"),
        ("aisha.khan@mailbox.example", "aisha.khan@mailbox.example"),
        ("Reserved 2 units of SKU-100", None),  # prose: the model reads it
        ('{"order_id": "O-1"}', None),  # an object: the model reads it
        ("true", None),
        ("x" * 65, None),
        ("", None),
    ],
)
def test_a_result_is_one_plain_value_only_when_it_is_a_number_a_string_or_a_token(
    data: str, value: object
) -> None:
    assert scalar(data) == value


def test_a_variable_is_its_plain_result_in_the_parameters_type() -> None:
    assert bind(Ref("r1"), RESULTS, TEXT) == "O-1001"
    assert bind(Ref("r2"), RESULTS, {"type": "number"}) == 5307.25
    assert bind(Ref("r2"), RESULTS, TEXT) == "5307.25"  # a number where text is wanted
    assert bind(Ref("r4"), RESULTS, {"type": "integer"}) == 20
    assert bind(Ref("r4"), RESULTS, {"anyOf": [{"type": "integer"}, {"type": "null"}]}) == 20
    day = Result("find_free_slot", "2026-03-18", is_error=False)
    assert bind(Ref("r9"), {"r9": day}, {"type": "string", "format": "date"}) == "2026-03-18"


@pytest.mark.parametrize(
    ("value", "schema"),
    [
        (Ref("r3"), TEXT),  # prose: the model picks the e-mail address out of it
        (Ref("r5"), TEXT),  # a failed call has no value
        (Ref("r7"), TEXT),  # no result yet
        (Ref("r1"), {"type": "number"}),  # text where a number is wanted
        (Ref("r2"), {"type": "integer"}),
        (Ref("r1"), {"type": "string", "pattern": r"^P-\d+$"}),
        (Ref("r1"), {"type": "string", "enum": ["O-1", "O-2"]}),
        (Ref("r1"), {"type": "string", "format": "date"}),  # an id where a day goes
    ],
)
def test_the_model_writes_a_value_that_is_not_plain_or_not_of_the_parameters_type(
    value: Any, schema: Any
) -> None:
    assert bind(value, RESULTS, schema) is UNBOUND


def test_a_text_built_from_results_is_rendered_with_their_values() -> None:
    assert bind(template('f"Order {r1} costs {r2} yen"'), RESULTS, TEXT) == (
        "Order O-1001 costs 5307.25 yen"
    )
    assert bind(template('"Your order: " + r1 + "."'), RESULTS, TEXT) == "Your order: O-1001."
    assert bind(template('f"Hi {r3}"'), RESULTS, TEXT) is UNBOUND  # prose inside: the model
    assert template('f"{r1} and {r2}"').variables == {"r1", "r2"}


PERCENT = {"type": "number", "minimum": 0, "maximum": 100}


def test_a_number_written_from_a_result_is_one_the_conversation_states() -> None:
    """'covers 70%' offers 70, not 0.7; numbers out of bounds or of the wrong kind are left out."""
    narrowed = stated_numbers(PERCENT, ["70", "101", "12.5", "2026"])
    assert narrowed["enum"] == [12.5, 70]
    assert stated_numbers({"type": "integer"}, ["70", "12.5"])["enum"] == [70]


@pytest.mark.parametrize(
    ("schema", "numbers"),
    [
        (TEXT, ["70"]),  # not a number parameter
        ({"type": "number", "enum": [1, 2]}, ["70"]),  # already a choice
        (PERCENT, []),  # the conversation states none
        (PERCENT, ["500"]),  # none within bounds
        (PERCENT, [str(n) for n in range(65)]),  # too many to say anything
    ],
)
def test_a_number_stays_free_when_the_conversation_gives_no_choice(
    schema: dict[str, Any], numbers: list[str]
) -> None:
    assert stated_numbers(schema, numbers) == schema


DECIMAL = {
    "description": "The first number",
    "anyOf": [{"type": "number", "maximum": 1e30, "minimum": -1e30}, {"type": "string"}],
}


def test_a_number_that_may_be_text_is_written_as_a_number_the_conversation_states() -> None:
    """A ``Decimal`` parameter took the calculator's whole result, ``left="45 * 8 = 360"``."""
    narrowed = stated_numbers(DECIMAL, ["45", "8", "360", "6"])
    assert narrowed == {
        "description": "The first number",
        "type": "number",
        "maximum": 1e30,
        "minimum": -1e30,
        "enum": [6, 8, 45, 360],
    }
    # Too many numbers to choose from: still a number, never the text branch.
    assert "anyOf" not in stated_numbers(DECIMAL, [str(n) for n in range(65)])


SKU = {"type": "string", "description": "The product SKU, e.g. SKU-100"}


def test_an_id_written_from_a_result_is_a_token_of_it_with_the_example_s_shape() -> None:
    """Asked for the sku of a looked-up product, the model wrote a word of its description."""
    narrowed = shaped_tokens(SKU, ["SKU-300 RAG Practice Dataset: 4 in stock (see SKU-30)."])
    assert narrowed["enum"] == ["SKU-30", "SKU-300"]
    assert shaped_tokens(SKU, ["sku-300 is listed"])["enum"] == ["sku-300"]


@pytest.mark.parametrize(
    ("schema", "texts"),
    [
        (TEXT, ["SKU-300"]),  # no example: the shape is unknown
        ({"type": "string", "description": "A name, e.g. Alice"}, ["Bob"]),  # no digits: no id
        ({**SKU, "enum": ["SKU-1"]}, ["SKU-300"]),  # already a choice
        ({"type": "integer", "description": "e.g. 100"}, ["100"]),  # not a text
        (SKU, [" ".join(f"SKU-{n}" for n in range(65))]),  # too many to say anything
    ],
)
def test_an_id_stays_free_when_the_result_gives_no_choice(
    schema: dict[str, Any], texts: list[str]
) -> None:
    assert shaped_tokens(schema, texts) == schema


def test_an_id_that_no_text_holds_is_not_there_to_read() -> None:
    """'No patient matches' holds no doctor id: the model had copied the sentence into one."""
    doctor = {"type": "string", "description": "The doctor id, e.g. D-1"}
    assert shaped_tokens(doctor, ["No patient matches 'Haddad'", "Book P-101 in."]) is None


def test_a_date_written_from_a_result_is_one_the_texts_write() -> None:
    """A day read from an empty search had been written as 2023-04-01."""
    day = {"type": "string", "format": "date"}
    found = '[{"id": "E-2", "day": "2026-03-16", "start": "2026-03-16T10:00"}]'
    assert shaped_tokens(day, [found, "Move it to 2026-03-19."])["enum"] == [
        "2026-03-16",
        "2026-03-19",
    ]
    assert shaped_tokens(day, ["[]", "Put it on my calendar for today."]) is None


def test_a_text_written_from_a_json_result_is_a_value_under_the_parameters_name() -> None:
    found = '[{"id": "E-2", "title": "Dentist", "start": "15:00"}, {"id": "E-5", "start": "9:30"}]'
    text = {"type": "string"}
    # The parameter's name, or the last word of it (``id`` of ``event_id``), is the key.
    assert keyed_values(text, "start", found) == {"type": "string", "enum": ["15:00", "9:30"]}
    assert keyed_values(text, "event_id", found) == {"type": "string", "enum": ["E-2", "E-5"]}
    assert keyed_values(text, "event_id", '{"id": "E-2"}')["enum"] == ["E-2"]
    # No such key, a result that is not JSON, an enum or a number: the schema as it is.
    assert keyed_values(text, "title_case", '{"id": "E-2"}') == text
    assert keyed_values(text, "start", "15:00") == text
    assert keyed_values({"type": "integer"}, "start", found) == {"type": "integer"}
    choices = {"type": "string", "enum": ["a", "b"]}
    assert keyed_values(choices, "start", found) == choices
    # A date's ``start`` is not the event's start time: no value under the key fits it.
    day = {"type": "string", "format": "date"}
    assert keyed_values(day, "start", found) == day
    dated = '[{"id": "E-3", "day": "2026-03-18", "start": "2026-03-18"}]'
    assert keyed_values(day, "start", dated) == {**day, "enum": ["2026-03-18"]}


def test_a_day_given_a_plain_result_that_is_no_date_was_misread() -> None:
    day = {"type": "string", "format": "date"}
    assert misread_day(day, Result("find_free_slot", "09:30", is_error=False))
    # A date, a search that found nothing, a record and a failed call are no such slip;
    # nor is a parameter that takes no date.
    assert not misread_day(day, Result("today", "2026-03-14", is_error=False))
    assert not misread_day(day, Result("find_events", "[]", is_error=False))
    assert not misread_day(day, Result("find_events", '[{"day": "2026-03-16"}]', is_error=False))
    assert not misread_day(day, Result("find_free_slot", "09:30", is_error=True))
    assert not misread_day(TEXT, Result("find_free_slot", "09:30", is_error=False))


def test_a_parameter_of_format_email_takes_an_address_the_texts_hold() -> None:
    to = {"type": "string", "format": "email"}
    record = (
        "Aisha Khan, born 1991-08-30, e-mail aisha.khan@mailbox.example, phone +44 20 555 0103."
    )
    assert shaped_tokens(to, [record, "Send patient P-103 a note"])["enum"] == [
        "aisha.khan@mailbox.example"
    ]
    # An example that is an address says the same, whatever the description's language.
    by_example = {"type": "string", "description": "Empfänger", "examples": ["ana@example.com"]}
    assert shaped_tokens(by_example, ['{"email": "aisha.khan@mailbox.example"}']) == {
        **by_example,
        "enum": ["aisha.khan@mailbox.example"],
    }
    assert shaped_tokens(to, ["No patient matches 'Khan'."]) is None
    # A description's words choose nothing: without a format or an example it stays free.
    worded = {"type": "string", "description": "The e-mail address"}
    assert shaped_tokens(worded, [record]) == worded
