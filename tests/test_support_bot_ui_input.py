from __future__ import annotations

import io

from support_bot.ui import PlainLineReader


def test_plain_reader_returns_lines_then_none() -> None:
    reader = PlainLineReader(io.StringIO("first\r\nsecond"))
    assert reader("you> ") == "first"
    assert reader("you> ") == "second"
    assert reader("you> ") is None


def test_plain_reader_echoes_questions_and_answers_for_the_log() -> None:
    echo = io.StringIO()
    reader = PlainLineReader(io.StringIO("y"), echo=echo)
    assert reader("Allow? [y/N] ") == "y"
    assert echo.getvalue() == "Allow? [y/N] y\n"
