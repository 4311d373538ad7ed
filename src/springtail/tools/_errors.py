"""Failures of a tool, carried in a form the tool loop can answer the model with."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from springtail.tools._definition import ToolDefinition

__all__ = ["ToolArgumentsError", "ToolExecutionError"]


class ToolExecutionError(Exception):
    """A tool failed; ``cause`` is what it raised.

    The message is the cause's message, so the exception processor can hand
    it to the model as is.
    """

    def __init__(
        self,
        tool_definition: ToolDefinition | None,
        cause: BaseException,
        message: str | None = None,
    ) -> None:
        super().__init__(str(cause) if message is None else message)
        self.tool_definition = tool_definition
        self.cause = cause
        self.__cause__ = cause


class ToolArgumentsError(ToolExecutionError):
    """The model's arguments were not valid JSON or did not match the schema.

    The message names every bad field and what was expected, so the model can
    correct the call. ``errors`` lists the same problems one per item.
    """

    def __init__(
        self,
        tool_definition: ToolDefinition | None,
        message: str,
        *,
        errors: tuple[str, ...] = (),
        cause: BaseException | None = None,
    ) -> None:
        super().__init__(
            tool_definition, cause if cause is not None else ValueError(message), message
        )
        self.errors = errors
