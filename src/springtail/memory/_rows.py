"""Which rows a ``save_all`` must touch, so that a save rewrites only what changed.

A chat window changes in few ways: messages are appended at the end, the
oldest are dropped from the front, and the system message at the front is
replaced. Rewriting the whole conversation on every turn would make each turn
cost as much as the history is long (and churn the database file), so the SQL
repositories keep the rows that are still wanted and only delete and insert
the difference. Rows are ordered by an integer ``seq`` that need not start at
zero or be dense; anything more tangled than the common shapes falls back to
rewriting the conversation, which is always correct.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

__all__ = ["RowPlan", "plan_rows"]


@dataclass(frozen=True, slots=True)
class RowPlan:
    """The changes that turn the stored rows into the wanted conversation.

    Attributes:
        delete: ``seq`` of every stored row to delete (apply before inserting).
        insert: ``(seq, index)`` pairs: store wanted message ``index`` at ``seq``.
        reuse: for an inserted message equal to a stored row, that row's index
            in the stored rows, so its creation time can be kept.
    """

    delete: tuple[int, ...]
    insert: tuple[tuple[int, int], ...]
    reuse: dict[int, int]

    @property
    def changes_nothing(self) -> bool:
        """Whether the stored rows already are the wanted conversation."""
        return not self.delete and not self.insert


def plan_rows(stored: Sequence[tuple[int, str]], wanted: Sequence[str]) -> RowPlan:
    """Plan the change from ``stored`` ``(seq, payload)`` rows (in order) to ``wanted``."""
    payloads = [payload for _, payload in stored]
    # Match wanted messages to stored rows greedily, in order, as runs of
    # (wanted index, stored position, length). Runs are found and compared
    # with list operations, so an unchanged history costs C loops, not Python.
    runs: list[tuple[int, int, int]] = []
    index = position = 0
    while index < len(wanted):
        try:
            found = payloads.index(wanted[index], position)
        except ValueError:
            index += 1
            continue
        longest = min(len(wanted) - index, len(payloads) - found)
        if wanted[index : index + longest] == payloads[found : found + longest]:
            length = longest
        else:
            length = 1
            while wanted[index + length] == payloads[found + length]:
                length += 1
        runs.append((index, found, length))
        index += length
        position = found + length

    if not runs or any(a[0] + a[2] != b[0] for a, b in pairwise(runs)):
        return _rewrite(stored, wanted)

    kept: set[int] = set()
    for _, found, length in runs:
        kept.update(range(found, found + length))
    first_index, first_position, _ = runs[0]
    last_index, last_position, last_length = runs[-1]
    last_index += last_length - 1
    last_position += last_length - 1
    first_seq = stored[first_position][0]
    last_seq = stored[last_position][0]
    delete = tuple(seq for pos, (seq, _) in enumerate(stored) if pos not in kept)
    insert = tuple(
        [(first_seq - first_index + i, i) for i in range(first_index)]
        + [(last_seq + i - last_index, i) for i in range(last_index + 1, len(wanted))]
    )
    return RowPlan(delete, insert, {})


def _rewrite(stored: Sequence[tuple[int, str]], wanted: Sequence[str]) -> RowPlan:
    """Delete every row and store ``wanted`` from seq 0, keeping equal rows' creation times."""
    available: dict[str, deque[int]] = {}
    for position, (_, payload) in enumerate(stored):
        available.setdefault(payload, deque()).append(position)
    reuse: dict[int, int] = {}
    for index, payload in enumerate(wanted):
        queue = available.get(payload)
        if queue:
            reuse[index] = queue.popleft()
    return RowPlan(
        tuple(seq for seq, _ in stored),
        tuple((index, index) for index in range(len(wanted))),
        reuse,
    )
