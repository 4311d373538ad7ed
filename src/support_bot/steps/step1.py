"""Step 1: method tools as default tools, run by a ToolCallingAdvisor.

The date/time and calculator tools are ``@tool`` methods (plus one
hand-written ``MethodToolCallback``) registered once as the client's default
tools; the ToolCallingAdvisor, added explicitly here, runs the loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail import ChatClient, Message, ToolCallback, ToolCallingAdvisor
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, make_manager
from support_bot.steps._turns import Transcript, call_turn
from support_bot.tools import method_tools

__all__ = ["Step1"]


class Step1:
    """Method tools + ToolCallingAdvisor; one answer per request, no memory."""

    name = "step1"

    def __init__(self, env: StepEnv) -> None:
        self._env = env
        self._tools = method_tools()
        manager = make_manager(env, report_tools=True)
        self._client = ChatClient(
            env.model,
            system=SYSTEM_PROMPT,
            tools=self._tools,
            advisors=[ToolCallingAdvisor(tool_calling_manager=manager)],
        )
        self._transcript = Transcript()
        self._conversation_id = env.conversation_id

    @property
    def tools(self) -> Sequence[ToolCallback]:
        """Date/time and calculator."""
        return self._tools

    @property
    def intro(self) -> Sequence[str]:
        """Names the tools, as the book's step 1 does at start-up."""
        names = ", ".join(t.tool_definition.name for t in self._tools)
        return [
            "Step 1 - method tools as default tools, run by a ToolCallingAdvisor.",
            f"Tools: {names}",
        ]

    @property
    def conversation_id(self) -> str:
        """Only used for display: this step has no memory."""
        return self._conversation_id

    def ask(self, text: str) -> str:
        """One request through the advisor chain."""
        answer = call_turn(self._client.prompt(text), self._env.reporter)
        self._transcript.add(text, answer)
        return answer

    def history(self) -> list[Message]:
        """This session's exchanges."""
        return list(self._transcript.messages)

    def new_conversation(self, conversation_id: str) -> None:
        """Start over."""
        self._conversation_id = conversation_id
        self._transcript.clear()
