"""What one turn of the tool loop has run so far: call counts and each distinct call's answer.

A turn is everything between a user message and the answer to it. The call
limits and loop prevention count per turn, so the tool loop keeps one
:class:`ToolTurn` for the whole turn and hands it to the manager on every
iteration. Counting in the loop, not in the prompt, is what makes the limits
hold when the prompt does not carry the turn's history
(``conversation_history_enabled=False``, or a memory advisor inside the loop).
Code that drives the loop itself passes no turn: the manager then reads the
turn from the prompt, which in that case holds the whole conversation.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)

__all__ = ["ToolTurn", "call_key"]


def call_key(call: ToolCall) -> tuple[str, str]:
    """The call's identity for loop prevention: its name and canonical arguments.

    Arguments that parse as JSON are compared canonically (key order and
    spacing do not matter); others by their stripped text.
    """
    text = call.arguments
    try:
        parsed = json.loads(text) if text.strip() else {}
    except (ValueError, RecursionError):
        return call.name, text.strip()
    try:
        canonical = json.dumps(parsed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (ValueError, RecursionError):  # pragma: no cover - json.loads output always dumps
        return call.name, text.strip()
    return call.name, canonical


class ToolTurn:
    """The tool calls of one turn: how many per tool and in total, and what each answered.

    Create one per turn and pass it to every
    ``ToolCallingManager.aexecute_tool_calls(..., turn=turn)`` of that turn.
    On first use it also takes in the tool calls the prompt already holds
    after its last user message, so a turn continued from a stored
    conversation keeps counting where it was.
    """

    __slots__ = ("_answers", "_per_tool", "_seeded", "_total")

    def __init__(self) -> None:
        self._per_tool: dict[str, int] = {}
        self._total = 0
        self._answers: dict[tuple[str, str], str] = {}
        self._seeded = False

    @property
    def total_calls(self) -> int:
        """Tool calls made in this turn, over all tools."""
        return self._total

    def calls_of(self, name: str) -> int:
        """Tool calls of ``name`` made in this turn."""
        return self._per_tool.get(name, 0)

    def seed(self, messages: Sequence[Message]) -> None:
        """Take in the calls ``messages`` hold after the last user message (first use only)."""
        if self._seeded:
            return
        self._seeded = True
        start = 0
        for index in range(len(messages) - 1, -1, -1):
            if isinstance(messages[index], UserMessage):
                start = index + 1
                break
        calls: dict[str, ToolCall] = {}
        for message in messages[start:]:
            if isinstance(message, AssistantMessage):
                for call in message.tool_calls:
                    calls[call.id] = call
            elif isinstance(message, ToolResponseMessage):
                for response in message.responses:
                    self.count(response.name)
                    asked = calls.get(response.id)
                    if asked is not None:
                        self.remember(call_key(asked), response.response_data)

    def count(self, name: str) -> None:
        """Count one call of ``name``."""
        self._per_tool[name] = self._per_tool.get(name, 0) + 1
        self._total += 1

    def answer_of(self, key: tuple[str, str]) -> str | None:
        """What the first call with ``key`` answered in this turn, if there was one."""
        return self._answers.get(key)

    def remember(self, key: tuple[str, str], answer: str) -> None:
        """Keep the first answer of the call with ``key``."""
        self._answers.setdefault(key, answer)

    def __repr__(self) -> str:
        return f"ToolTurn(total_calls={self._total}, per_tool={self._per_tool!r})"
