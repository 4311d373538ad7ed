"""A request's clauses: where it is cut, and which clauses hold its values."""

from __future__ import annotations

from springtail.models._llamacpp._clauses import clauses, next_clause
from springtail.models._llamacpp._values import RequestValues


def parts(request: str) -> list[tuple[str, list[str]]]:
    found = clauses(request, RequestValues.of(request).wanted)
    return [(c.text, sorted(c.values)) for c in found]


def test_each_part_keeps_its_own_values_and_a_greeting_or_thanks_is_none() -> None:
    request = (
        "Good morning! Please place an order for Nina Rossi, 3 of SKU-4, and one for "
        "Omar Diaz, 1 of SKU-8 by express. Thanks a lot!"
    )
    assert parts(request) == [
        ("Please place an order for Nina Rossi, 3 of SKU-4", ["3", "nina rossi", "sku-4"]),
        ("one for Omar Diaz, 1 of SKU-8 by express.", ["1", "omar diaz", "sku-8"]),
    ]


def test_an_abbreviation_or_an_initial_does_not_end_a_sentence() -> None:
    request = "Book Tom Becker in with Dr. Haddad (D-2) on 2026-03-17 and tell J. Smith at 10:00."
    assert [text for text, _ in parts(request)] == [request]
    # A full stop before a lower-case word ends nothing either ("e.g. the", "approx. 5").
    assert len(parts("Find SKU-1, e.g. the blue one. Then reserve 2 of SKU-9.")) == 2


def test_lines_and_semicolons_cut_a_request_and_a_numbered_list_s_numbers_are_not_values() -> None:
    request = "A few lookups, please:\n1. Who is customer C-103?\n2. How many SKU-300 are left?"
    assert parts(request) == [
        ("Who is customer C-103?", ["c-103"]),
        ("How many SKU-300 are left?", ["sku-300"]),
    ]
    assert len(parts("Reserve 2 of SKU-1; look up C-7")) == 2


def test_a_value_is_held_only_as_a_whole_word() -> None:
    # "25" is not held by "250": each clause holds its own number.
    request = "Take 250 off the first. And 25 off the second."
    assert parts(request) == [
        ("Take 250 off the first.", ["250"]),
        ("And 25 off the second.", ["25"]),
    ]


def test_only_the_values_asked_for_count() -> None:
    request = "Hello Sam. Reserve 3 of SKU-100."
    found = clauses(request, frozenset({"3", "sku-100"}))
    assert [c.text for c in found] == ["Reserve 3 of SKU-100."]


def test_a_part_without_a_value_is_a_step_of_its_own_but_a_joining_word_is_none() -> None:
    request = (
        "Quote shipping for a 3 kg parcel to Japan, work out what that is in yen, "
        "and send Sam the yen price. Also, reserve 2 of SKU-9."
    )
    found = clauses(request, RequestValues.of(request).wanted)
    assert [(c.text, c.bare_step) for c in found] == [
        ("Quote shipping for a 3 kg parcel to Japan, work out what that is in yen", True),
        ("send Sam the yen price.", False),
        ("Also, reserve 2 of SKU-9.", False),
    ]


def test_the_next_line_serves_the_first_clause_from_the_current_one_with_a_value_left() -> None:
    parts = clauses(
        "Reserve 3 of SKU-1. Look up SKU-2. Note SKU-3.", {"3", "sku-1", "sku-2", "sku-3"}
    )
    assert next_clause(parts, -1, frozenset({"3", "sku-1", "sku-2"}), going_on=False) == 0
    # The first clause carried, the second's value left: the second, even going on.
    assert next_clause(parts, 0, frozenset({"sku-2", "sku-3"}), going_on=True) == 1
    # A clause left behind is not gone back to; with nothing left the clause stays.
    assert next_clause(parts, 1, frozenset({"sku-1"}), going_on=False) == 1
    # A clause with a step of no value of its own stays while the model goes on.
    step = clauses("Look up SKU-1, work out its square, and note SKU-2.", {"sku-1", "sku-2"})
    assert step[0].bare_step
    assert next_clause(step, 0, frozenset({"sku-2"}), going_on=True) == 0
    assert next_clause(step, 0, frozenset({"sku-2"}), going_on=False) == 1
