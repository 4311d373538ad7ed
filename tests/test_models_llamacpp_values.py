"""Where a call's values come from: the request's literals and the conversation's text."""

from __future__ import annotations

from typing import Any

from springtail.models._llamacpp._values import (
    Known,
    RequestValues,
    carries,
    defaults,
    grounded,
    invented,
    literals,
    made_up,
    named_choices,
    names,
    normal,
    shape,
    unlisted,
    unnamed_filters,
    uses,
)


def test_literals_are_numbers_tokens_with_digits_quoted_phrases_and_codes() -> None:
    assert literals("What is 12 times 7, and what is 300 divided by 4?") == {"12", "7", "300", "4"}
    assert literals("Look up SKU-100 and SKU-200.") == {"sku-100", "sku-200"}
    assert literals("What's on my calendar on 2026-03-17?") == {"2026-03-17"}
    assert literals("Add two to-dos: 'call Bob' and 'email Alice'.") == {"call bob", "email alice"}
    assert literals("How much is 1,250.50 EUR in USD?") == {"1250.5", "eur", "usd"}
    assert literals("And in GBP?") == {"gbp"}


def test_a_date_in_words_is_a_date_literal_that_a_date_argument_carries() -> None:
    asked = literals("What have I got on March 16, 17 and 18, 2026?")
    assert asked == {"2026-03-16", "2026-03-17", "2026-03-18"}  # not 16, 17, 18 and 2026
    assert uses({"day": "2026-03-17"}, asked) == {"2026-03-17"}
    # Without a year, the month and day; other numbers stay numbers.
    assert literals("Book 3 seats on 16 March at 10:00.") == {"3", "03-16", "10:00"}
    assert uses({"day": "2026-03-16"}, {"03-16"}) == {"03-16"}


def test_small_talk_and_shouting_carry_no_literals() -> None:
    assert literals("Hi! Who are you?") == frozenset()
    assert literals("What's the weather like?") == frozenset()
    assert literals("I NEED HELP NOW") == frozenset()


def test_numbers_compare_by_value() -> None:
    assert normal("12") == normal(12) == normal(12.0) == normal("12.00") == "12"
    assert normal("1,250.50") == "1250.5"
    assert normal("SKU-100") == "sku-100"


def test_a_call_uses_the_literals_its_arguments_carry() -> None:
    wanted = {"12", "7", "300", "4"}
    assert uses({"operation": "multiply", "left": 12, "right": 7}, wanted) == {"12", "7"}
    assert uses({"numbers": [300, 4.0]}, wanted) == {"300", "4"}
    # A number is not found inside another one.
    assert uses({"left": 24, "right": 70}, wanted) == set()
    # A quoted phrase is found inside free text.
    assert uses({"title": "Call Bob tomorrow"}, {"call bob"}) == {"call bob"}


def test_a_schema_default_is_not_a_value_the_call_chose() -> None:
    schema = {"properties": {"page": {"type": "integer", "default": 1}}}
    assert uses({"page": 1}, {"1"}, schema) == set()
    assert not made_up({"page": 1}, Known("List the products."), schema)
    assert made_up({"page": 1}, Known("List the products."))


def test_grounded_means_every_value_with_digits_is_in_the_conversation() -> None:
    known = Known("What is 12 times 12, and what percentage is that of 576?")
    assert not grounded({"part": 144, "total": 576}, known)
    assert grounded({"part": 144, "total": 576}, Known(known.text + "\ncalculate returned: 144"))
    assert grounded({"operation": "divide"}, known)  # no digits: nothing to check
    assert grounded({"count": 3}, Known("Give me three of them."))


def test_a_word_that_multiplies_makes_its_factor_known_not_wanted() -> None:
    """ "Take 20% off 450 and then double it" wrote ``right=2``, read as made up."""
    doubled = "Take 20% off 450 and then double it."
    assert grounded({"left": 360, "right": 2}, Known(doubled + "\nreturned: 360"))
    assert grounded({"right": 0.5}, Known("Halve the total."))
    assert not grounded({"right": 2}, Known("Take 20% off 450."))
    assert "2" not in RequestValues.of(doubled).wanted


def test_a_call_is_made_up_when_no_value_with_digits_comes_from_the_conversation() -> None:
    known = Known("How many minutes are there in a day?")
    assert made_up({"start": "2023-04-01", "end": "2023-04-01"}, known)
    assert not made_up({"zone_id": "UTC"}, known)  # no digits: the model may choose text
    dated = Known("Book 'Sync' on 2026-03-17 at 15:00.")
    assert not made_up({"title": "Sync", "day": "2026-03-18"}, dated)  # one value is read
    assert not made_up({"day": "2026-03-17"}, dated)
    # An address built around the request's id was read in part: a step too early.
    sent = Known("Send patient P-103 an e-mail reminding her to bring her card.")
    assert not made_up({"to": "p-103@example.com", "text": "See you on 2023-04-15."}, sent)
    assert made_up({"to": "x-7@example.com", "text": "See you on 2023-04-15."}, sent)


