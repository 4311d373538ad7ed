"""The advisor extension point: what an advisor sees and how it passes a request on.

An advisor wraps the model call the way middleware wraps a web handler: it
may change the request on the way in, the response on the way out, or call
the rest of the chain several times (which is how the tool loop works).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

from springtail.messages import ChatResponse, Message, Prompt

if TYPE_CHECKING:
    from springtail.client._events import ToolEvent

__all__ = [
    "HIGHEST_PRECEDENCE",
    "LOWEST_PRECEDENCE",
    "TOOL_CALLING_AUTO_REGISTER",
    "CallAdvisor",
    "CallAdvisorChain",
    "ChatClientRequest",
    "ChatClientResponse",
    "StreamAdvisor",
    "StreamAdvisorChain",
]

HIGHEST_PRECEDENCE: Final[int] = -(2**31)
"""The smallest order: an advisor with it runs first (outermost)."""

LOWEST_PRECEDENCE: Final[int] = 2**31 - 1
"""The largest order: an advisor with it runs last, right before the model."""

TOOL_CALLING_AUTO_REGISTER: Final[str] = "springtail.tool_calling_auto_register"
"""Advisor param: ``False`` keeps the client from adding a ToolCallingAdvisor."""


@dataclass(frozen=True, slots=True)
class ChatClientRequest:
    """One request travelling down the advisor chain.

    ``context`` is shared by every advisor of one request, and by every
    iteration of the tool loop, so advisors can leave notes for each other
    (the advisor params set with ``advisor_param`` start it).

    ``loop_messages`` are the messages the tool loop added for this model
    call: the assistant message that asked for tools and the tool responses
    that answer it. They are empty on a turn's first model call. An advisor
    inside the loop (a memory advisor) takes each iteration's new messages
    from here, once, instead of comparing prompts.
    """

    prompt: Prompt
    context: dict[str, Any] = field(default_factory=dict)
    loop_messages: tuple[Message, ...] = ()

    def with_prompt(self, prompt: Prompt) -> ChatClientRequest:
        """The same request (same context, same loop messages) around another prompt."""
        return ChatClientRequest(prompt, self.context, self.loop_messages)


@dataclass(frozen=True, slots=True)
class ChatClientResponse:
    """What comes back up the chain: the model's response plus the shared context.

    In a stream, the tool loop also sends a response per tool event (a call
    started, was approved or denied, finished): its ``chat_response`` is
    empty and ``event`` holds the event. Advisors pass such responses on
    unchanged; ``StreamResponse.events()`` reports them.
    """

    chat_response: ChatResponse
    context: dict[str, Any] = field(default_factory=dict)
    event: ToolEvent | None = None

    def with_chat_response(self, chat_response: ChatResponse) -> ChatClientResponse:
        """The same context (and event) around another response."""
        return ChatClientResponse(chat_response, self.context, self.event)


class CallAdvisorChain(Protocol):
    """The rest of the chain, as seen by a [`CallAdvisor`][]."""

    async def next_call(self, request: ChatClientRequest) -> ChatClientResponse:
        """Run the advisors after this one, then the model; may be called repeatedly."""
        ...


class StreamAdvisorChain(Protocol):
    """The rest of the chain, as seen by a [`StreamAdvisor`][]."""

    def next_stream(self, request: ChatClientRequest) -> AsyncIterator[ChatClientResponse]:
        """Stream from the advisors after this one, then the model; may be called repeatedly."""
        ...


@runtime_checkable
class CallAdvisor(Protocol):
    """Wraps non-streaming calls.

    ``order`` places the advisor: smaller runs earlier (outer). Call
    ``await chain.next_call(request)`` to pass the request on.
    """

    @property
    def name(self) -> str: ...

    @property
    def order(self) -> int: ...

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse: ...


@runtime_checkable
class StreamAdvisor(Protocol):
    """Wraps streaming calls.

    ``advise_stream`` is an async generator: pass the request on with
    ``async for response in chain.next_stream(request)`` and yield what the
    caller should receive.
    """

    @property
    def name(self) -> str: ...

    @property
    def order(self) -> int: ...

    def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]: ...
