"""ToolDefinition and ToolMetadata value rules."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from springtail.tools import ToolDefinition, ToolMetadata

SCHEMA = {"type": "object", "properties": {}}


def test_definition_is_frozen() -> None:
    definition = ToolDefinition("n", "d", SCHEMA)
    with pytest.raises(dataclasses.FrozenInstanceError):
        definition.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "description", "schema", "match"),
    [
        ("", "d", SCHEMA, "name"),
        ("  ", "d", SCHEMA, "name"),
        ("n", "", SCHEMA, "description"),
        ("n", "d", {}, "input_schema"),
    ],
)
def test_empty_parts_are_value_errors(
    name: str, description: str, schema: dict[str, Any], match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        ToolDefinition(name, description, schema)


def test_metadata_defaults_and_frozen() -> None:
    metadata = ToolMetadata()
    assert metadata.return_direct is False
    assert metadata.timeout is None
    assert metadata.requires_approval is False
    assert ToolMetadata(return_direct=True).return_direct is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        metadata.return_direct = True  # type: ignore[misc]


@pytest.mark.parametrize("timeout", [0, -1.0])
def test_metadata_timeout_must_be_positive(timeout: float) -> None:
    with pytest.raises(ValueError, match="timeout"):
        ToolMetadata(timeout=timeout)


def test_metadata_declares_how_a_tool_runs() -> None:
    from springtail import tool
    from springtail.tools import tool_callbacks

    @tool
    def blocking() -> str:
        """Blocks."""
        return "x"

    @tool(timeout=2)
    async def waiting() -> str:
        """Awaits."""
        return "x"

    assert ToolMetadata().is_async is True
    (sync_callback,) = tool_callbacks(blocking)
    (async_callback,) = tool_callbacks(waiting)
    assert sync_callback.tool_metadata.is_async is False
    assert async_callback.tool_metadata == ToolMetadata(timeout=2, is_async=True)