def test_a_date_or_id_given_once_and_written_into_two_arguments_is_invented_the_second_time() -> (
    None
):
    known = Known("How many days is it from today until 2026-04-01?")
    copied = {"start": "2026-04-01", "end": "2026-04-01"}
    assert invented(copied, known) == frozenset({"end"})
    assert invented({"start": "2026-04-01"}, known) == frozenset()
    # Written twice in the conversation, it may fill two arguments.
    twice = Known("From 2026-04-01 to 2026-04-01, how many days?")
    assert invented(copied, twice) == frozenset()
    # A plain number may repeat: "5 squared" multiplies 5 by 5.
    assert invented({"left": 5, "right": 5}, Known("What is 5 squared?")) == frozenset()


def test_an_address_no_one_gave_is_invented_like_a_value_with_digits() -> None:
    known = Known("Send Tom Becker a text that our parking lot is closed this week.")
    guessed = {"to": "tom.becker@example.com", "text": "Our parking lot is closed this week."}
    assert invented(guessed, known) == frozenset({"to"})
    assert not grounded(guessed, known)
    assert made_up({"to": "tom.becker@example.com"}, known)
    # Read from a result, the same address is the record's.
    read = Known(known.text + "\npatient_lookup returned: e-mail tom.becker@example.com")
    assert invented(guessed, read) == frozenset()
    # A word with an @ in a sentence is no address of its own.
    assert invented({"text": "Meet me @ the lobby"}, known) == frozenset()


def test_an_id_parameter_given_a_text_without_digits_no_one_gave_is_invented() -> None:
    schema = {
        "properties": {
            "patient_id": {"type": "string", "description": "The patient's id, e.g. P-101."},
            "name": {"type": "string", "description": "A name or part of it."},
        }
    }
    known = Known("Send Tom Becker a text that our parking lot is closed this week.")
    assert invented({"patient_id": "T-B"}, known, schema) == frozenset({"patient_id"})
    assert made_up({"patient_id": "T-B"}, known, schema)
    # A parameter without an id's example takes text; a given value stands.
    assert invented({"name": "Becker"}, known, schema) == frozenset()
    assert invented({"patient_id": "tom becker"}, known, schema) == frozenset()


def test_a_literal_has_a_shape_so_a_second_call_is_for_more_of_the_same() -> None:
    assert shape("12") == shape("1250.5") == "number"
    assert shape("2026-07-14") == shape("2026-11-26") == "9-9-9"
    assert shape("sku-100") == shape("c-7") == "a-9"
    assert shape("call bob") == shape("email alice") == "a a"


def test_request_values_are_read_once_normalised_and_as_spelled() -> None:
    values = RequestValues.of("Send 35,000 to ann@example.com for SKU-100, and add a to-do.")
    assert {"35000", "sku-100"} <= values.literals
    assert {"35000", "ann@example.com", "SKU-100"} <= values.spelled
    assert "add a to-do" in values.spelled  # a clause, for free text such as a title


def test_a_call_asked_for_carries_a_wanted_value_and_invents_no_digits() -> None:
    known = Known("Reserve 2 units of SKU-100 and 3 of SKU-300")
    assert carries({"sku": "SKU-300", "quantity": 3}, {"sku-300"}, known)
    assert not carries({"sku": "SKU-300", "quantity": 7}, {"sku-300"}, known)
    assert not carries({"sku": "SKU-100", "quantity": 2}, {"sku-300"}, known)


def test_a_date_written_in_words_is_known_in_its_iso_form() -> None:
    known = Known("What have I got on March 16, 17 and 18, 2026? Also the 3rd of April.")
    assert known.holds("2026-03-16")
    assert known.holds("2026-03-18")
    assert not known.holds("2026-03-19")
    assert known.holds("2031-04-03")  # no year given: any year
    assert not made_up({"day": "2026-03-17"}, known)


def test_names_are_capitalised_words_inside_a_sentence_not_its_first_word() -> None:
    assert names("Order 5 of SKU-9 for Dana Cruz and message Sam the order number.") == {
        "dana cruz",
        "sam",
    }
    assert names("Thanks. Please send it. What day is it?") == frozenset()
    values = RequestValues.of("Send Sam the total of 12 and 30.")
    assert values.names == {"sam"}
    assert values.wanted == {"sam", "12", "30"}


def test_the_month_of_a_date_in_words_is_not_a_name() -> None:
    assert names("What have I got on March 16, 17 and 18, 2026?") == frozenset()
    assert names("Book Tom Becker on March 19") == {"tom becker"}


