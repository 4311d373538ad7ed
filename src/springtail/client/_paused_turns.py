"""How the tool loop pauses a turn for a person's decision and resumes it in a later request.

The loop (``ToolCallingAdvisor``) does both, through three request-context
entries set when the request starts:

- the decisions the request brings (``spec.approve(...)`` / ``deny`` / ``decide``);
- a paused turn given as a value (``spec.resume(turn)``), for code without chat
  memory, or one the application has taken from its memory itself;
- the request's ``PausedTurnStore``: the conversation's chat memory, found
  among the request's advisors (``MessageChatMemoryAdvisor.paused_turn_store``),
  whether that advisor sits outside the loop or inside it.

Pausing stores the turn in the store (or only hands it back, without one);
resuming takes it from the store with the decisions in one compare-and-set,
so a decision runs its call once however many requests bring it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, TypeVar

from springtail._sync import on_private_loop
from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    Generation,
    GenerationMetadata,
    Prompt,
    SystemMessage,
)

if TYPE_CHECKING:
    from springtail.execution import ToolCallDecision, ToolExecutionResult
    from springtail.memory import PausedTurn, PausedTurnMemory

__all__ = [
    "APPROVAL_REQUIRED_FINISH_REASON",
    "DECISIONS_KEY",
    "RESUME_KEY",
    "STORE_KEY",
    "PausedTurnStore",
    "off_the_loop",
    "pause_turn",
    "paused_response",
    "paused_turn_of",
    "resumed_turn",
]

APPROVAL_REQUIRED_FINISH_REASON: Final[str] = "approvalRequired"
"""The finish reason of a turn that ended waiting for a person's decision."""

DECISIONS_KEY: Final[str] = "springtail.approval_decisions"
RESUME_KEY: Final[str] = "springtail.resume_paused_turn"
STORE_KEY: Final[str] = "springtail.paused_turn_store"
PAUSED_TURN_KEY: Final[str] = "paused_turn"
"""``GenerationMetadata.extra`` key of a paused response: the ``PausedTurn``."""

T = TypeVar("T")


class PausedTurnStore:
    """One conversation's paused turn in a chat memory, as the tool loop uses it."""

    __slots__ = ("conversation_id", "memory")

    def __init__(self, memory: PausedTurnMemory, conversation_id: str) -> None:
        self.memory = memory
        self.conversation_id = conversation_id

    def save(self, turn: PausedTurn) -> None:
        """Keep the paused turn until a request decides it."""
        self.memory.pause(self.conversation_id, turn)

    def take(self, decisions: Mapping[str, ToolCallDecision]) -> PausedTurn:
        """The turn decided and removed, exactly once (raises when it does not wait)."""
        return self.memory.take_paused_turn(self.conversation_id, decisions)

    def __repr__(self) -> str:
        return f"PausedTurnStore({self.memory!r}, {self.conversation_id!r})"


async def off_the_loop(function: Callable[..., T], *args: Any) -> T:
    """Run store I/O where it cannot stall other work on an application's event loop."""
    if on_private_loop():
        return function(*args)
    return await asyncio.to_thread(function, *args)


async def resumed_turn(context: Mapping[str, Any]) -> PausedTurn | None:
    """The decided turn this request resumes, or ``None`` for an ordinary request.

    Raises:
        ApprovalConflictError: nothing waits, or a decision names a call that does not.
        ValueError: a waiting call has no decision, or there is nothing to resume from.
    """
    decisions: Mapping[str, ToolCallDecision] | None = context.get(DECISIONS_KEY)
    given: PausedTurn | None = context.get(RESUME_KEY)
    if decisions is None and given is None:
        return None
    if given is not None and given.decided:
        if decisions:
            raise ValueError(
                "The paused turn given to resume() is decided already; do not pass decisions too."
            )
        return given
    store: PausedTurnStore | None = context.get(STORE_KEY)
    if store is not None:
        # The store is the truth: taking the turn there is what makes it run once.
        return await off_the_loop(store.take, decisions or {})
    if given is not None:
        return given.with_decisions(decisions or {})
    raise ValueError(
        "This request brings approval decisions but there is no paused turn to apply them to: "
        "add the chat memory that keeps the conversation (MessageChatMemoryAdvisor with the "
        "conversation id), or pass the paused turn with .resume(turn)."
    )


async def pause_turn(
    prompt: Prompt, reply: ChatResponse, result: ToolExecutionResult, store: PausedTurnStore | None
) -> PausedTurn:
    """The paused turn for ``reply``'s calls, saved in ``store`` when there is one.

    Without a store the turn carries the conversation so far (``prompt``'s
    messages, its system messages left out), so that it resumes from the
    value alone.
    """
    from springtail.memory import PausedTurn

    assistant = next(g.output for g in reply.results if g.output.tool_calls)
    messages = (
        ()
        if store is not None
        else tuple(m for m in prompt.messages if not isinstance(m, SystemMessage))
    )
    turn = PausedTurn(
        assistant,
        result.pending_approvals,
        result.answered,
        messages,
        paused_at=datetime.now(UTC),
    )
    if store is not None:
        await off_the_loop(store.save, turn)
    return turn


def paused_response(
    turn: PausedTurn, last: ChatResponse, *, streamed: bool = False
) -> ChatResponse:
    """The answer the caller gets when the turn pauses: the reply, and the turn to resume.

    In a stream the reply's text went out live already, so the last chunk
    carries only its calls.
    """
    metadata = GenerationMetadata(
        finish_reason=APPROVAL_REQUIRED_FINISH_REASON,
        extra={PAUSED_TURN_KEY: turn, "pending_approvals": turn.pending},
    )
    output = turn.assistant
    if streamed and output.text:
        output = AssistantMessage("", output.tool_calls, output.metadata)
    return ChatResponse((Generation(output, metadata),), last.metadata)


def paused_turn_of(response: ChatResponse) -> PausedTurn | None:
    """The paused turn a response ended with, or ``None``."""
    generation = response.result
    if generation is None or generation.metadata.finish_reason != APPROVAL_REQUIRED_FINISH_REASON:
        return None
    turn: PausedTurn | None = generation.metadata.extra.get(PAUSED_TURN_KEY)
    return turn
