"""Chat memory: what a conversation remembers between requests, and where it is kept.

``PostgresChatMemoryRepository`` is resolved lazily (PEP 562) so that psycopg
is imported only by code that uses PostgreSQL; ``PausedTurn`` too, so that
``import springtail.memory`` does not load the execution package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from springtail.memory._base import (
    ChatMemory,
    ChatMemoryError,
    ChatMemoryRepository,
    PausedTurnMemory,
    PausedTurnRepository,
)
from springtail.memory._dsn import describe_dsn, scrub_dsn
from springtail.memory._in_memory import InMemoryChatMemoryRepository
from springtail.memory._window import MessageWindowChatMemory

if TYPE_CHECKING:
    from springtail.memory._paused import PausedTurn as PausedTurn
    from springtail.memory._postgres import (
        PostgresChatMemoryRepository as PostgresChatMemoryRepository,
    )
    from springtail.memory._sqlite import SqliteChatMemoryRepository as SqliteChatMemoryRepository

__all__ = [
    "ChatMemory",
    "ChatMemoryError",
    "ChatMemoryRepository",
    "InMemoryChatMemoryRepository",
    "MessageWindowChatMemory",
    "PausedTurn",
    "PausedTurnMemory",
    "PausedTurnRepository",
    "PostgresChatMemoryRepository",
    "SqliteChatMemoryRepository",
    "describe_dsn",
    "scrub_dsn",
]

_LAZY: dict[str, str] = {
    "PausedTurn": "springtail.memory._paused",
    "PostgresChatMemoryRepository": "springtail.memory._postgres",
    "SqliteChatMemoryRepository": "springtail.memory._sqlite",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'springtail.memory' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
