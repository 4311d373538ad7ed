"""SimpleLoggerAdvisor: log each request and response at DEBUG.

Inside the tool loop (order 0, the default) it logs every model call of the
loop, which is what you want when a model misbehaves. Nothing is formatted
unless the ``springtail.advisors`` logger is enabled for DEBUG, so leaving
the advisor in production code costs next to nothing.

The default request text never includes the tool context or
``options.extra``: they carry what an application hands its tools (user
names, ids) and provider settings (headers, keys), and logs are kept longer
and read by more people than requests. They are shown as counts only.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Mapping

from springtail.client._advisor import (
    CallAdvisorChain,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisorChain,
)
from springtail.client._aggregate import StreamAggregator
from springtail.messages import ChatOptions, ChatResponse

__all__ = ["SimpleLoggerAdvisor"]

logger = logging.getLogger("springtail.advisors")


def _redacted(mapping: Mapping[str, object]) -> str:
    return f"<{len(mapping)} redacted>"


def describe_options(options: ChatOptions | None) -> str:
    """The options as a log line: settings and tool names; tool context and extra redacted."""
    if options is None:
        return "None"
    parts = [f"{name}={value!r}" for name, value in options.to_dict().items()]
    tools = [cb.tool_definition.name for cb in options.tool_callbacks]
    tools.extend(name for name in options.tool_names if name not in tools)
    if tools:
        parts.append(f"tools={tools!r}")
    if options.tool_context:
        parts.append(f"tool_context={_redacted(options.tool_context)}")
    if options.extra:
        parts.append(f"extra={_redacted(options.extra)}")
    return f"ChatOptions({', '.join(parts)})"


def _default_request(request: ChatClientRequest) -> str:
    prompt = request.prompt
    return f"Prompt(messages={prompt.messages!r}, options={describe_options(prompt.options)})"


def _default_response(response: ChatResponse) -> str:
    return repr(response)


class SimpleLoggerAdvisor:
    """Logs the request before and the response after each model call, at DEBUG.

    Args:
        request_to_string: How a request is written; default: its messages
            and options, with the tool context and ``options.extra``
            redacted (counts only).
        response_to_string: How a response is written; default: ``repr`` of
            the ``ChatResponse`` (a streamed one is logged once, whole).
        order: Where it sits; 0 puts it inside the default tool loop.
    """

    __slots__ = ("_order", "_request_to_string", "_response_to_string")

    def __init__(
        self,
        request_to_string: Callable[[ChatClientRequest], str] | None = None,
        response_to_string: Callable[[ChatResponse], str] | None = None,
        order: int = 0,
    ) -> None:
        self._request_to_string = request_to_string or _default_request
        self._response_to_string = response_to_string or _default_response
        self._order = order

    @property
    def name(self) -> str:
        """The advisor's name, for logs."""
        return "SimpleLoggerAdvisor"

    @property
    def order(self) -> int:
        """Where the advisor sits in the chain (smaller = outer)."""
        return self._order

    def __repr__(self) -> str:
        return f"SimpleLoggerAdvisor(order={self._order})"

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        """Log the request, pass it on, log the response."""
        enabled = logger.isEnabledFor(logging.DEBUG)
        if enabled:
            logger.debug("request: %s", self._request_to_string(request))
        response = await chain.next_call(request)
        if enabled:
            logger.debug("response: %s", self._response_to_string(response.chat_response))
        return response

    async def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]:
        """Log the request, stream the chunks through, log the whole response at the end."""
        if not logger.isEnabledFor(logging.DEBUG):
            async for response in chain.next_stream(request):
                yield response
            return
        logger.debug("request: %s", self._request_to_string(request))
        aggregator = StreamAggregator()
        async for response in chain.next_stream(request):
            aggregator.add(response.chat_response)
            yield response
        logger.debug("response: %s", self._response_to_string(aggregator.response()))
