"""ToolExecutionError and ToolArgumentsError carry what the loop needs."""

from __future__ import annotations

from springtail.tools import ToolArgumentsError, ToolDefinition, ToolExecutionError

DEFINITION = ToolDefinition("t", "A tool.", {"type": "object"})


def test_execution_error_has_definition_cause_and_the_cause_message() -> None:
    cause = KeyError("sku")
    error = ToolExecutionError(DEFINITION, cause)
    assert error.tool_definition is DEFINITION
    assert error.cause is cause
    assert error.__cause__ is cause
    assert str(error) == str(cause)


def test_arguments_error_is_an_execution_error_with_its_problems() -> None:
    error = ToolArgumentsError(DEFINITION, "bad", errors=("'a' is required but missing",))
    assert isinstance(error, ToolExecutionError)
    assert str(error) == "bad"
    assert error.errors == ("'a' is required but missing",)
    assert isinstance(error.cause, ValueError)
