"""The per-request values a tool may read but the model never sees."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["ToolContext"]


class ToolContext(Mapping[str, Any]):
    """Read-only values handed to tools that declare a ``ToolContext`` parameter.

    Use it for what the application knows and the model must not choose: the
    user's name, the conversation id, a database handle. It is immutable so
    that tools running concurrently share it safely.
    """

    __slots__ = ("_data",)

    def __init__(self, context: Mapping[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = dict(context) if context else {}

    @property
    def context(self) -> dict[str, Any]:
        """A plain ``dict`` copy, safe to change."""
        return dict(self._data)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"ToolContext({self._data!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ToolContext):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._data.items(), key=lambda kv: kv[0])))
