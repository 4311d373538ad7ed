"""The advisor chain: advisors in order, the model call as the innermost link.

A chain position is an immutable (advisors, index) pair, so an advisor may
call ``next_call``/``next_stream`` as often as it likes; each call runs the
advisors after it afresh. That is all the tool loop needs to re-run the
inner advisors on every iteration.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

from springtail.client._advisor import (
    CallAdvisor,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisor,
)
from springtail.messages import Prompt, UserMessage
from springtail.models._base import ChatModel

__all__ = ["OUTPUT_FORMAT_KEY", "CallChain", "StreamChain", "apply_output_format"]

OUTPUT_FORMAT_KEY: Final[str] = "springtail.output_format"
"""Context key: format instructions added to the last user message at the model call.

They are added at the innermost link, not when the request is built, so
memory and loggers see (and remember) what the user really wrote.
"""


def apply_output_format(request: ChatClientRequest) -> Prompt:
    """The prompt the model gets: the request's, plus any output format instructions."""
    prompt = request.prompt
    instructions: Any = request.context.get(OUTPUT_FORMAT_KEY)
    if not instructions:
        return prompt
    messages = list(prompt.messages)
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, UserMessage):
            messages[index] = UserMessage(f"{message.text}\n\n{instructions}")
            break
    else:
        messages.append(UserMessage(str(instructions)))
    return prompt.with_messages(messages)


class CallChain:
    """The rest of a call chain, from position ``index`` on."""

    __slots__ = ("_advisors", "_index", "_model")

    def __init__(self, advisors: Sequence[CallAdvisor], model: ChatModel, index: int = 0) -> None:
        self._advisors = advisors
        self._model = model
        self._index = index

    @property
    def advisors(self) -> Sequence[CallAdvisor]:
        """The advisors still to run, outermost first."""
        return self._advisors[self._index :]

    async def next_call(self, request: ChatClientRequest) -> ChatClientResponse:
        """Run the next advisor, or the model when none is left."""
        index = self._index
        if index < len(self._advisors):
            rest = CallChain(self._advisors, self._model, index + 1)
            return await self._advisors[index].advise_call(request, rest)
        response = await self._model.acall(apply_output_format(request))
        return ChatClientResponse(response, request.context)


class StreamChain:
    """The rest of a stream chain, from position ``index`` on."""

    __slots__ = ("_advisors", "_index", "_model")

    def __init__(self, advisors: Sequence[StreamAdvisor], model: ChatModel, index: int = 0) -> None:
        self._advisors = advisors
        self._model = model
        self._index = index

    @property
    def advisors(self) -> Sequence[StreamAdvisor]:
        """The advisors still to run, outermost first."""
        return self._advisors[self._index :]

    def next_stream(self, request: ChatClientRequest) -> AsyncIterator[ChatClientResponse]:
        """Stream through the next advisor, or from the model when none is left."""
        index = self._index
        if index < len(self._advisors):
            rest = StreamChain(self._advisors, self._model, index + 1)
            return self._advisors[index].advise_stream(request, rest)
        return self._model_stream(request)

    async def _model_stream(self, request: ChatClientRequest) -> AsyncIterator[ChatClientResponse]:
        context = request.context
        async for chunk in self._model.astream(apply_output_format(request)):
            yield ChatClientResponse(chunk, context)
