"""Repository locks: a child forked while another thread holds one can still use the store."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path
from typing import Any

import pytest

from springtail.memory import InMemoryChatMemoryRepository, SqliteChatMemoryRepository
from springtail.memory._locks import ForkSafeLock
from springtail.messages import Message, UserMessage


def _use(repository: Any) -> None:
    # A read: it needs the repository's lock but not SQLite's write lock,
    # which the parent's transaction rightly still holds.
    assert repository.find_by_conversation_id("parent") == []


@pytest.mark.parametrize("kind", ["in-memory", "sqlite"])
def test_fork_while_another_thread_holds_the_lock(kind: str, tmp_path: Path) -> None:
    repository: Any = (
        InMemoryChatMemoryRepository()
        if kind == "in-memory"
        else SqliteChatMemoryRepository(tmp_path / "m.db")
    )
    inside, release = threading.Event(), threading.Event()

    def slow_change(current: list[Message]) -> list[Message]:
        inside.set()
        release.wait(30)
        return [UserMessage("from the parent")]

    holder = threading.Thread(target=repository.update, args=("parent", slow_change))
    holder.start()
    assert inside.wait(30)
    context = multiprocessing.get_context("fork")
    child = context.Process(target=_use, args=(repository,))
    child.start()  # forked while the holder thread is inside the lock
    child.join(timeout=30)
    if child.exitcode is None:
        child.kill()
        child.join()
    release.set()
    holder.join()
    assert child.exitcode == 0, "the child hung on a lock held by a thread it does not have"
    assert repository.find_by_conversation_id("parent") == [UserMessage("from the parent")]


def test_lock_is_reentrant() -> None:
    lock = ForkSafeLock()
    with lock, lock:
        pass
