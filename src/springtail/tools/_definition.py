"""What the model is told about a tool, and how springtail treats its result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["ToolDefinition", "ToolMetadata", "with_is_async"]


@dataclass(frozen=True, slots=True)
class ToolDefinition:
    """The name, description and JSON Schema a provider sends to the model."""

    name: str
    description: str
    input_schema: Mapping[str, Any]

    def __post_init__(self) -> None:
        if not self.name or not self.name.strip():
            raise ValueError("ToolDefinition.name must not be empty")
        if not self.description or not self.description.strip():
            raise ValueError(f"ToolDefinition {self.name!r}: description must not be empty")
        if not self.input_schema:
            raise ValueError(f"ToolDefinition {self.name!r}: input_schema must not be empty")

    def __hash__(self) -> int:
        return hash((self.name, self.description))


@dataclass(frozen=True, slots=True)
class ToolMetadata:
    """How the tool loop treats a tool and its result.

    ``return_direct`` hands the result straight back to the caller instead of
    sending it to the model again. ``timeout`` (seconds, ``None`` for the
    manager's default) bounds one run of the tool, and ``requires_approval``
    asks the manager's approver before every run; they live here so that a
    hand-built callback can carry them too, not only ``@tool`` functions.
    ``is_async`` says how the manager runs the tool: ``True`` awaits
    ``acall`` on the event loop, ``False`` runs the blocking ``call`` on a
    worker thread. ``@tool`` callbacks set it from the function. The
    manager reads these flags here and nowhere else.
    """

    return_direct: bool = False
    timeout: float | None = None
    requires_approval: bool = False
    is_async: bool = True

    def __post_init__(self) -> None:
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(
                f"ToolMetadata.timeout must be a positive number of seconds or None, "
                f"got {self.timeout!r}"
            )


_DEFAULTS = {True: ToolMetadata(), False: ToolMetadata(is_async=False)}


def with_is_async(metadata: ToolMetadata | None, is_async: bool) -> ToolMetadata:
    """``metadata`` (default: ``ToolMetadata()``) declaring how the tool's function runs."""
    if metadata is None:
        return _DEFAULTS[is_async]
    if metadata.is_async is is_async:
        return metadata
    return replace(metadata, is_async=is_async)
