"""How a tool's return value becomes the text the model reads."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any, TypeAlias

__all__ = ["DefaultToolCallResultConverter", "ToolCallResultConverter", "cut_result"]

ToolCallResultConverter: TypeAlias = Callable[[Any, "type | None"], str]
"""Any ``(result, return_type) -> str`` callable; ``return_type`` is the tool's
declared return annotation (``None`` when it has none)."""


_serializer: Callable[..., bytes] | None = None


def _to_json() -> Callable[..., bytes]:
    # Deferred so that `import springtail.tools` does not load pydantic.
    global _serializer
    if _serializer is None:
        from pydantic_core import to_json

        _serializer = to_json
    return _serializer


class DefaultToolCallResultConverter:
    """``str`` as is, ``None`` as "Done", everything else as compact JSON.

    "Done" rather than "" or "null" because a model told nothing tends to
    call the tool again; compact JSON because it is what models read most
    reliably and it costs the fewest tokens. Serialisation goes through
    pydantic, so models, dataclasses, ``datetime``, ``Enum`` and ``Decimal``
    need no help; objects it cannot serialise fall back to ``str()``.
    """

    __slots__ = ()

    def __call__(self, result: Any, return_type: Any = None) -> str:
        if isinstance(result, str):
            return result
        if result is None:
            return "Done"
        if isinstance(result, Decimal) and result.is_finite():
            # A bare JSON number keeps every digit; pydantic would quote it.
            return str(result)
        return _to_json()(result, fallback=str).decode()

    def __repr__(self) -> str:
        return "DefaultToolCallResultConverter()"


def cut_result(text: str, limit: int | None) -> str:
    """``text`` cut to ``limit`` characters, with a line that says how much was cut.

    One wording wherever a result has a budget (the manager's
    ``max_result_chars``, an MCP client's), so a model meets the same notice.
    """
    if limit is None or len(text) <= limit:
        return text
    cut = len(text) - limit
    return (
        f"{text[:limit]}\n[Result truncated: {cut} of {len(text)} characters were cut "
        f"to fit the {limit}-character limit.]"
    )
