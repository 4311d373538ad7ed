"""Tool sets not written here: BFCL v4's live function documents, run over fake back-ends.

Each module keeps a group of functions that real users documented for BFCL (names,
descriptions and parameter schemas as written; see ``NOTICE.md``), implements them over
a deterministic fake so that a chain or a later turn has a result to use, and holds its
development cases; its fresh cases are in ``bench.matrix.fresh``.
"""

from __future__ import annotations

from bench.matrix._cases import ToolSet
from bench.matrix.elsewhere import (
    _dining,
    _events,
    _homes,
    _math,
    _media,
    _movies,
    _store,
    _travel,
)

__all__ = ["ELSEWHERE"]

ELSEWHERE: tuple[ToolSet, ...] = tuple(
    m.TOOL_SET for m in (_movies, _dining, _travel, _media, _homes, _events, _store, _math)
)
"""The tool sets in the order they run."""
