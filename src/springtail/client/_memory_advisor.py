"""MessageChatMemoryAdvisor: give each request its conversation's history, and extend it.

Placed outside the tool loop (the default order) it sees one request and the
final answer, and remembers the user's message and that answer. Placed inside
the loop it runs on every iteration and also remembers each assistant tool
call together with its tool responses.

Two rules keep the remembered history valid for every provider:

* an assistant message that calls tools is saved only together with the tool
  responses that answer it (when the next iteration brings them), so the
  memory never holds a tool call without its answer;
* a message is saved once per request, however many iterations see it: the
  advisor notes what it saved in the request context, which every iteration
  of one request shares.

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
from springtail.memory import ChatMemory
from springtail.messages import AssistantMessage, ChatResponse, Message, SystemMessage

__all__ = ["MessageChatMemoryAdvisor"]

_STATE_KEY: Final[str] = "springtail.memory_advisor.state"
T = TypeVar("T")


class _State:
    """What this request already saved to one conversation."""

    __slots__ = ("keep", "pending", "saved")

    def __init__(self) -> None:
        self.saved: set[int] = set()
        # Holding the saved messages keeps their ids from being reused by new objects.
        self.keep: list[Message] = []
        self.pending: AssistantMessage | None = None

    def mark(self, messages: list[Message]) -> None:
        self.saved.update(id(m) for m in messages)
        self.keep.extend(messages)


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

    def _before(self, request: ChatClientRequest) -> tuple[ChatClientRequest, str, _State]:
        context = request.context
        conversation_id = self._conversation(context)
        states: dict[str, _State] = context.setdefault(_STATE_KEY, {})
        state = states.get(conversation_id)
        if state is None:
            state = states[conversation_id] = _State()

        systems: list[Message] = []
        new: list[Message] = []
        saved = state.saved
        pending = state.pending
        for message in request.prompt.messages:
            kind = type(message)
            if kind is SystemMessage:
                systems.append(message)
            elif id(message) in saved:
                continue
            elif pending is not None and (
                message is pending or (kind is AssistantMessage and message == pending)
            ):
                continue  # re-added below, in front of its responses
            else:
                new.append(message)
        if pending is not None:
            # Its tool responses arrived: remember the call and its answers together.
            new.insert(0, pending)
            state.pending = None

        history = self._memory.get(conversation_id)
        messages: list[Message] = systems
        if systems:
            messages.extend(m for m in history if not isinstance(m, SystemMessage))
        else:
            messages.extend(history)
        messages.extend(new)
        if new:
            self._memory.add(conversation_id, new)
            state.mark(new)
        return request.with_prompt(request.prompt.with_messages(messages)), conversation_id, state

    def _after(self, response: ChatResponse, conversation_id: str, state: _State) -> None:
        generation = response.result
        if generation is None:
            return
        output = generation.output
        if output.tool_calls:
            state.pending = output
        elif output.text:
            self._memory.add(conversation_id, [output])
            state.mark([output])

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        """Add the history, pass the request on, remember the exchange."""
        advised, conversation_id, state = await _off_the_loop(self._before, request)
        response = await chain.next_call(advised)
        await _off_the_loop(self._after, response.chat_response, conversation_id, state)
        return response

    async def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]:
        """Add the history, stream the answer through, remember it once it is complete."""
        advised, conversation_id, state = await _off_the_loop(self._before, request)
        aggregator = StreamAggregator()
        async for response in chain.next_stream(advised):
            aggregator.add(response.chat_response)
            yield response
        await _off_the_loop(self._after, aggregator.response(), conversation_id, state)


async def _off_the_loop(function: Callable[..., T], *args: Any) -> T:
    """Run memory I/O where it cannot stall other work on an application's event loop."""
    if on_private_loop():
        return function(*args)
    return await asyncio.to_thread(function, *args)
