"""Step 3: a return-direct tool reading the tool context.

``session_summary`` gets the user name and conversation id from the
request's ToolContext (the model never sees them) and is return-direct: its
text is the answer, and the model is not called a second time.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail import ChatClient, ToolCallingAdvisor
from springtail.client import ChatClientRequestSpec
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, make_manager
from support_bot.steps._stateless import StatelessStep
from support_bot.tools import session_summary

__all__ = ["Step3"]


class Step3(StatelessStep):
    """Return-direct ``session_summary`` with a tool context."""

    name = "step3"

    def __init__(self, env: StepEnv) -> None:
        tools = [session_summary(return_direct=True)]
        manager = make_manager(env, report_tools=True)
        client = ChatClient(
            env.model,
            system=SYSTEM_PROMPT + " When asked for a summary or recap, call session_summary.",
            tools=tools,
            advisors=[ToolCallingAdvisor(tool_calling_manager=manager)],
        )
        super().__init__(env, tools, client)

    @property
    def intro(self) -> Sequence[str]:
        """What the step shows."""
        return [
            "Step 3 - return-direct session_summary reading the tool context "
            f"(user {self._env.user_name}, conversation {self._conversation_id}).",
            "Try: summarize this session about stock questions",
        ]

    def _request(self, text: str) -> ChatClientRequestSpec:
        """The tool context travels with the request."""
        return self._client.prompt(text).tool_context(self._tool_context())
