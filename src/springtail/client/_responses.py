"""What ``call()`` and ``stream()`` hand back.

``call()`` runs the request at once, like ``acall()``, and the
``CallResponse`` keeps the result: every accessor reads it, none runs
the request again. ``entity(T)`` parses the kept answer; when it does not
validate, the model is asked again, with the validation error, at most
``max_retries`` times. A ``StreamResponse`` runs its request when a
view of it is iterated, afresh for each iteration, as subscribing to a
Spring ``Flux`` does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import TYPE_CHECKING, Generic, TypeVar

from springtail._sync import iterate_sync, run_sync
from springtail.client._advisor import ChatClientResponse
from springtail.client._entity import reask_entity
from springtail.client._events import StreamEvent, TextDelta
from springtail.client._paused_turns import paused_turn_of
from springtail.client._request import PreparedRequest
from springtail.messages import ChatResponse

if TYPE_CHECKING:
    from springtail.execution import PendingApproval
    from springtail.memory import PausedTurn

__all__ = ["CallResponse", "StreamResponse", "SyncOrAsyncIterable"]

T = TypeVar("T")
E = TypeVar("E")


class CallResponse:
    """The outcome of one non-streaming request, which has already run.

    Every accessor has an ``a``-prefixed async twin for code that runs on an
    event loop; both just read the kept result (``entity`` may ask the model
    again when the answer does not validate).
    """

    __slots__ = ("_request", "_result")

    def __init__(self, request: PreparedRequest, result: ChatClientResponse) -> None:
        self._request = request
        self._result = result

    async def achat_client_response(self) -> ChatClientResponse:
        """The response with the advisors' shared context."""
        return self._result

    def chat_client_response(self) -> ChatClientResponse:
        """The response with the advisors' shared context."""
        return self._result

    async def achat_response(self) -> ChatResponse:
        """The final ``ChatResponse`` (usage summed over the tool loop)."""
        return self._result.chat_response

    def chat_response(self) -> ChatResponse:
        """The final ``ChatResponse`` (usage summed over the tool loop)."""
        return self._result.chat_response

    async def acontent(self) -> str:
        """The text of the final answer ("" when the model gave none)."""
        return self._result.chat_response.text

    def content(self) -> str:
        """The text of the final answer ("" when the model gave none)."""
        return self._result.chat_response.text

    async def aentity(self, target: type[T], *, max_retries: int = 1) -> T:
        """The kept answer parsed and validated as ``target``.

        ``target`` is a pydantic model, dataclass, TypedDict, ``list[...]``
        and so on. When the answer does not validate, the model is asked
        again, with the validation error and the JSON Schema, at most
        ``max_retries`` times. To have the schema sent with the first
        request, use ``client.prompt(...).entity(T)`` instead.

        Raises:
            ValueError: no answer, the retries included, is valid JSON of
                that shape.
        """
        value: T = await reask_entity(
            self._request.reask, self._result.chat_response.text, target, max_retries
        )
        return value

    def entity(self, target: type[T], *, max_retries: int = 1) -> T:
        """The kept answer parsed and validated as ``target``; see [`aentity`][]."""
        return run_sync(self.aentity(target, max_retries=max_retries))

    async def apaused_turn(self) -> PausedTurn | None:
        """The turn that waits for a person's decision, when the request paused."""
        return paused_turn_of(self._result.chat_response)

    def paused_turn(self) -> PausedTurn | None:
        """The turn that waits for a person's decision, when the request paused.

        The finish reason is then ``"approvalRequired"``. With chat memory the
        turn is stored already; without, keep ``paused_turn().to_json()`` and
        resume with ``client.prompt().resume(json).approve(call_id)``.
        """
        return paused_turn_of(self._result.chat_response)

    async def apending_approvals(self) -> tuple[PendingApproval, ...]:
        """The calls that wait for a decision (empty when the request did not pause)."""
        return self.pending_approvals()

    def pending_approvals(self) -> tuple[PendingApproval, ...]:
        """The calls that wait for a decision (empty when the request did not pause)."""
        turn = paused_turn_of(self._result.chat_response)
        return turn.pending if turn is not None else ()


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
            if response.event is None:
                yield response.chat_response

    async def _content(self) -> AsyncIterator[str]:
        async for response in self._request.stream():
            text = response.chat_response.text
            if text:
                yield text

    async def _events(self) -> AsyncIterator[StreamEvent]:
        async for response in self._request.stream():
            event = response.event
            if event is not None:
                yield event
                continue
            text = response.chat_response.text
            if text:
                yield TextDelta(text)
