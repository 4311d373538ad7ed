"""Failures the tool loop reports: to the model as answers, or to the caller."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from springtail.execution._deferred import denial_text
from springtail.tools._errors import ToolExecutionError

if TYPE_CHECKING:
    from springtail.execution._deferred import PendingApproval
    from springtail.execution._result import ToolExecutionResult
    from springtail.messages import ToolCall
    from springtail.tools._definition import ToolDefinition

__all__ = [
    "ApprovalConflictError",
    "ApprovalPendingError",
    "DuplicateToolNameError",
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
        message = denial_text(tool_definition.name, reason)
        super().__init__(tool_definition, PermissionError(message), message)
        self.call = call


class DuplicateToolNameError(ValueError):
    """Two tools of one request share a name, so the model could not tell them apart.

    ``ChatClient`` raises it for the tools it was given (its defaults, the
    request's own and lazy providers add up), ``ToolCallingManager`` for the
    callbacks a request offers (``offered=True``: ``ChatOptions.tool_callbacks``,
    where an MCP server's ``calculate`` could shadow the application's). It
    lives here, below both, so that both raise the same class; the public
    name is ``springtail.client.DuplicateToolNameError``. ``names`` lists
    every name that occurs more than once.
    """

    def __init__(self, names: Sequence[str], *, offered: bool = False) -> None:
        listed = ", ".join(repr(n) for n in names)
        if offered:
            message = (
                f"Tool name(s) {listed} offered more than once in this request's tool "
                "callbacks, so the model could not tell them apart. Give one of them another "
                "name (@tool(name=...), or an MCP client's prefix)."
            )
        else:
            message = (
                f"Tool name(s) {listed} registered more than once for this request (default "
                "tools, request tools and lazy providers add up). Give one of them another name "
                "with @tool(name=...), or pass each tool only once."
            )
        super().__init__(message)
        self.names = tuple(names)


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


class ApprovalConflictError(RuntimeError):
    """A decision names a call that does not wait for one (409 Conflict on the web).

    Nothing waits in the conversation, the call is not one of the paused
    turn's pending calls, it was decided already (another process or request
    took the turn first), or its approval expired and it counts as denied.
    Nothing was changed or run.
    """

    def __init__(self, message: str, *, conversation_id: str | None = None) -> None:
        super().__init__(message)
        self.conversation_id = conversation_id


class ApprovalPendingError(RuntimeError):
    """A new message came for a conversation whose turn waits for a person's decision.

    springtail refuses it rather than deciding the pending calls on the
    person's behalf: decide them first (approve or deny), then send the
    message. ``pending`` lists the calls that wait; nothing was saved.
    """

    def __init__(self, conversation_id: str, pending: Sequence[PendingApproval]) -> None:
        calls = ", ".join(f"{p.name} (call {p.id})" for p in pending)
        super().__init__(
            f"Conversation {conversation_id!r} waits for a decision on {calls}; approve or deny "
            "it before sending a new message."
        )
        self.conversation_id = conversation_id
        self.pending = tuple(pending)
