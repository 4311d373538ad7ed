"""The final bot: every tool, chat memory inside the loop, streamed answers.

The conversation lives in the same database as the business data, so
``--conversation ID`` picks up where a previous run left off. The memory
advisor is ordered inside the ToolCallingAdvisor, so it remembers each tool
call with its results, not only the request and the answer. SUPPORT_BOT.md
puts it outside; inside is what keeps the embedded model calling tools in a
long conversation: shown a history of requests answered in prose, the 1.5B
model answered the next requests in prose too, from nothing, while a history
that shows the calls keeps it calling (docs/support-bot.md).

A reservation waits for the user's yes as a paused turn (springtail's
deferred approvals, docs/approvals.md): the step asks right away and resumes
the turn with the answer, and a question left unanswered (Ctrl-C, the
program killed) is stored with the conversation, so ``--conversation ID``
asks it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future

from springtail import (
    HIGHEST_PRECEDENCE,
    ChatClient,
    ChatMemory,
    ChatModel,
    ChatOptions,
    LlamaCppChatModel,
    Message,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    PausedTurn,
    ToolCallback,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolSearch,
)
from springtail.client import ChatClientRequestSpec
from springtail.messages import Prompt, SystemMessage
from support_bot.steps._answers import stream_answer
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, ask_decisions, make_manager
from support_bot.tools import all_tools

__all__ = ["MEMORY_ORDER", "MEMORY_WINDOW", "FinalStep", "final_client"]

MEMORY_ORDER = HIGHEST_PRECEDENCE + 400
"""Inside the tool loop (the ToolCallingAdvisor's default order is ``HIGHEST_PRECEDENCE + 300``)."""

MEMORY_WINDOW = 24
"""Messages of history sent with each request (small models need short prompts).

A turn with one tool call takes four messages (request, call, results, answer)."""


def final_client(
    model: ChatModel,
    *,
    tools: Sequence[ToolCallback],
    memory: ChatMemory,
    manager: ToolCallingManager,
    conversation_id: str = "default",
    tool_search: ToolSearch | None = None,
) -> ChatClient:
    """The final bot's client: the terminal chat and ``support-bot serve`` both talk through it.

    The memory advisor sits inside the tool loop (``MEMORY_ORDER``); the
    conversation of a request is its ``ChatMemory.CONVERSATION_ID`` advisor
    parameter, else ``conversation_id``. ``tool_search`` narrows each request's
    tools when there are too many for the model.
    """
    return ChatClient(
        model,
        system=SYSTEM_PROMPT,
        tools=tools,
        advisors=[
            MessageChatMemoryAdvisor(memory, conversation_id=conversation_id, order=MEMORY_ORDER),
            ToolCallingAdvisor(tool_calling_manager=manager, tool_search=tool_search),
        ],
    )


class FinalStep:
    """All tools, persistent chat memory, streaming, a conversation id."""

    name = "final"

    def __init__(self, env: StepEnv) -> None:
        self._env = env
        self._tools = [*all_tools(env.store), *env.extra_tools]
        self._memory = MessageWindowChatMemory(
            repository=env.store.chat_memory_repository(), max_messages=MEMORY_WINDOW
        )
        # The stream reports tool calls; approvals wait as paused turns, asked by this step.
        manager = make_manager(env, report_tools=False, defer=True)
        self._client = final_client(
            env.model,
            tools=self._tools,
            memory=self._memory,
            manager=manager,
            conversation_id=env.conversation_id,
            tool_search=env.tool_search,
        )
        self._conversation_id = env.conversation_id

    @property
    def tools(self) -> Sequence[ToolCallback]:
        """All thirteen tools."""
        return self._tools

    @property
    def intro(self) -> Sequence[str]:
        """The conversation id, and how to come back to it."""
        return [
            f"Conversation {self._conversation_id} "
            f"(resume it with --conversation {self._conversation_id}).",
        ]

    @property
    def conversation_id(self) -> str:
        """The memory's conversation id."""
        return self._conversation_id

    def ask(self, text: str) -> str:
        """One streamed request in this conversation (after any decision it still waits for)."""
        self.resume_pending()
        answer, paused = stream_answer(self._spec(self._client.prompt(text)), self._env.reporter)
        return answer + self._decide(paused)

    def resume_pending(self) -> str | None:
        """Ask again for the decisions the conversation waits for, and finish that turn.

        Returns the resumed turn's answer, or ``None`` when nothing waits.
        """
        paused = self._memory.paused_turn(self._conversation_id)
        if paused is None or not paused.waiting():
            return None  # (a turn whose approvals all expired is closed by the next message)
        return self._decide(paused)

    def _decide(self, paused: PausedTurn | None) -> str:
        answers: list[str] = []
        while paused is not None:  # a resumed turn may ask again
            decisions = ask_decisions(self._env.reporter, paused.waiting())
            spec = self._spec(self._client.prompt().decide(decisions))
            answer, paused = stream_answer(spec, self._env.reporter)
            answers.append(answer)
        return "".join(answers)

    def _spec(self, spec: ChatClientRequestSpec) -> ChatClientRequestSpec:
        return spec.advisor_param(ChatMemory.CONVERSATION_ID, self._conversation_id).tool_context(
            {"user_name": self._env.user_name, "conversation_id": self._conversation_id}
        )

    def history(self) -> list[Message]:
        """The stored conversation (the memory window)."""
        return self._memory.get(self._conversation_id)

    def warm_up(self) -> Future[int] | None:
        """Start evaluating what the first request will begin with, while the user types.

        The embedded model keeps an evaluated prompt in its KV cache: evaluating
        the system prompt, the tool definitions and the stored conversation
        (about 2,000 tokens, 20 s on 2 cores the first time) before the first
        request leaves that request only its own words to evaluate. Server
        models have nothing to gain, so nothing happens for them (``None``).
        Cancelling the future stops the evaluation.
        """
        model = self._env.model
        if not isinstance(model, LlamaCppChatModel):
            return None
        tools = self._tools
        if self._env.tool_search is not None:  # each request gets its own few: warm the rest
            always_on = self._env.tool_search.always_on
            tools = [t for t in tools if t.tool_definition.name in always_on]
        options = ChatOptions(tool_callbacks=tuple(tools))
        return model.prepare(Prompt([SystemMessage(SYSTEM_PROMPT), *self.history()], options))

    def new_conversation(self, conversation_id: str) -> None:
        """Talk in another conversation; the old one stays stored."""
        self._conversation_id = conversation_id
