"""Failures the tool loop reports: to the model as answers, or to the caller."""

from __future__ import annotations

from typing import TYPE_CHECKING

from springtail.tools._errors import ToolExecutionError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from springtail.execution._result import ToolExecutionResult
    from springtail.messages import ToolCall
    from springtail.tools._definition import ToolDefinition

__all__ = [
    "ToolApprovalDeniedError",
    "ToolCallLimitExceededError",
    "ToolTimeoutError",
    "UnknownToolError",
]


class UnknownToolError(ToolExecutionError, LookupError):
    """The model asked for a tool that neither the request nor the resolver knows.

    The message lists the tools that do exist, so a model that misspelled a
    name can correct itself on the next turn. ``tool_definition`` is ``None``
    because there is no tool to describe.
    """

    def __init__(self, tool_name: str, available: Sequence[str] = ()) -> None:
        if available:
            known = ", ".join(available)
            message = (
                f"Unknown tool '{tool_name}'. The available tools are: {known}. "
                "Call one of them by its exact name."
            )
        else:
            message = f"Unknown tool '{tool_name}'. No tools are available for this request."
        super().__init__(None, LookupError(message), message)
        self.tool_name = tool_name
        self.available = tuple(available)


class ToolTimeoutError(ToolExecutionError):
    """A tool did not finish in time; the loop stopped waiting for it.

    A sync tool cannot be killed, so its thread may still be running: the
    loop only gives up on its result. ``timeout`` is the limit in seconds.
    """

    def __init__(self, tool_definition: ToolDefinition, timeout: float) -> None:
        message = (
            f"Tool '{tool_definition.name}' did not finish within {timeout:g} seconds "
            "and was abandoned; its result is unknown."
        )
        super().__init__(tool_definition, TimeoutError(message), message)
        self.timeout = timeout


class ToolApprovalDeniedError(ToolExecutionError):
    """A tool that requires approval was not approved, so it did not run."""

    def __init__(self, tool_definition: ToolDefinition, call: ToolCall, *, reason: str) -> None:
        message = (
            f"The call to tool '{tool_definition.name}' was not approved ({reason}), "
            "so it did not run."
        )
        super().__init__(tool_definition, PermissionError(message), message)
        self.call = call


class ToolCallLimitExceededError(RuntimeError):
    """The model called tools more often than the manager allows since the user spoke.

    Raised with ``on_limit_exceeded="raise"`` to stop a model that loops on
    tools. ``tool_name`` is the tool whose own limit was hit, or ``None`` for
    the total limit; ``partial_result`` holds the calls that were within the
    limits and did run, so their effects are not lost.
    """

    def __init__(
        self, tool_name: str | None, limit: int, partial_result: ToolExecutionResult
    ) -> None:
        if tool_name is None:
            message = (
                f"More than {limit} tool calls since the last user message (the limit is {limit})."
            )
        else:
            message = (
                f"Tool '{tool_name}' was called more than {limit} times since the last "
                f"user message (the limit is {limit})."
            )
        super().__init__(message)
        self.tool_name = tool_name
        self.limit = limit
        self.partial_result = partial_result
