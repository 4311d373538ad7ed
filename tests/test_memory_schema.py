"""The chat memory's schema version rules, shared by the SQLite and PostgreSQL repositories.

Opening real stores of each version is tested in test_memory_sqlite.py and
test_memory_postgres.py; these are the rules they both follow.
"""

from __future__ import annotations

import pytest

from springtail.memory import ChatMemoryError
from springtail.memory._schema import (
    MIGRATIONS,
    SCHEMA_VERSION,
    found_version,
    refuse_newer,
    upgrade_statements,
)


def test_the_version_is_the_recorded_one_else_1_for_unversioned_tables_else_0() -> None:
    assert found_version(5, has_tables=False) == 5
    assert found_version(None, has_tables=True) == 1
    assert found_version(None, has_tables=False) == 0


def test_every_version_above_1_has_its_migration_and_the_last_is_current() -> None:
    versions = [version for version, _ in MIGRATIONS]
    assert versions == list(range(2, SCHEMA_VERSION + 1))


def test_an_upgrade_creates_the_version_table_first_then_the_tables() -> None:
    statements = upgrade_statements(1, ["CREATE A", "CREATE B"], "CREATE VERSION")
    assert statements[:3] == ["CREATE VERSION", "CREATE A", "CREATE B"]


def test_a_newer_store_is_refused_with_what_to_do() -> None:
    refuse_newer(SCHEMA_VERSION, "chat memory m.db")  # the current one is fine
    with pytest.raises(ChatMemoryError, match=r"chat memory m\.db was written by a newer"):
        refuse_newer(SCHEMA_VERSION + 1, "chat memory m.db")
