"""A PostgreSQL connection string as it may be shown: where it points, never its password."""

from __future__ import annotations

import pytest

from springtail.memory._dsn import describe_dsn, scrub_dsn

pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")


def test_describe_names_the_server_without_the_password() -> None:
    assert describe_dsn("postgresql://app:s3cret@db.internal:6543/support") == (
        "app@db.internal:6543/support"
    )
    assert describe_dsn("host=db password=s3cret") == "db:5432/"
    assert describe_dsn("postgres://app:s3cret@[::1/x") == "(unparsable connection string)"


@pytest.mark.parametrize(
    ("text", "dsn", "shown"),
    [
        (
            'end of string reached when looking for matching "]" in IPv6 host address in '
            'URI: "postgres://app:s3cret@[::1/x"',
            "postgres://app:s3cret@[::1/x",
            'end of string reached when looking for matching "]" in IPv6 host address in URI: "…"',
        ),
        (
            'missing "=" after "s3cret" in connection info string',
            "host=db user=app s3cret",
            'missing "=" after "…" in connection info string',
        ),
        (
            "password authentication failed for user s3cret-app",
            "postgresql://app:s3cret-app@db/x",
            "password authentication failed for user ***",
        ),
        (
            "the password was pw'd: 'quoted secret'",
            "host=db password='quoted secret'",
            "the password was pw'd: ***",
        ),
    ],
)
def test_scrub_leaves_nothing_of_the_password(text: str, dsn: str, shown: str) -> None:
    assert scrub_dsn(text, dsn) == shown
