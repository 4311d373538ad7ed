"""Spans of time a request writes, read in every common unit of time."""

from __future__ import annotations

from springtail.models._llamacpp._durations import spans_of_time


def test_a_span_in_hours_is_known_in_minutes_and_seconds() -> None:
    assert {"2", "120", "7200"} <= spans_of_time("car service, two hours long")
    assert {"3", "180"} <= spans_of_time("the first free 3-hour slot")


def test_a_span_in_minutes_is_known_in_hours_when_the_hours_are_short_decimals() -> None:
    found = spans_of_time("a free 90-minute slot")
    assert {"90", "1.5", "5400"} <= found
    assert not any(value.startswith("0.00") for value in found)  # no 0.0089 weeks


def test_half_spans_add_half_a_unit() -> None:
    assert {"30", "0.5"} <= spans_of_time("half an hour")
    assert "90" in spans_of_time("1 and a half hours")
    assert "36" in spans_of_time("one and a half days")


def test_a_unit_without_a_written_amount_or_inside_a_word_is_no_span() -> None:
    assert spans_of_time("how many minutes are there in a day?") == set()
    assert spans_of_time("see you in 2 minutesaver mode") == set()
    assert spans_of_time("2 daysies") == set()


def test_one_word_may_stand_between_the_amount_and_its_unit() -> None:
    assert {"2", "120"} <= spans_of_time("find two free hours and block them")
    assert "72" in spans_of_time("within 3 working days")
