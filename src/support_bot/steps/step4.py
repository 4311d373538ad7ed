"""Step 4: the user-controlled loop, ChatModel and ToolCallingManager by hand.

No ChatClient and no ToolCallingAdvisor: this program calls the model, hands
the tool calls to the manager, and calls the model again with the result,
for at most ``MAX_ROUNDS`` rounds. Because the loop is ours, so are the
policies: a friendly exception processor words tool failures for the model,
and ``product_reserve`` runs only after the user approves it.

The approval is springtail's deferred-approval shape, written out: the
manager defers ``product_reserve`` (the reply's other calls run), the result
lists it in ``pending_approvals``, this code asks the user, and the same
``execute_tool_calls`` resumes the reply with the decisions and the answers
already known (``results=``), which do not run again (docs/approvals.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Message,
    Prompt,
    SystemMessage,
    ToolCallback,
    ToolExecutionError,
    ToolExecutionResult,
    UnknownToolError,
    UserMessage,
)
from support_bot._store import StoreError
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, ask_decisions, make_manager
from support_bot.tools import all_tools

__all__ = ["MAX_ROUNDS", "Step4", "friendly_exception_processor"]

MAX_ROUNDS = 3
"""Tool rounds per request before the loop gives up and says so."""


def friendly_exception_processor(error: ToolExecutionError) -> str:
    """Word a tool failure so a small model relays it instead of retrying blindly.

    Store failures are not the model's to handle: they are raised to the UI.
    """
    if isinstance(error.cause, StoreError):
        raise error.cause
    if isinstance(error, UnknownToolError):
        return f"{error} Pick one of those tools, or answer without a tool."
    name = error.tool_definition.name if error.tool_definition else "the tool"
    reason = str(error).strip() or type(error.cause).__name__
    return (
        f"{name} could not finish: {reason} "
        "Tell the user in plain words what went wrong and what they can do; "
        "do not repeat the same call."
    )


class Step4:
    """ChatModel + ToolCallingManager in a loop this code controls."""

    name = "step4"

    def __init__(self, env: StepEnv) -> None:
        self._env = env
        self._tools = [*all_tools(env.store), *env.extra_tools]
        self._manager = make_manager(
            env, report_tools=True, exception_processor=friendly_exception_processor, defer=True
        )
        self._conversation_id = env.conversation_id
        self._messages: list[Message] = []

    @property
    def tools(self) -> Sequence[ToolCallback]:
        """All thirteen tools."""
        return self._tools

    @property
    def intro(self) -> Sequence[str]:
        """What the step shows."""
        return [
            f"Step 4 - user-controlled loop: ChatModel + ToolCallingManager, at most {MAX_ROUNDS} "
            "tool rounds, a friendly exception processor, product_reserve deferred for your "
            "approval and the reply resumed with it.",
        ]

    @property
    def conversation_id(self) -> str:
        """Display only; the history lives in this object."""
        return self._conversation_id

    def _options(self) -> ChatOptions:
        return ChatOptions(
            tool_callbacks=tuple(self._tools),
            tool_context={
                "user_name": self._env.user_name,
                "conversation_id": self._conversation_id,
            },
        )

    def ask(self, text: str) -> str:
        """Call, execute, re-call: the loop, written out."""
        reporter = self._env.reporter
        options = self._options()
        prompt = Prompt([SystemMessage(SYSTEM_PROMPT), *self._messages, UserMessage(text)], options)
        reporter.thinking()
        response: ChatResponse = self._env.model.call(prompt)
        rounds = 0
        answer: str | None = None
        while response.has_tool_calls():
            if rounds == MAX_ROUNDS:
                answer = (
                    f"I stopped after {MAX_ROUNDS} rounds of tool calls without a final answer. "
                    "Please split the request into smaller steps."
                )
                break
            rounds += 1
            result = self._manager.execute_tool_calls(prompt, response)
            if result.pending_approvals:  # paused: ask, then resume the same reply
                decisions = ask_decisions(reporter, result.pending_approvals)
                result = self._manager.execute_tool_calls(
                    prompt, response, decisions=decisions, results=result.answered
                )
            prompt = Prompt(result.conversation_history, options)
            if result.return_direct:
                answer = "\n".join(
                    g.output.text for g in ToolExecutionResult.build_generations(result)
                )
                break
            reporter.thinking()
            response = self._env.model.call(prompt)
        if answer is None:
            answer = response.text
        reporter.text(answer)
        kept = [m for m in prompt.messages if not isinstance(m, SystemMessage)]
        self._messages = [*kept, AssistantMessage(answer)]
        return answer

    def history(self) -> list[Message]:
        """Everything sent so far, tool calls and results included."""
        return list(self._messages)

    def new_conversation(self, conversation_id: str) -> None:
        """Start over."""
        self._conversation_id = conversation_id
        self._messages = []
