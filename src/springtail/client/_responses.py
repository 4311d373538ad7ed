"""What ``call()`` and ``stream()`` hand back: lazy views of one request.

Like Spring AI's response specs, nothing runs until you ask for a result:
``call().entity(T)`` can then tell the model the JSON Schema it must answer
with, which it could not if the request had already run. A ``CallResponse``
runs its request once and keeps the result (``entity`` runs its own request,
because the request differs); each iteration of a ``StreamResponse`` view runs
the request afresh, as subscribing to a Spring ``Flux`` does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Generic, TypeVar

from springtail._sync import iterate_sync, run_sync
from springtail.client._advisor import ChatClientResponse
from springtail.client._chain import OUTPUT_FORMAT_KEY
from springtail.client._entity import format_instructions, parse_entity
from springtail.client._events import EventSink, StreamEvent, TextDelta, current_sink
from springtail.client._request import PreparedRequest
from springtail.messages import ChatResponse

__all__ = ["CallResponse", "StreamResponse", "SyncOrAsyncIterable"]

T = TypeVar("T")
E = TypeVar("E")


class CallResponse:
    """The outcome of one non-streaming request, computed on first use and then kept.

    Every accessor has an ``a``-prefixed async twin for code that runs on an
    event loop; the sync ones also work there (and in threads), they just
    block the caller until the answer is in.
    """

    __slots__ = ("_request", "_result")

    def __init__(self, request: PreparedRequest) -> None:
        self._request = request
        self._result: ChatClientResponse | None = None

    async def achat_client_response(self) -> ChatClientResponse:
        """The response with the advisors' shared context."""
        result = self._result
        if result is None:
            result = self._result = await self._request.call()
        return result

    def chat_client_response(self) -> ChatClientResponse:
        """The response with the advisors' shared context."""
        result = self._result
        if result is None:
            result = self._result = run_sync(self._request.call())
        return result

    async def achat_response(self) -> ChatResponse:
        """The final ``ChatResponse`` (usage summed over the tool loop)."""
        return (await self.achat_client_response()).chat_response

    def chat_response(self) -> ChatResponse:
        """The final ``ChatResponse`` (usage summed over the tool loop)."""
        return self.chat_client_response().chat_response

    async def acontent(self) -> str:
        """The text of the final answer ("" when the model gave none)."""
        return (await self.achat_client_response()).chat_response.text

    def content(self) -> str:
        """The text of the final answer ("" when the model gave none)."""
        return self.chat_client_response().chat_response.text

    async def aentity(self, target: type[T]) -> T:
        """Ask for an answer shaped like ``target`` and return it parsed and validated.

        The JSON Schema of ``target`` (a pydantic model, dataclass,
        TypedDict, ``list[...]``, ...) is added to the last user message when
        the model is called, so memory and logs keep what the user wrote.

        Raises:
            ValueError: the answer is not valid JSON of that shape.
        """
        response = await self._request.call({OUTPUT_FORMAT_KEY: format_instructions(target)})
        return parse_entity(response.chat_response.text, target)

    def entity(self, target: type[T]) -> T:
        """Ask for an answer shaped like ``target`` and return it parsed and validated.

        See :meth:`aentity`.
        """
        return run_sync(self.aentity(target))


class SyncOrAsyncIterable(Generic[E]):
    """Iterate with ``for`` in plain code or ``async for`` on an event loop.

    Each iteration runs the request again.
    """

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], AsyncIterator[E]]) -> None:
        self._make = make

    def __aiter__(self) -> AsyncIterator[E]:
        return self._make()

    def __iter__(self) -> Iterator[E]:
        return iterate_sync(self._make)


class StreamResponse:
    """Views of one streamed request: chunks, text deltas, or events with tool calls."""

    __slots__ = ("_request",)

    def __init__(self, request: PreparedRequest) -> None:
        self._request = request

    def chat_client_responses(self) -> SyncOrAsyncIterable[ChatClientResponse]:
        """Every chunk with the advisors' shared context."""
        return SyncOrAsyncIterable(lambda: self._request.stream())

    def chat_responses(self) -> SyncOrAsyncIterable[ChatResponse]:
        """Every chunk that reaches the caller, as a ``ChatResponse``."""
        return SyncOrAsyncIterable(self._chat_responses)

    def content(self) -> SyncOrAsyncIterable[str]:
        """The text deltas of the answer, as they arrive."""
        return SyncOrAsyncIterable(self._content)

    def events(self) -> SyncOrAsyncIterable[StreamEvent]:
        """Text deltas, and each tool call as it starts and finishes, in order."""
        return SyncOrAsyncIterable(self._events)

    async def _chat_responses(self) -> AsyncIterator[ChatResponse]:
        async for response in self._request.stream():
            yield response.chat_response

    async def _content(self) -> AsyncIterator[str]:
        async for response in self._request.stream():
            text = response.chat_response.text
            if text:
                yield text

    async def _events(self) -> AsyncIterator[StreamEvent]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Any] = asyncio.Queue()
        done = object()

        async def produce() -> None:
            current_sink().set(EventSink(loop, queue.put_nowait))
            try:
                async for response in self._request.stream():
                    text = response.chat_response.text
                    if text:
                        queue.put_nowait(TextDelta(text))
            except BaseException as error:
                queue.put_nowait(_Failure(error))
                raise
            finally:
                queue.put_nowait(done)

        task = loop.create_task(produce())
        try:
            while True:
                item = await queue.get()
                if item is done:
                    break
                if isinstance(item, _Failure):
                    raise item.error
                yield item
        finally:
            if not task.done():
                task.cancel()
            await asyncio.gather(task, return_exceptions=True)


class _Failure:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error
