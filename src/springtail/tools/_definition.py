"""What the model is told about a tool, and how springtail treats its result.

``ToolDefinition`` and ``ToolMetadata`` are defined in
``springtail._tool_contract``, below the messages layer, so that
``ChatOptions`` can name the tool contract; what only ``tools/`` needs stays here.
"""

from __future__ import annotations

from dataclasses import replace

from springtail._tool_contract import ToolDefinition, ToolMetadata

__all__ = ["ToolDefinition", "ToolMetadata", "with_is_async"]


_DEFAULTS = {True: ToolMetadata(), False: ToolMetadata(is_async=False)}


def with_is_async(metadata: ToolMetadata | None, is_async: bool) -> ToolMetadata:
    """``metadata`` (default: ``ToolMetadata()``) declaring how the tool's function runs."""
    if metadata is None:
        return _DEFAULTS[is_async]
    if metadata.is_async is is_async:
        return metadata
    return replace(metadata, is_async=is_async)
