"""Docstrings as descriptions, in the three common styles."""

from __future__ import annotations

from springtail.tools import tool, tool_callbacks
from springtail.tools._docstring import parse_docstring


def google(city: str, days: int) -> None:
    """Forecast the weather.

    Uses the national service.

    Args:
        city: City name,
            possibly with country.
        days: How many days ahead.

    Returns:
        The forecast.
    """


def numpy(city: str, days: int) -> None:
    """Forecast the weather.

    Parameters
    ----------
    city : str
        City name.
    days : int
        How many days ahead.
    """


def sphinx(city: str, days: int) -> None:
    """Forecast the weather.

    :param city: City name.
    :param days: How many days ahead.
    :returns: The forecast.
    """


def prose_only() -> None:
    """Just a sentence, no sections: the whole text describes the tool.

    Even a second paragraph.
    """


def test_google_style() -> None:
    info = parse_docstring(google)
    assert info.description == "Forecast the weather.\n\nUses the national service."
    assert info.params == {
        "city": "City name, possibly with country.",
        "days": "How many days ahead.",
    }


def test_numpy_style() -> None:
    info = parse_docstring(numpy)
    assert info.description == "Forecast the weather."
    assert info.params == {"city": "City name.", "days": "How many days ahead."}


def test_sphinx_style() -> None:
    info = parse_docstring(sphinx)
    assert info.description == "Forecast the weather."
    assert info.params == {"city": "City name.", "days": "How many days ahead."}


def test_prose_only_and_missing_docstrings() -> None:
    assert parse_docstring(prose_only).description == (
        "Just a sentence, no sections: the whole text describes the tool.\n\n"
        "Even a second paragraph."
    )
    assert parse_docstring(lambda: None).description is None
    assert parse_docstring(lambda: None).params == {}


def test_docstring_descriptions_reach_the_schema_in_every_style() -> None:
    for fn in (google, numpy, sphinx):
        (callback,) = tool_callbacks(tool(fn))
        props = callback.tool_definition.input_schema["properties"]
        assert props["days"]["description"] == "How many days ahead.", fn.__name__
        assert callback.tool_definition.description.startswith("Forecast the weather.")
