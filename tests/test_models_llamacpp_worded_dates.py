"""Dates in words, read as the dates a small model writes in ISO form."""

from __future__ import annotations

from springtail.models._llamacpp._worded_dates import ISO_DATE, dates_in_words, worded_dates


def test_a_month_with_several_days_and_a_year_gives_each_day_of_that_year() -> None:
    assert dates_in_words("what have i got on march 16, 17 and 18, 2026?") == {
        (3, 16, 2026),
        (3, 17, 2026),
        (3, 18, 2026),
    }


def test_a_day_before_its_month_is_a_date_of_any_year() -> None:
    assert dates_in_words("also the 3rd of april.") == {(4, 3, None)}
    assert dates_in_words("book it for 5 dec") == {(12, 5, None)}


def test_the_place_of_each_date_is_kept_so_its_numbers_are_not_read_twice() -> None:
    text = "on december 5, 2026 at 10"
    [(span, dates)] = worded_dates(text)
    assert text[span[0] : span[1]] == "december 5, 2026"
    assert dates == [(12, 5, 2026)]


def test_a_month_name_inside_a_word_or_without_a_day_is_no_date() -> None:
    assert dates_in_words("a marching band in may") == set()


def test_an_iso_date_gives_its_year_month_and_day() -> None:
    match = ISO_DATE.fullmatch("2026-12-05")
    assert match is not None
    assert match.groups() == ("2026", "12", "05")
