"""Step 2: function tools with typed inputs.

``discount_calculator`` takes a ``DiscountRequest``; ``customer_contact_lookup``
takes a ``CustomerContactRequest`` and masks e-mail addresses with its result
converter. Both are ``FunctionToolCallback``s given per request.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail import ChatClient, ToolCallingAdvisor
from springtail.client import ChatClientRequestSpec
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, make_manager
from support_bot.steps._stateless import StatelessStep
from support_bot.tools import function_tools

__all__ = ["Step2"]


class Step2(StatelessStep):
    """Function tools passed with each request."""

    name = "step2"

    def __init__(self, env: StepEnv) -> None:
        manager = make_manager(env, report_tools=True)
        client = ChatClient(
            env.model,
            system=SYSTEM_PROMPT,
            advisors=[ToolCallingAdvisor(tool_calling_manager=manager)],
        )
        super().__init__(env, function_tools(env.store), client)

    @property
    def intro(self) -> Sequence[str]:
        """What the step shows."""
        return [
            "Step 2 - function tools with typed inputs (DiscountRequest, CustomerContactRequest);",
            "customer e-mail addresses are masked by a result converter.",
        ]

    def _request(self, text: str) -> ChatClientRequestSpec:
        """The tools go with the request, not the client."""
        return self._client.prompt(text).tools(*self._tools)
