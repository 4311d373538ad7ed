"""Counting tool calls since the user last spoke, and the notice for one too many.

The limits stop a model that loops on tools (calling the same search again
and again) from running up cost or side effects. They count the tool
responses in the conversation since the last ``UserMessage``, so a new user
turn starts a fresh budget and nothing has to be stored between calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail.messages import Message, ToolResponseMessage, UserMessage

__all__ = ["count_since_user", "limit_notice"]


def count_since_user(messages: Sequence[Message]) -> tuple[dict[str, int], int]:
    """Tool responses per tool name, and in total, after the last user message."""
    per_tool: dict[str, int] = {}
    total = 0
    for message in reversed(messages):
        if isinstance(message, UserMessage):
            break
        if isinstance(message, ToolResponseMessage):
            for response in message.responses:
                per_tool[response.name] = per_tool.get(response.name, 0) + 1
                total += 1
    return per_tool, total


def limit_notice(tool_name: str, limited_tool: str | None, limit: int) -> str:
    """The answer a call gets instead of running when it is over a limit."""
    if limited_tool is None:
        return (
            f"Tool call limit reached: {limit} tool calls were already made since the "
            f"user's last message, so '{tool_name}' did not run. Do not call more tools; "
            "answer with the information you have."
        )
    return (
        f"Tool call limit reached: '{tool_name}' was already called {limit} times since "
        "the user's last message, so it did not run. Do not call it again; answer with "
        "the information you have."
    )
