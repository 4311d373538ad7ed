"""Which extra a missing module belongs to, and the sentence that names its install command."""

from __future__ import annotations

import sys

import pytest

from support_bot._extras import EXTRAS, MissingExtraError, extra_for, require_extra


def test_a_missing_extra_found_deep_in_a_command_is_named_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wrapped = ImportError("A PostgreSQL --database needs psycopg 3")
    wrapped.__cause__ = ImportError("No module named 'psycopg_pool'", name="psycopg_pool")
    assert extra_for(wrapped) == "postgres"
    assert extra_for(ImportError("no module", name="numpy")) is None
    monkeypatch.setitem(sys.modules, "bm25s", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'springtail\[search\]'"):
        require_extra("search", "Tool search")


def test_an_installed_extra_passes() -> None:
    require_extra("mcp", "The MCP tool server")  # the test command installs every extra


def test_the_sentence_names_the_extra_and_its_command() -> None:
    error = MissingExtraError("serve", "The web service")
    assert error.extra == "serve"
    assert str(error) == (
        "The web service needs the 'serve' extra, which is not installed; "
        "install it with: pip install 'springtail[serve]'"
    )


def test_every_extra_of_the_cli_is_a_published_extra() -> None:
    from importlib.metadata import metadata

    published = set(metadata("springtail").get_all("Provides-Extra") or [])
    assert {name for name in EXTRAS if name != "dbos"} <= published
