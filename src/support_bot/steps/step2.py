"""Step 2: function tools with typed inputs.

``discount_calculator`` takes a ``DiscountRequest``; ``customer_contact_lookup``
takes a ``CustomerContactRequest`` and masks e-mail addresses with its result
converter. Both are ``FunctionToolCallback``s given per request.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail import ChatClient, Message, ToolCallback, ToolCallingAdvisor
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, make_manager
from support_bot.steps._turns import Transcript, call_turn
from support_bot.tools import function_tools

__all__ = ["Step2"]


class Step2:
    """Function tools passed with each request."""

    name = "step2"

    def __init__(self, env: StepEnv) -> None:
        self._env = env
        self._tools = function_tools(env.store)
        manager = make_manager(env, report_tools=True)
        self._client = ChatClient(
            env.model,
            system=SYSTEM_PROMPT,
            advisors=[ToolCallingAdvisor(tool_calling_manager=manager)],
        )
        self._transcript = Transcript()
        self._conversation_id = env.conversation_id

    @property
    def tools(self) -> Sequence[ToolCallback]:
        """Discount and customer contact."""
        return self._tools

    @property
    def intro(self) -> Sequence[str]:
        """What the step shows."""
        return [
            "Step 2 - function tools with typed inputs (DiscountRequest, CustomerContactRequest);",
            "customer e-mail addresses are masked by a result converter.",
        ]

    @property
    def conversation_id(self) -> str:
        """Only used for display: this step has no memory."""
        return self._conversation_id

    def ask(self, text: str) -> str:
        """The tools go with the request, not the client."""
        answer = call_turn(self._client.prompt(text).tools(*self._tools), self._env.reporter)
        self._transcript.add(text, answer)
        return answer

    def history(self) -> list[Message]:
        """This session's exchanges."""
        return list(self._transcript.messages)

    def new_conversation(self, conversation_id: str) -> None:
        """Start over."""
        self._conversation_id = conversation_id
        self._transcript.clear()
