"""A re-entrant lock that a forked child gets back unlocked.

If one thread holds a lock while another thread calls ``fork()``, the child
inherits the lock held by a thread that does not exist there, and its first
use of the repository would hang forever. Every repository lock is
registered here and replaced with a fresh one in the child.
"""

from __future__ import annotations

import os
import threading
import weakref
from types import TracebackType

__all__ = ["ForkSafeLock"]

_locks: weakref.WeakSet[ForkSafeLock] = weakref.WeakSet()


class ForkSafeLock:
    """``threading.RLock`` semantics; starts unlocked again in a forked child."""

    __slots__ = ("__weakref__", "_lock")

    def __init__(self) -> None:
        self._lock = threading.RLock()
        _locks.add(self)

    def __enter__(self) -> bool:
        return self._lock.acquire()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._lock.release()

    def _reset(self) -> None:
        self._lock = threading.RLock()


def _reset_all_in_child() -> None:
    for lock in list(_locks):
        lock._reset()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_all_in_child)
