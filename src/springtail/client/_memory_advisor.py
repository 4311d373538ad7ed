"""MessageChatMemoryAdvisor: give each request its conversation's history, and extend it.

Placed outside the tool loop (the default order) it sees one request and the
final answer, and remembers the user's message and that answer. Placed inside
the loop it runs on every iteration and also remembers each assistant tool
call together with its tool responses.

The history is read once per request. Inside the loop, each later
iteration's new messages come from the tool loop itself
(``ChatClientRequest.loop_messages``: the assistant's tool call together
with its responses), so each message is saved exactly once, in the order
the conversation had it, and the memory never holds a tool call without its
answer. The prompt built for the previous iteration is kept in the request
context (which every iteration shares) and extended by those messages.

Reading and saving the history is blocking I/O for the SQLite and PostgreSQL
repositories (a locked SQLite file waits up to its busy timeout), so on an
application's event loop it runs in a worker thread and the loop keeps
serving other requests. The sync API's private loop serves only the one call
that started it, and there it runs inline.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, TypeVar

from springtail._sync import on_private_loop
from springtail.client._advisor import (
    HIGHEST_PRECEDENCE,
    CallAdvisorChain,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisorChain,
)
from springtail.client._aggregate import StreamAggregator
from springtail.client._events import ToolCallStarted
from springtail.client._tool_calling import (
    LIMIT_EXCEEDED_FINISH_REASON,
    MODEL_CALL_LIMIT_FINISH_REASON,
)
from springtail.memory import ChatMemory
from springtail.messages import ChatResponse, Message, SystemMessage

__all__ = ["MessageChatMemoryAdvisor"]

_STATE_KEY: Final[str] = "springtail.memory_advisor.state"
T = TypeVar("T")


class _State:
    """The prompt messages this advisor sent for the request's latest model call."""

    __slots__ = ("first", "sent")

    def __init__(self, first: list[Message], sent: list[Message]) -> None:
        self.first = first
        self.sent = sent


class MessageChatMemoryAdvisor:
    """Loads a conversation's history before the call and saves the new exchange after.

    Args:
        chat_memory: Where conversations are kept, e.g. ``MessageWindowChatMemory()``.
        conversation_id: The conversation used when the request does not name
            one with ``.advisor_param(ChatMemory.CONVERSATION_ID, id)``.
        order: Where the advisor sits; the default puts it outside the tool
            loop (``HIGHEST_PRECEDENCE + 200``).

    The system message of the request comes first; without one, the
    conversation's remembered system message is used. System messages are
    never saved by this advisor.
    """

    __slots__ = ("_conversation_id", "_memory", "_order")

    def __init__(
        self,
        chat_memory: ChatMemory,
        conversation_id: str = "default",
        order: int = HIGHEST_PRECEDENCE + 200,
    ) -> None:
        if not conversation_id:
            raise ValueError("conversation_id must not be empty")
        self._memory = chat_memory
        self._conversation_id = conversation_id
        self._order = order

    @property
    def name(self) -> str:
        """The advisor's name, for logs."""
        return "MessageChatMemoryAdvisor"

    @property
    def order(self) -> int:
        """Where the advisor sits in the chain (smaller = outer)."""
        return self._order

    @property
    def chat_memory(self) -> ChatMemory:
        """The memory this advisor reads and writes."""
        return self._memory

    def __repr__(self) -> str:
        return (
            f"MessageChatMemoryAdvisor(conversation_id={self._conversation_id!r}, "
            f"order={self._order})"
        )

    def _conversation(self, context: dict[str, Any]) -> str:
        value = context.get(ChatMemory.CONVERSATION_ID)
        return str(value) if value else self._conversation_id

    def _before(self, request: ChatClientRequest) -> tuple[ChatClientRequest, str]:
        context = request.context
        conversation_id = self._conversation(context)
        states: dict[str, _State] = context.setdefault(_STATE_KEY, {})
        state = states.get(conversation_id)
        added = request.loop_messages
        if state is not None:
            if added:
                # A later iteration of the tool loop: save what it added, once.
                self._memory.add(conversation_id, list(added))
                messages = state.sent + list(added)
                state.sent = messages
            else:
                # The request's first call again (an outer advisor retried it).
                messages = list(state.first)
                state.sent = messages
            return request.with_prompt(request.prompt.with_messages(messages)), conversation_id

        systems: list[Message] = []
        new: list[Message] = []
        for message in request.prompt.messages:
            (systems if type(message) is SystemMessage else new).append(message)
        new.extend(added)
        history = self._memory.get(conversation_id)
        messages = systems
        if systems:
            messages.extend(m for m in history if not isinstance(m, SystemMessage))
        else:
            messages.extend(history)
        messages.extend(new)
        if new:
            self._memory.add(conversation_id, new)
        states[conversation_id] = _State(messages, messages)
        return request.with_prompt(request.prompt.with_messages(messages)), conversation_id

    def _after(self, response: ChatResponse, conversation_id: str) -> None:
        generation = response.result
        if generation is None:
            return
        output = generation.output
        if output.text and not output.tool_calls:
            # A tool call is saved by the next iteration, together with its answers.
            self._memory.add(conversation_id, [output])

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        """Add the history, pass the request on, remember the exchange."""
        advised, conversation_id = await _off_the_loop(self._before, request)
        response = await chain.next_call(advised)
        await _off_the_loop(self._after, response.chat_response, conversation_id)
        return response

    async def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]:
        """Add the history, stream the answer through, remember it once it is complete."""
        advised, conversation_id = await _off_the_loop(self._before, request)
        aggregator = StreamAggregator()
        async for response in chain.next_stream(advised):
            if response.event is None:
                aggregator.add(response.chat_response)
            elif isinstance(response.event, ToolCallStarted):
                # Text streamed so far belonged to a response that called tools,
                # not to the answer (outside the loop only the answer is saved).
                aggregator = StreamAggregator()
            if response.event is None and _ends_the_loop(response.chat_response):
                # The loop's own final answer (a limit was reached): it replaces
                # whatever the refused response streamed before.
                aggregator = StreamAggregator()
                aggregator.add(response.chat_response)
            yield response
        await _off_the_loop(self._after, aggregator.response(), conversation_id)


_LOOP_ENDINGS = frozenset({LIMIT_EXCEEDED_FINISH_REASON, MODEL_CALL_LIMIT_FINISH_REASON})


def _ends_the_loop(chunk: ChatResponse) -> bool:
    """Whether ``chunk`` is an answer the tool loop wrote itself because a limit was reached."""
    result = chunk.result
    return result is not None and result.metadata.finish_reason in _LOOP_ENDINGS


async def _off_the_loop(function: Callable[..., T], *args: Any) -> T:
    """Run memory I/O where it cannot stall other work on an application's event loop."""
    if on_private_loop():
        return function(*args)
    return await asyncio.to_thread(function, *args)
