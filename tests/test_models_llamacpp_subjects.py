"""Which tools give a parameter's value, read from the schemas' words alone."""

from __future__ import annotations

from fake_llama import schema
from springtail.models._llamacpp._subjects import (
    named_families,
    named_tools,
    providers,
    speaks_of,
    tool_words,
    unit_takers,
    words,
)
from springtail.tools._definition import ToolDefinition

_ID: dict[str, object] = {"type": "string", "description": "The doctor id, e.g. D-1"}
LIST_DOCTORS = ToolDefinition(
    "list_doctors",
    "List the clinic's doctors with their ids.",
    schema(specialty={"type": "string"}),
)
AVAILABILITY = ToolDefinition(
    "doctor_availability", "A doctor's free appointment times on one day.", schema(doctor_id=_ID)
)
BOOK = ToolDefinition(
    "book_appointment", "Book an appointment; returns its id.", schema(doctor_id=_ID)
)
RECORD = ToolDefinition(
    "patient_lookup",
    "A patient's record by id: name, e-mail address and how much their insurance covers.",
    schema(patient_id={"type": "string"}),
)
TOOLS = (LIST_DOCTORS, AVAILABILITY, BOOK, RECORD)


def test_words_are_compared_by_their_stems_without_the_words_that_name_nothing() -> None:
    assert words("Doctors' coverage") == words("doctor covers")
    assert words("The id of the one") == frozenset({"id"})
    assert words("listDoctors") == words("list doctors")


def test_the_tool_that_shares_most_of_a_parameter_s_words_gives_its_value() -> None:
    # "doctor" and "id": the listing has both, the availability only "doctor".
    assert providers("doctor_id", _ID, TOOLS, besides="book_appointment") == {"list_doctors"}
    coverage = {"type": "number", "description": "The insurance's share in percent"}
    assert providers("coverage_percent", coverage, TOOLS, besides="x") == {"patient_lookup"}
    to = {"type": "string", "description": "An e-mail address, or a phone number"}
    assert providers("to", to, TOOLS, besides="x") == {"patient_lookup"}


def test_the_tool_itself_and_a_shared_id_alone_give_nothing() -> None:
    assert providers("doctor_id", _ID, (BOOK,), besides="book_appointment") == frozenset()
    # Most tools speak of ids: "customer_id" is about a customer, which none lists.
    customer = {"type": "string", "description": "The customer id, e.g. C-100"}
    assert providers("customer_id", customer, TOOLS, besides="x") == frozenset()
    # The example shows a value's shape, not its subject.
    assert providers("code", {"description": "e.g. doctor"}, TOOLS, besides="x") == frozenset()


def test_a_request_names_the_tools_whose_names_hold_one_of_its_words() -> None:
    tools = (
        ToolDefinition("send_message", "Send a message.", schema()),
        ToolDefinition("patient_lookup", "A patient's record.", schema()),
        ToolDefinition("patient_share", "What a patient pays.", schema()),
    )
    request = "Send patient P-103 an e-mail."
    assert named_families(request, tools) == {
        "send": frozenset({"send_message"}),
        "patie": frozenset({"patient_lookup", "patient_share"}),
    }
    assert named_tools(request, tools) == {"send_message", "patient_lookup", "patient_share"}
    # A word every tool's name holds names none of them.
    orders = (
        ToolDefinition("order_lookup", "An order.", schema()),
        ToolDefinition("order_cancel", "Cancel an order.", schema()),
    )
    assert named_tools("Where is my order?", orders) == frozenset()
    # A word between a number and "of" is a measure, not a step.
    units = (
        ToolDefinition("convert_units", "Convert a value between units.", schema()),
        ToolDefinition("order_status", "The status of an order.", schema()),
    )
    placed = "Place an order for Lee Park, 2 units of SKU-7, then check its status."
    assert named_tools(placed, units) == {"order_status"}
    assert named_tools("Convert 5 units to kilograms.", units) == {"convert_units"}
    assert "day" in tool_words(
        ToolDefinition("weekday", "The day of the week of a date.", schema())
    )


def test_a_tool_speaks_of_a_parameter_by_a_subject_word_besides_id() -> None:
    read = ToolDefinition("note_read", "The full text of a note by its id.", schema(note_id={}))
    record = ToolDefinition("member_record", "A member's record by id.", schema(member_id={}))
    assert speaks_of(read, "text")
    assert not speaks_of(record, "to")
    assert not speaks_of(record, "note_id")  # "id" alone says nothing


DISCOUNT = ToolDefinition(
    "discount_calculator",
    "A price after a discount.",
    schema(
        price={"type": "number", "description": "The price before the discount"},
        rate_percent={"type": "number", "description": "The discount in percent"},
    ),
)
PERCENTAGE = ToolDefinition(
    "percentage", "Part of a total in percent.", schema(part={"type": "number"})
)
SHIPPING = ToolDefinition(
    "shipping_quote", "A parcel's price.", schema(weight_kg={"type": "number"})
)


def test_unit_takers_are_the_tools_with_a_parameter_of_a_wanted_numbers_unit() -> None:
    tools = (DISCOUNT, PERCENTAGE, SHIPPING, LIST_DOCTORS)
    asked = "What would 12 units come to at 25 each, with 10% off the total?"
    # "%" reads as percent: a parameter's word, not a tool's ("percentage" has none).
    assert unit_takers(asked, frozenset({"10"}), tools) == {"discount_calculator"}
    # A number with no unit ("at 25 each") asks for no tool; nor does a value that is no number.
    assert unit_takers(asked, frozenset({"25", "12"}), tools) == frozenset()
    assert unit_takers("Ship SKU-100 kg", frozenset({"sku-100"}), tools) == frozenset()
    # A unit written as a word after the number, thousands written with a comma.
    assert unit_takers("Ship a 1,250 kg crate", frozenset({"1250"}), tools) == {"shipping_quote"}
    assert unit_takers("Ship a 3 kg box", frozenset({"3"}), (DISCOUNT,)) == frozenset()
