"""What every step shares: its inputs, how it reports progress, and its shape.

A step is one small program showing one way of running tools. The UI does
not care which: it hands a step the user's text and draws what the step
reports through a ``Reporter`` (the model thinking, each tool call, the
answer's text). Keeping the reporting behind a protocol is what lets the same
steps run in the rich terminal, in plain pipes and under tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from springtail import (
    ChatModel,
    DefaultToolExecutionExceptionProcessor,
    Message,
    PendingApproval,
    ToolCall,
    ToolCallback,
    ToolCallingManager,
    ToolDefinition,
    ToolExecutionError,
    ToolResponse,
    ToolSearch,
    defer_approval,
)
from support_bot._store_base import BusinessStore, StoreError

__all__ = [
    "SYSTEM_PROMPT",
    "Reporter",
    "Step",
    "StepEnv",
    "ToolLineListener",
    "approver_for",
    "ask_decisions",
    "make_manager",
]

SYSTEM_PROMPT = (
    "You are a helpful support assistant for a small shop. Use the tools for calculations, "
    "dates, discounts, customer contacts, product stock, reservations and to-dos; call every "
    "tool a request needs. When the tools have answered, give the user the results in one or "
    "two short sentences."
)
"""Measured on the embedded 1.5B model: a longer prompt asking to "tell the user what was
done" got "Thank you for your question." after ``calculate`` answered 4096; this one
gets "The result of 128 times 32 is 4096."."""


class Reporter(Protocol):
    """How a step tells the UI what is happening during one turn."""

    def thinking(self) -> None:
        """The model is about to be called (show a spinner)."""

    def tool_started(self, call_id: str, name: str, arguments: str) -> None:
        """A tool call starts."""

    def tool_finished(
        self,
        call_id: str,
        name: str,
        result: str,
        is_error: bool,
        duration_s: float,
        approval_wait_s: float = 0.0,
    ) -> None:
        """A tool call ended; ``duration_s`` is its run time, apart from the approval wait."""

    def text(self, delta: str) -> None:
        """The next piece of the answer."""

    def approve(self, name: str, arguments: str) -> bool:
        """Ask the user whether a tool that requires approval may run."""


@dataclass(frozen=True, slots=True)
class StepEnv:
    """Everything a step is built from; the model is injected so tests can script it."""

    model: ChatModel
    store: BusinessStore
    reporter: Reporter
    user_name: str
    conversation_id: str
    data_dir: Path
    extra_tools: tuple[ToolCallback, ...] = ()
    """Tools of other processes (``--mcp FILE``), offered next to the bot's own by the
    steps that offer every tool (step4, step5, final)."""
    tool_search: ToolSearch | None = None
    """Narrow each request's tools (the final step), when they would not fit the model."""


class Step(Protocol):
    """One way of running tools, behind one interface for the UI."""

    name: str
    """The step's ``--step`` name."""

    @property
    def tools(self) -> Sequence[ToolCallback]:
        """The tools this step offers the model."""

    @property
    def intro(self) -> Sequence[str]:
        """Lines the UI prints when the step starts (what it shows)."""

    @property
    def conversation_id(self) -> str:
        """The conversation this step talks in."""

    def ask(self, text: str) -> str:
        """Run one turn; report progress through the reporter and return the answer."""

    def history(self) -> list[Message]:
        """The conversation so far, for ``/history``."""

    def new_conversation(self, conversation_id: str) -> None:
        """Forget nothing stored, but start talking in another conversation."""


class ToolLineListener:
    """A ``ToolExecutionListener`` that forwards each tool call to the reporter.

    Non-streaming steps use it to show tool calls live; streaming steps get
    the same facts as stream events instead.
    """

    def __init__(self, reporter: Reporter) -> None:
        self._reporter = reporter
        self._waits: dict[str, float] = {}

    def on_tool_start(self, call: ToolCall, definition: ToolDefinition | None) -> None:
        """Show the call as running."""
        self._reporter.tool_started(call.id, call.name, call.arguments)

    def on_tool_approval(
        self, call: ToolCall, definition: ToolDefinition, approved: bool, wait_s: float
    ) -> None:
        """Remember how long the person took to decide, to show it apart."""
        self._waits[call.id] = wait_s

    def on_tool_end(
        self,
        call: ToolCall,
        definition: ToolDefinition | None,
        response: ToolResponse,
        duration_s: float,
    ) -> None:
        """Show the call's result."""
        self._reporter.tool_finished(
            call.id,
            call.name,
            response.response_data,
            response.is_error,
            duration_s,
            self._waits.pop(call.id, 0.0),
        )


def approver_for(reporter: Reporter) -> Callable[[ToolCall, ToolDefinition], bool]:
    """The manager's approver: ask the reporter (the user, or ``--yes``)."""

    def approve(call: ToolCall, definition: ToolDefinition) -> bool:
        return reporter.approve(call.name, call.arguments)

    return approve


def make_manager(
    env: StepEnv,
    *,
    report_tools: bool,
    exception_processor: Callable[[ToolExecutionError], str] | None = None,
    defer: bool = False,
) -> ToolCallingManager:
    """A manager that asks for approval and lets store failures reach the UI.

    A locked or damaged database is not something the model can fix, so
    ``StoreError`` is rethrown and the UI explains it to the user.
    With ``defer`` the manager asks nobody: a call that needs approval waits
    (the turn pauses, springtail's deferred approvals) and the step asks the
    user itself, so a question left unanswered survives the program.
    """
    processor = exception_processor or DefaultToolExecutionExceptionProcessor(
        always_throw=False, rethrow=(StoreError,)
    )
    return ToolCallingManager(
        exception_processor=processor,
        listeners=(ToolLineListener(env.reporter),) if report_tools else (),
        approver=defer_approval if defer else approver_for(env.reporter),
    )


def ask_decisions(reporter: Reporter, pending: Sequence[PendingApproval]) -> dict[str, bool]:
    """The user's decision on each call that waits, asked one at a time."""
    return {call.id: reporter.approve(call.name, call.arguments) for call in pending}
