"""The execution errors carry what a caller needs to act on them."""

from __future__ import annotations

from springtail.execution import (
    ToolApprovalDeniedError,
    ToolCallLimitExceededError,
    ToolExecutionResult,
    ToolTimeoutError,
    UnknownToolError,
)
from springtail.messages import ToolCall, UserMessage
from springtail.tools._definition import ToolDefinition
from springtail.tools._errors import ToolExecutionError

DEFINITION = ToolDefinition("refund", "Refund an order.", {"type": "object"})


def test_unknown_tool_error_names_the_tool_and_the_alternatives() -> None:
    error = UnknownToolError("refnud", ["refund", "cancel"])
    assert isinstance(error, ToolExecutionError)
    assert isinstance(error, LookupError)
    assert error.tool_name == "refnud"
    assert error.tool_definition is None
    assert str(error) == (
        "Unknown tool 'refnud'. The available tools are: refund, cancel. "
        "Call one of them by its exact name."
    )


def test_unknown_tool_error_without_tools_says_none_exist() -> None:
    assert "No tools are available" in str(UnknownToolError("x"))


def test_timeout_and_denial_are_tool_execution_errors_with_readable_messages() -> None:
    timeout = ToolTimeoutError(DEFINITION, 2.5)
    assert isinstance(timeout, ToolExecutionError)
    assert isinstance(timeout.cause, TimeoutError)
    assert timeout.timeout == 2.5
    assert "'refund' did not finish within 2.5 seconds" in str(timeout)
    denied = ToolApprovalDeniedError(DEFINITION, ToolCall("1", "refund", "{}"), reason="no")
    assert isinstance(denied.cause, PermissionError)
    assert denied.call.id == "1"
    assert str(denied) == "The call to tool 'refund' was not approved (no), so it did not run."


def test_limit_error_carries_tool_limit_and_partial_result() -> None:
    partial = ToolExecutionResult([UserMessage("hi")])
    error = ToolCallLimitExceededError("search", 40, partial)
    assert (error.tool_name, error.limit, error.partial_result) == ("search", 40, partial)
    total = ToolCallLimitExceededError(None, 150, partial)
    assert total.tool_name is None
    assert "150" in str(total)
