"""Tool search for ``support-bot --mcp``: when the tools would not fit the model's context.

The bot's 13 tools take about 1,900 of the embedded model's 4,096 tokens; a
large MCP server on top of them does not fit at all. Then each request is
offered only the tools that match it best (springtail's ``ToolSearch`` in
``"retrieve"`` mode: no extra model round, which a small model handles
best), and the chat says so once. The decision uses token estimates of the
definitions, so it is made before the model is loaded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from springtail import ChatModel, ToolCallback, ToolSearch, estimated_tool_tokens
from support_bot._extras import require_extra

__all__ = ["HISTORY_RESERVE_TOKENS", "TOOL_BUDGET_TOKENS", "ToolSearchPlan", "plan_tool_search"]

HISTORY_RESERVE_TOKENS = 1600
"""Room the conversation and the answer need beside the system prompt and the tools: the
memory window of 24 messages (six tool-calling turns) and a two-sentence answer."""

TOOL_BUDGET_TOKENS = 900
"""Estimated tokens of the tools offered per request once tool search is on: about six
definitions, which keeps the embedded model's prompt well under 2,500 tokens."""

MAX_TOOLS = 6
"""The most tools one request is offered: a small model chooses better among few."""

MIN_SCORE_RATIO = 0.3
"""Tools matching the request less than this share of the best match are left out."""


@dataclass(frozen=True, slots=True)
class ToolSearchPlan:
    """Why tool search is on, and the setting the tool loop gets."""

    search: ToolSearch
    tools: int
    tool_tokens: int
    context_tokens: int

    @property
    def notice(self) -> str:
        """The one line the chat shows."""
        return (
            f"Tool search is on: the {self.tools} tools would take about "
            f"{self.tool_tokens:,} of the model's {self.context_tokens:,} tokens, so each "
            f"request is offered the few that match it best (at most {MAX_TOOLS})."
        )


def plan_tool_search(
    model: ChatModel, tools: Sequence[ToolCallback], *, system_prompt: str
) -> ToolSearchPlan | None:
    """Tool search for ``model`` when ``tools`` would not fit its context, else ``None``.

    Only a model that states its context (``n_ctx``, as the embedded model
    does) is judged: a server model's context is many times larger than any
    tool set support-bot meets.
    """
    context = getattr(model, "n_ctx", None)
    if isinstance(context, bool) or not isinstance(context, int):
        return None
    tool_tokens = sum(estimated_tool_tokens(t.tool_definition) for t in tools)
    system_tokens = math.ceil(len(system_prompt) / 3.5)
    if system_tokens + tool_tokens + HISTORY_RESERVE_TOKENS <= context:
        return None
    require_extra("search", "Tool search over the --mcp tools")
    budget = min(TOOL_BUDGET_TOKENS, max(context - system_tokens - HISTORY_RESERVE_TOKENS, 1))
    search = ToolSearch(
        mode="retrieve",
        max_tools=MAX_TOOLS,
        max_tool_tokens=budget,
        min_score_ratio=MIN_SCORE_RATIO,
    )
    return ToolSearchPlan(search, len(tools), tool_tokens, context)
