"""Number words: the values and the spans of time read them alike."""

from __future__ import annotations

from springtail.models._llamacpp._durations import spans_of_time
from springtail.models._llamacpp._number_words import NUMBER_WORDS
from springtail.models._llamacpp._values import Known


def test_a_number_word_is_known_as_its_number_and_counts_a_span() -> None:
    assert NUMBER_WORDS["twelve"] == "12"
    assert Known("Reserve twelve units.").holds("12")
    assert "720" in spans_of_time("twelve hours")
