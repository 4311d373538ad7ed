"""Step 1: method tools as default tools, run by a ToolCallingAdvisor.

The date/time and calculator tools are ``@tool`` methods (plus one
hand-written ``MethodToolCallback``) registered once as the client's default
tools; the ToolCallingAdvisor, added explicitly here, runs the loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail import ChatClient, ToolCallingAdvisor
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, make_manager
from support_bot.steps._stateless import StatelessStep
from support_bot.tools import method_tools

__all__ = ["Step1"]


class Step1(StatelessStep):
    """Method tools + ToolCallingAdvisor; one answer per request, no memory."""

    name = "step1"

    def __init__(self, env: StepEnv) -> None:
        tools = method_tools()
        manager = make_manager(env, report_tools=True)
        client = ChatClient(
            env.model,
            system=SYSTEM_PROMPT,
            tools=tools,
            advisors=[ToolCallingAdvisor(tool_calling_manager=manager)],
        )
        super().__init__(env, tools, client)

    @property
    def intro(self) -> Sequence[str]:
        """Names the tools, as the book's step 1 does at start-up."""
        names = ", ".join(t.tool_definition.name for t in self._tools)
        return [
            "Step 1 - method tools as default tools, run by a ToolCallingAdvisor.",
            f"Tools: {names}",
        ]
