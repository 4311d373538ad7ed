"""Step 3: a return-direct tool reading the tool context.

``session_summary`` gets the user name and conversation id from the
request's ToolContext (the model never sees them) and is return-direct: its
text is the answer, and the model is not called a second time.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail import ChatClient, Message, ToolCallback, ToolCallingAdvisor
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, make_manager
from support_bot.steps._turns import Transcript, call_turn
from support_bot.tools import session_summary

__all__ = ["Step3"]


class Step3:
    """Return-direct ``session_summary`` with a tool context."""

    name = "step3"

    def __init__(self, env: StepEnv) -> None:
        self._env = env
        self._tools: list[ToolCallback] = [session_summary(return_direct=True)]
        manager = make_manager(env, report_tools=True)
        self._client = ChatClient(
            env.model,
            system=SYSTEM_PROMPT + " When asked for a summary or recap, call session_summary.",
            tools=self._tools,
            advisors=[ToolCallingAdvisor(tool_calling_manager=manager)],
        )
        self._transcript = Transcript()
        self._conversation_id = env.conversation_id

    @property
    def tools(self) -> Sequence[ToolCallback]:
        """Only the session summary."""
        return self._tools

    @property
    def intro(self) -> Sequence[str]:
        """What the step shows."""
        return [
            "Step 3 - return-direct session_summary reading the tool context "
            f"(user {self._env.user_name}, conversation {self._conversation_id}).",
            "Try: summarize this session about stock questions",
        ]

    @property
    def conversation_id(self) -> str:
        """Handed to the tool through the tool context."""
        return self._conversation_id

    def ask(self, text: str) -> str:
        """The tool context travels with the request."""
        spec = self._client.prompt(text).tool_context(
            {"user_name": self._env.user_name, "conversation_id": self._conversation_id}
        )
        answer = call_turn(spec, self._env.reporter)
        self._transcript.add(text, answer)
        return answer

    def history(self) -> list[Message]:
        """This session's exchanges."""
        return list(self._transcript.messages)

    def new_conversation(self, conversation_id: str) -> None:
        """Start over under a new id."""
        self._conversation_id = conversation_id
        self._transcript.clear()
