"""springtail.memory's public surface: every name importable, psycopg only when used."""

from __future__ import annotations

import subprocess
import sys

import pytest

import springtail
import springtail.memory

CONTRACT_NAMES = [
    "ChatMemory",
    "ChatMemoryRepository",
    "InMemoryChatMemoryRepository",
    "MessageWindowChatMemory",
    "PostgresChatMemoryRepository",
    "SqliteChatMemoryRepository",
]


@pytest.mark.parametrize("name", CONTRACT_NAMES)
def test_contract_names_are_importable_from_both_places(name: str) -> None:
    assert name in springtail.memory.__all__
    assert getattr(springtail, name) is getattr(springtail.memory, name)


def test_chat_memory_error_is_public() -> None:
    from springtail.memory import ChatMemoryError

    assert issubclass(ChatMemoryError, RuntimeError)


def test_describe_dsn_is_public_and_hides_the_password() -> None:
    pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")
    from springtail.memory import describe_dsn

    assert "describe_dsn" in springtail.memory.__all__
    assert describe_dsn("postgresql://app:s3cret@db:6543/shop") == "app@db:6543/shop"


def test_unknown_names_are_attribute_errors() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        springtail.memory.Nope  # noqa: B018


def test_psycopg_is_imported_only_by_the_postgres_repository() -> None:
    code = (
        "import sys, tempfile, os\n"
        "import springtail.memory as m\n"
        "m.MessageWindowChatMemory(m.SqliteChatMemoryRepository("
        "os.path.join(tempfile.mkdtemp(), 'x.db'))).add('c', [])\n"
        "assert 'psycopg' not in sys.modules, 'psycopg imported too early'\n"
        "m.PostgresChatMemoryRepository\n"
        "assert 'psycopg' not in sys.modules, 'psycopg imported by the class lookup'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