def test_a_weekday_is_no_name_to_carry() -> None:
    assert names("Show me Monday 2026-03-16's events, then Wednesday 2026-03-18's.") == set()
    assert names("Book Ana Ruiz for Friday at 10:00.") == {"ana ruiz"}
    assert names("Is Sam free on Saturday, Sunday or Monday Evening?") == {"sam", "evening"}


VISIT = {
    "properties": {
        "visit_type": {"enum": ["checkup", "consultation", "x-ray"]},
        "channel": {"anyOf": [{"enum": ["email", "sms"]}, {"type": "null"}]},
        "speed": {"enum": ["standard", "express"], "default": "standard"},
    }
}


def test_the_enum_choices_a_request_names_are_its_values() -> None:
    asked = "Tell me what a checkup and an X-ray cost, by e-mail."
    assert named_choices(asked, [VISIT]) == {"checkup", "x-ray", "email"}
    # A whole word only; a default is named too (any call of its tool carries it).
    assert named_choices("A consultations list, standard please.", [VISIT]) == {"standard"}


def test_a_call_carries_its_text_defaults_unless_it_writes_another_value() -> None:
    assert defaults({}, VISIT) == {"standard"}
    assert defaults({"speed": "standard"}, VISIT) == {"standard"}
    assert defaults({"speed": "express"}, VISIT) == frozenset()


_FILTERED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "specialty": {
            "anyOf": [
                {"type": "string", "enum": ["general practice", "cardiology"]},
                {"type": "null"},
            ],
            "default": None,
        },
        "channel": {"type": "string", "enum": ["email", "sms"], "default": "email"},
        "kind": {"type": "string", "enum": ["checkup", "x-ray"]},
    },
    "required": ["kind"],
}


def test_an_optional_filter_is_unnamed_when_no_word_of_the_conversation_starts_as_it_does() -> None:
    chosen = {"specialty": "cardiology", "channel": "sms", "kind": "x-ray"}
    assert unnamed_filters(chosen, _FILTERED, "When is Dr. Brandt free?") == {"specialty"}
    assert unnamed_filters(chosen, _FILTERED, "our cardiologist") == set()
    # Every word of a choice must be named; a default that is a choice, or a required
    # parameter, is no filter.
    practice = {"specialty": "general practice"}
    assert unnamed_filters(practice, _FILTERED, "a general question") == {"specialty"}
    assert unnamed_filters(practice, _FILTERED, "our general practitioner") == set()
    assert unnamed_filters({"specialty": "cardiology"}, None, "") == set()


def test_the_numbers_of_a_numbered_list_are_not_values_of_the_request() -> None:
    listed = "Lookups:\n1. Who is customer C-103?\n2. How many SKU-300?\n3. And SKU-100?"
    assert RequestValues.of(listed).literals == {"c-103", "sku-300", "sku-100"}
    inline = "Please: 1) 26.2 miles in km, 2) 4 kg to Chile."
    assert RequestValues.of(inline).literals == {"26.2", "4"}
    # A number that ends a sentence, or a run that does not count from 1, is a value.
    assert RequestValues.of("I need 4. Also 2 more.").literals == {"4", "2"}
    assert RequestValues.of("Rooms:\n3. Blue\n5. Red").literals == {"3", "5"}
    assert unlisted("1. a\n2. b") == "   a\n   b"


def test_a_number_joined_to_a_word_is_that_number() -> None:
    # minutes=90 carries "a free 90-minute slot"; read whole, the plan was asked for more lines.
    assert literals("Find me a free 90-minute slot on 2026-03-16.") == {"90", "2026-03-16"}
    assert uses({"minutes": 90}, {"90"}) == {"90"}
    # Letters before the digits, or a short tail, is an id, not a measure.
    assert literals("Read N-3 and the 10-K filing.") == {"n-3", "10-k"}


def test_a_span_of_time_is_known_in_the_unit_a_parameter_asks_for() -> None:
    known = Known("Add 'Car service' on 2026-03-21 at 08:30, two hours long.")
    assert invented({"minutes": 120}, known) == frozenset()
    assert invented({"minutes": 17}, known) == frozenset({"minutes"})
    # "a day" writes no amount: its minutes are what the question asks, so they stay unknown.
    assert invented({"left": 1440}, Known("How many minutes are there in a day?")) == {"left"}


def test_an_id_that_writes_its_own_parameter_s_name_is_a_blank_not_a_value() -> None:
    """ "Please drop the team sync" was written ``cancel_event(event_id="your_event_id")``."""
    known = Known("Please drop the team sync from my calendar.")
    assert invented({"event_id": "your_event_id"}, known) == {"event_id"}
    assert made_up({"event_id": "your_event_id"}, known)
    assert invented({"event_id": "E-1"}, Known("Cancel E-1.")) == frozenset()
    # Not where the request writes it, nor outside an id.
    assert (
        invented({"event_id": "event_id"}, Known("Cancel the one called event_id.")) == frozenset()
    )
    assert invented({"text": "some text"}, known) == frozenset()
