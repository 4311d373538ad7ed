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

The advisor also keeps the conversation's paused turn (one that waits for a
person's decision): the tool loop finds the memory through
``MessageChatMemoryAdvisor.paused_turn_store``, stores the turn there
when it pauses and takes it back when a request brings the decisions. A
new message on a conversation that waits is refused
(``ApprovalPendingError``) before anything is
saved; once every waiting call's deadline has passed, the calls count as
denied, and the turn is closed with those denials before the message goes on.

Reading and saving the history is blocking I/O for the SQLite and PostgreSQL
repositories (a locked SQLite file waits up to its busy timeout), so on an
application's event loop it runs in a worker thread and the loop keeps
serving other requests. The sync API's private loop serves only the one call
that started it, and there it runs inline.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any, Final, cast

from springtail.client._advisor import (
    HIGHEST_PRECEDENCE,
    CallAdvisorChain,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisorChain,
)
from springtail.client._aggregate import StreamAggregator
from springtail.client._events import ToolCallStarted
from springtail.client._paused_turns import (
    DECISIONS_KEY,
    RESUME_KEY,
    PausedTurnStore,
    off_the_loop,
)
from springtail.client._tool_calling import (
    APPROVAL_REQUIRED_FINISH_REASON,
    LIMIT_EXCEEDED_FINISH_REASON,
    MODEL_CALL_LIMIT_FINISH_REASON,
)
from springtail.memory import ChatMemory, PausedTurnMemory
from springtail.messages import ChatResponse, Message, SystemMessage

__all__ = ["MessageChatMemoryAdvisor"]

_STATE_KEY: Final[str] = "springtail.memory_advisor.state"


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

    __slots__ = ("_conversation_id", "_memory", "_order", "_pausable")

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
        self._pausable = isinstance(chat_memory, PausedTurnMemory)

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

    def paused_turn_store(self, context: dict[str, Any]) -> PausedTurnStore | None:
        """Where the request's paused turn is kept: this memory, the request's conversation.

        ``None`` when the memory cannot keep paused turns. The client asks
        every advisor of a request for one, before the chain runs, so the tool
        loop finds the memory wherever this advisor sits.
        """
        if not self._pausable:
            return None
        return PausedTurnStore(cast(PausedTurnMemory, self._memory), self._conversation(context))

    def _conversation(self, context: dict[str, Any]) -> str:
        value = context.get(ChatMemory.CONVERSATION_ID)
        return str(value) if value else self._conversation_id

    def _settle(self, conversation_id: str) -> list[Message]:
        """Refuse a new message while calls wait; close the turn whose approvals all expired.

        Returns the closed turn's reply and denials, to be saved before the
        new message (nothing when no turn waits).
        """
        from springtail.execution import ApprovalConflictError, ApprovalPendingError

        memory = cast(PausedTurnMemory, self._memory)
        paused = memory.paused_turn(conversation_id)
        if paused is None:
            return []
        now = datetime.now(UTC)
        waiting = paused.waiting(now)
        if waiting:
            raise ApprovalPendingError(conversation_id, waiting)
        try:
            closed = memory.take_paused_turn(conversation_id, {}, now=now)
        except ApprovalConflictError:
            return []  # another request closed it meanwhile
        return list(closed.denied_exchange())

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

        resuming = DECISIONS_KEY in context or RESUME_KEY in context
        new = self._settle(conversation_id) if self._pausable and not resuming else []
        systems: list[Message] = []
        for message in request.prompt.messages:
            if type(message) is SystemMessage:
                systems.append(message)
            elif not any(message is a for a in added):  # a resumed turn's call and answers
                new.append(message)
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
        advised, conversation_id = await off_the_loop(self._before, request)
        response = await chain.next_call(advised)
        await off_the_loop(self._after, response.chat_response, conversation_id)
        return response

    async def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]:
        """Add the history, stream the answer through, remember it once it is complete."""
        advised, conversation_id = await off_the_loop(self._before, request)
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
        await off_the_loop(self._after, aggregator.response(), conversation_id)


_LOOP_ENDINGS = frozenset(
    {LIMIT_EXCEEDED_FINISH_REASON, MODEL_CALL_LIMIT_FINISH_REASON, APPROVAL_REQUIRED_FINISH_REASON}
)


def _ends_the_loop(chunk: ChatResponse) -> bool:
    """Whether ``chunk`` is an answer the tool loop wrote itself (a limit, or a pause)."""
    result = chunk.result
    return result is not None and result.metadata.finish_reason in _LOOP_ENDINGS
