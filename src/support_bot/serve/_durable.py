"""Durable turns for ``support-bot serve``: each turn a DBOS workflow, recovered after a crash.

The service runs the same client as without DBOS, wrapped in springtail's
``DurableChatClient``: each model call, tool call and chat memory write is a
checkpointed step, and a serve that starts on the same system database
finishes the turns its predecessor (the same executor id) left unfinished.
The system database sits beside the business data: ``dbos.sqlite`` in the
SQLite store's folder, or the ``dbos`` schema of the same PostgreSQL.

A turn runs on the DBOS queue ``QUEUE_NAME``, whose per-process concurrency
is the model's capacity (one turn at a time for the embedded model), so the
queue takes the place of the process-local ``ModelGate``.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from support_bot._store_base import BusinessStore

__all__ = [
    "APP_NAME",
    "CLIENT_NAME",
    "DBOS_FILENAME",
    "DBOS_SCHEMA",
    "EXECUTOR_ENV",
    "QUEUE_NAME",
    "DurableSettings",
    "configure",
    "default_executor_id",
    "executor_id",
    "system_database_url",
]

APP_NAME: Final = "support-bot"
CLIENT_NAME: Final = "support-bot.serve"
"""The ``DurableChatClient`` name the turns find their client by, in every serve process."""
QUEUE_NAME: Final = "support-bot.turns"
DBOS_FILENAME: Final = "dbos.sqlite"
DBOS_SCHEMA: Final = "dbos"
EXECUTOR_ENV: Final = "SUPPORT_BOT_EXECUTOR_ID"
QUEUE_POLLING_S: Final = 0.1
"""How often the queue looks for turns to start: the delay a queued turn can add."""


@dataclass(frozen=True, slots=True)
class DurableSettings:
    """Where DBOS keeps the turns, and who this process is among the processes sharing it.

    Attributes:
        system_database_url: DBOS's system database (SQLite file or PostgreSQL).
        executor_id: This process's stable name: on launch it recovers the
            unfinished turns of this name only, so processes sharing one
            PostgreSQL never take each other's live turns.
        postgres: Whether the system database is PostgreSQL (then DBOS keeps
            its tables in the schema ``DBOS_SCHEMA``).
    """

    system_database_url: str
    executor_id: str
    postgres: bool = False


def default_executor_id(host: str, port: int) -> str:
    """``machine:host:port``: the same for the process that replaces this one on this machine."""
    return f"{socket.gethostname()}:{host}:{port}"


def system_database_url(database: str | None, store: BusinessStore) -> tuple[str, bool]:
    """The system database for ``--database``: beside the SQLite file, or the same PostgreSQL.

    Returns:
        The URL for DBOS, and whether it is PostgreSQL.
    """
    from springtail.durable import sqlite_system_database
    from support_bot._store_postgres import is_postgres_url

    if database and is_postgres_url(database):
        url = database.strip()
        if url.startswith("postgres://"):
            url = "postgresql://" + url.removeprefix("postgres://")
        return url, True
    folder = Path(store.location).expanduser().resolve().parent
    return sqlite_system_database(folder / DBOS_FILENAME), False


def executor_id(option: str | None, host: str, port: int) -> str:
    """``--executor-id``, else ``$SUPPORT_BOT_EXECUTOR_ID``, else ``default_executor_id``."""
    return (option or os.environ.get(EXECUTOR_ENV, "")).strip() or default_executor_id(host, port)


def configure(settings: DurableSettings) -> None:
    """Configure DBOS for this process: before the durable client is built and DBOS launched."""
    from dbos import DBOS, DBOSConfig

    config: DBOSConfig = {
        "name": APP_NAME,
        "system_database_url": settings.system_database_url,
        "executor_id": settings.executor_id,
        "log_level": "WARNING",
    }
    if settings.postgres:
        config["dbos_system_schema"] = DBOS_SCHEMA
    DBOS(config=config)
