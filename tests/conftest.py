"""Fixtures and hooks shared by every test module."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from postgres_server import PostgresServer, PostgresUnavailable, start_postgres


@pytest.fixture(scope="session", autouse=True)
def _prompt_cache_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the embedded model's prompt cache out of the user's cache folder."""
    previous = os.environ.get("SPRINGTAIL_PROMPT_CACHE_DIR")
    os.environ["SPRINGTAIL_PROMPT_CACHE_DIR"] = str(tmp_path_factory.mktemp("prompt-cache"))
    yield
    if previous is None:
        del os.environ["SPRINGTAIL_PROMPT_CACHE_DIR"]
    else:
        os.environ["SPRINGTAIL_PROMPT_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def embedded_model() -> Iterator[Any]:
    """The embedded default model (``LlamaCppChatModel("embedded")``), loaded once per session.

    Loading costs about a second and 2 GB of memory, and a follow-up prompt
    that shares a prefix with the previous one reuses its KV cache, so every
    test that needs the real model shares this one. Tests using it carry
    ``@pytest.mark.model``.
    """
    pytest.importorskip("llama_cpp")
    from springtail.models._llamacpp import LlamaCppChatModel

    model = LlamaCppChatModel("embedded")
    yield model
    model.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One throw-away PostgreSQL server on loopback for the whole session.

    Skips the test, saying what to install, where the machine has no
    PostgreSQL binaries. Tests that need an empty database take
    :func:`postgres_database`; the chat memory tests use the server's own
    database and drop their table first.
    """
    try:
        server = start_postgres()
    except PostgresUnavailable as exc:
        pytest.skip(str(exc))
    yield server
    server.stop()


@pytest.fixture
def postgres_database(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the session's server."""
    psycopg = pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")
    name = f"shop_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"postgresql://postgres@127.0.0.1:{postgres_server.port}/{name}"


def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the two ``/dev/null`` files llama-cpp-python opens at import and never closes.

    ``llama_cpp._utils`` opens them for its ``suppress_stdout_stderr`` (used
    while a model loads) and leaves them to the interpreter's exit, where
    their finalizers report "unclosed file /dev/null" as a ResourceWarning:
    with warnings as errors, after any session that imported ``llama_cpp``.
    No model is built after the session, so nothing needs them any more.
    """
    utils = sys.modules.get("llama_cpp._utils")
    for name in ("outnull_file", "errnull_file"):
        handle = getattr(utils, name, None)
        if handle is not None:
            handle.close()
