"""One prepared request: its prompt, tools and advisor chain, ready to run.

The request spec is a mutable builder; ``call()``/``stream()`` freeze it into
a ``PreparedRequest``, so changing the spec afterwards does not change a
response already handed out. Everything that may fail because of what was
configured (duplicate tool names, two tool loops) fails here, when the
request runs, with an error that names the problem.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from springtail.client._advisor import (
    TOOL_CALLING_AUTO_REGISTER,
    ChatClientRequest,
    ChatClientResponse,
)
from springtail.client._chain import CallChain, StreamChain
from springtail.client._paused_turns import DECISIONS_KEY, RESUME_KEY, STORE_KEY
from springtail.client._tool_calling import ToolCallingAdvisor
from springtail.client._tools import ResolvedTools, check_unique
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Message,
    Prompt,
    SystemMessage,
    UserMessage,
)
from springtail.models._base import ChatModel

if TYPE_CHECKING:
    from springtail.execution import ToolCallDecision
    from springtail.memory import PausedTurn
    from springtail.tools import ToolCallback

__all__ = ["PreparedRequest", "default_tool_calling_advisor"]

_default_advisor: ToolCallingAdvisor | None = None


def default_tool_calling_advisor() -> ToolCallingAdvisor:
    """The advisor added when a request has tools and no loop of its own.

    One instance is shared by every client: it holds no per-request state,
    and sharing it shares the manager's worker pool instead of starting one
    per client.
    """
    global _default_advisor
    advisor = _default_advisor
    if advisor is None:
        advisor = _default_advisor = ToolCallingAdvisor()
    return advisor


def _order(advisor: Any) -> int:
    return int(advisor.order)


@dataclass(frozen=True, slots=True)
class PreparedRequest:
    """Everything one request needs, frozen; run it with ``call`` or ``stream``."""

    model: ChatModel
    messages: tuple[Message, ...]
    options: ChatOptions | None
    tools: tuple[ResolvedTools, ...]
    tool_context: Mapping[str, Any]
    advisors: tuple[Any, ...]
    params: Mapping[str, Any]
    auto_register: bool
    ready_options: ChatOptions | None = None
    """The final options when the request adds nothing to the client's (built once)."""
    decisions: Mapping[str, ToolCallDecision] | None = None
    """Decisions on a paused turn's calls: this request resumes that turn."""
    resume: PausedTurn | None = None
    """The paused turn to resume, given as a value (``spec.resume(turn)``)."""

    def _callbacks(self) -> list[ToolCallback]:
        callbacks: list[ToolCallback] = []
        for tools in self.tools:
            if tools:
                callbacks.extend(tools.callbacks())
        if self.options is not None and self.options.tool_callbacks:
            callbacks.extend(self.options.tool_callbacks)
        check_unique(callbacks)
        return callbacks

    def final_options(self) -> ChatOptions:
        """The options the model gets: tools and tool context folded in."""
        callbacks = self._callbacks()
        options = self.options if self.options is not None else ChatOptions()
        changes: dict[str, Any] = {}
        if callbacks:
            changes["tool_callbacks"] = tuple(callbacks)
        if self.tool_context:
            changes["tool_context"] = {**options.tool_context, **self.tool_context}
        if changes:
            options = options.copy_with(**changes)
        return options

    def _start(self, extra: Mapping[str, Any] | None) -> tuple[ChatClientRequest, list[Any]]:
        options = self.ready_options
        if options is None:
            options = self.final_options()
        callbacks = options.tool_callbacks

        advisors = list(self.advisors)
        loops = sum(isinstance(a, ToolCallingAdvisor) for a in advisors)
        if loops > 1:
            raise ValueError(
                f"{loops} ToolCallingAdvisors are in this request's chain, but only one tool "
                "loop can run; keep one (client defaults and request advisors add up)."
            )
        if (
            loops == 0
            and (callbacks or options.tool_names)
            and self.auto_register
            and self.params.get(TOOL_CALLING_AUTO_REGISTER, True) is not False
        ):
            advisors.append(default_tool_calling_advisor())
        advisors.sort(key=_order)
        context = dict(self.params)
        if extra:
            context.update(extra)
        if self.decisions is not None or self.resume is not None:
            if not any(isinstance(a, ToolCallingAdvisor) for a in advisors):
                raise ValueError(
                    "Resuming a paused turn needs the tool loop, but this request's chain has "
                    "no ToolCallingAdvisor (tool_calling_auto_register is off, or it offers no "
                    "tools); offer the same tools as the request that paused."
                )
            if self.decisions is not None:
                context[DECISIONS_KEY] = self.decisions
            if self.resume is not None:
                context[RESUME_KEY] = self.resume
        for advisor in advisors:
            # The conversation's chat memory keeps its paused turn; the loop finds it here.
            find = getattr(advisor, "paused_turn_store", None)
            if find is not None and (store := find(context)) is not None:
                context[STORE_KEY] = store
                break
        return ChatClientRequest(Prompt(self.messages, options), context), advisors

    async def call(self, extra: Mapping[str, Any] | None = None) -> ChatClientResponse:
        """Run the request through the call chain."""
        request, advisors = self._start(extra)
        chain = CallChain(
            [a for a in advisors if hasattr(a, "advise_call")],
            self.model,
        )
        return await chain.next_call(request)

    async def stream(
        self, extra: Mapping[str, Any] | None = None
    ) -> AsyncIterator[ChatClientResponse]:
        """Run the request through the stream chain, chunk by chunk."""
        request, advisors = self._start(extra)
        chain = StreamChain(
            [a for a in advisors if hasattr(a, "advise_stream")],
            self.model,
        )
        async for response in chain.next_stream(request):
            yield response

    async def reask(self, answer: str, feedback: str, schema: Mapping[str, Any]) -> str:
        """Ask the model once more for a valid structured answer; return its text.

        A direct model call, past the advisors and without tools: the model
        only has to rewrite its answer, and memory keeps the request's first
        answer rather than this correction exchange.
        """
        options = self.options if self.options is not None else ChatOptions()
        options = options.copy_with(tool_callbacks=(), tool_names=(), response_schema=schema)
        messages = (*self.messages, AssistantMessage(answer), UserMessage(feedback))
        response = await self.model.acall(Prompt(messages, options))
        return response.text


def build_messages(
    system: str | None,
    messages: Sequence[Message],
    user: str | None,
) -> tuple[Message, ...]:
    """System first, then the given messages, then the user's text."""
    result: list[Message] = []
    if system:
        result.append(SystemMessage(system))
    result.extend(messages)
    if user:
        result.append(UserMessage(user))
    return tuple(result)
