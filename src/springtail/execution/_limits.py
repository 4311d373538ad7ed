"""Counting tool calls since the user last spoke, and the notices for one too many.

The limits stop a model that loops on tools from running up cost or side
effects. They count per turn (since the last ``UserMessage``), so a new user
turn starts a fresh budget; the tool loop counts in a ``ToolTurn``, code that
drives the loop itself has them counted from the conversation it sends.
Loop prevention answers a call identical to an earlier one of the same turn
(same tool, same arguments) with that earlier answer instead of running it.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail.execution._turn import ToolTurn, same_call
from springtail.messages import Message, ToolCall, ToolResponseMessage, UserMessage

__all__ = ["CallPlan", "count_since_user", "limit_notice", "plan_calls", "repeat_notice"]

LIMIT_ERROR = "ToolCallLimitExceededError"
REPEAT_ERROR = "RepeatedToolCallError"


class CallPlan:
    """What to do with each call of one response, decided before any of them runs.

    ``notices[i]`` is ``(text, error_type)`` for a call answered without
    running; ``repeats[i] = j`` names the earlier call ``j`` of the same
    response that call ``i`` repeats (answered once ``j`` has run);
    ``skipped`` calls are over a limit in ``"raise"`` mode, and ``exceeded``
    is the first limit they broke, ``(tool name or None, limit)``.
    """

    __slots__ = ("exceeded", "notices", "repeats", "skipped")

    def __init__(self, size: int) -> None:
        self.notices: list[tuple[str, str] | None] = [None] * size
        self.repeats: dict[int, int] = {}
        self.skipped: list[int] = []
        self.exceeded: tuple[str | None, int] | None = None


def plan_calls(
    calls: Sequence[ToolCall],
    turn: ToolTurn,
    *,
    per_tool_limit: int,
    total_limit: int,
    raise_on_limit: bool,
) -> CallPlan:
    """Decide, in call order, which calls run, which get a notice and which are skipped.

    Every call the model makes counts toward the limits, repeats included;
    a call over a limit is not checked for being a repeat.
    """
    plan = CallPlan(len(calls))
    first_in_response: list[int] = []
    for index, call in enumerate(calls):
        used = turn.calls_of(call.name)
        over: tuple[str | None, int] | None = None
        if used >= per_tool_limit:
            over = (call.name, per_tool_limit)
        elif turn.total_calls >= total_limit:
            over = (None, total_limit)
        if over is not None and raise_on_limit:
            plan.skipped.append(index)
            if plan.exceeded is None:
                plan.exceeded = over
            continue
        turn.count(call.name)
        if over is not None:
            plan.notices[index] = (limit_notice(call.name, *over), LIMIT_ERROR)
            continue
        earlier = turn.answer_of(call)
        if earlier is not None:
            plan.notices[index] = (repeat_notice(call.name, earlier), REPEAT_ERROR)
            continue
        if len(calls) > 1:
            for first in first_in_response:
                if same_call(calls[first], call):
                    plan.repeats[index] = first
                    break
            else:
                first_in_response.append(index)
    return plan


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


def repeat_notice(tool_name: str, answer: str) -> str:
    """The answer a call gets instead of running when it repeats an earlier call of the turn."""
    return (
        f"You already called {tool_name} with these arguments in this turn; its result was: "
        f"{answer}\nDo not call {tool_name} again with the same arguments; answer the user "
        "with this result."
    )
