"""The outcome of running one response's tool calls."""

from __future__ import annotations

from dataclasses import dataclass

from springtail.execution._deferred import PendingApproval
from springtail.messages import (
    AssistantMessage,
    Generation,
    GenerationMetadata,
    Message,
    ToolResponse,
    ToolResponseMessage,
)

__all__ = ["ToolExecutionResult"]


@dataclass(frozen=True, slots=True)
class ToolExecutionResult:
    """The conversation extended by the assistant's tool calls and their answers.

    ``conversation_history`` is what the next model call needs: the prompt's
    messages, the assistant message that asked for the tools, and one
    ``ToolResponseMessage`` with the answers in call order. ``return_direct``
    says the caller should hand the tool results to the user instead of
    calling the model again.

    ``pending_approvals`` lists the calls whose approver deferred them to a
    person. While it is not empty the turn is paused: the
    ``ToolResponseMessage`` holds only the calls that were answered (none
    when no other call ran), so the history is not ready for the model.
    Resume with ``execute_tool_calls(prompt, response, decisions=...,
    results=<those answers>)``, or let the tool loop do it.
    """

    conversation_history: list[Message]
    return_direct: bool = False
    pending_approvals: tuple[PendingApproval, ...] = ()

    @property
    def paused(self) -> bool:
        """Whether some calls wait for a person's decision."""
        return bool(self.pending_approvals)

    @property
    def answered(self) -> tuple[ToolResponse, ...]:
        """The answers this execution gave, in call order (the deferred calls have none yet)."""
        last = self.conversation_history[-1] if self.conversation_history else None
        if isinstance(last, ToolResponseMessage):
            return last.responses
        return ()

    @staticmethod
    def build_generations(result: ToolExecutionResult) -> list[Generation]:
        """Turn the last tool answers into generations, for return-direct replies.

        The loop uses this when it ends with the tools' results rather than a
        model answer, so the caller still receives an ordinary response whose
        generations carry the tool id and name they came from.
        """
        for message in reversed(result.conversation_history):
            if isinstance(message, ToolResponseMessage):
                return [
                    Generation(
                        AssistantMessage(response.response_data),
                        GenerationMetadata(
                            finish_reason="returnDirect",
                            extra={"tool_id": response.id, "tool_name": response.name},
                        ),
                    )
                    for response in message.responses
                ]
        return []
