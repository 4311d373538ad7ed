"""Anthropic's Messages API, through the official ``anthropic`` SDK.

The Messages API differs from chat completions in ways that matter for the
tool loop: the system prompt is a top-level field, tool calls are
``tool_use`` content blocks whose input is an object, their results are
``tool_result`` blocks inside a *user* turn (all results of one assistant
turn together, with ``is_error``), and user and assistant turns must
alternate. ``springtail.models._anthropic_wire`` owns that translation,
this module the requests and their errors; the SDK (imported on first
request) owns HTTP and the retries of 429, 5xx and timeouts.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any

from springtail.messages import ChatOptions, ChatResponse, Prompt
from springtail.models._anthropic_wire import (
    StreamState,
    response_from_message,
    to_anthropic_messages,
    tool_choice,
)
from springtail.models._base import ChatModel, ModelError, ModelUnavailableError
from springtail.models._deadline import deadline_transport, httpx_module_of
from springtail.models._faults import connection_refused, reply_fault, timed_out
from springtail.models._loop_clients import LoopClients, import_sdk
from springtail.models._redact import mask_url
from springtail.models._wire import effective_options, tool_definitions

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

__all__ = ["AnthropicChatModel", "to_anthropic_messages"]

DEFAULT_MODEL = "claude-sonnet-5-5"


class AnthropicChatModel(ChatModel):
    """A Claude model behind Anthropic's Messages API.

    Args:
        model: The model name, e.g. ``claude-sonnet-5-5``.
        api_key: ``None`` reads ``ANTHROPIC_API_KEY``.
        base_url: ``None`` reads ``ANTHROPIC_BASE_URL``, then uses Anthropic's
            own endpoint (set it for a proxy or gateway).
        max_tokens: The answer's token limit when the request sets none; the
            Messages API requires one on every request.
        default_options: Options for every request; a request's own options
            win field by field.
        timeout: The deadline of one attempt, in seconds: from sending the
            request to the answer's last byte (a stream's included).
        max_retries: Retries of 429, 5xx, timeouts and dropped connections
            (the SDK's backoff: 0.5 s doubling up to 8 s, with jitter).

    The Messages API has no native JSON-schema output, so
    ``ChatOptions.response_schema`` is not sent: the instructions the client
    adds to the prompt carry it (``native_response_schema`` is ``False``).

    Raises:
        ModelUnavailableError: No API key was given or found.
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_tokens: int = 1024,
        default_options: ChatOptions | None = None,
        timeout: float = 600.0,
        max_retries: int = 2,
    ) -> None:
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be at least 1, got {max_tokens}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be 0 or more, got {max_retries}")
        key = api_key or os.environ.get("ANTHROPIC_API_KEY") or None
        if key is None:
            raise ModelUnavailableError(
                "No Anthropic API key: set ANTHROPIC_API_KEY (or pass api_key=...)."
            )
        self.model = model
        self._api_key = key
        self.base_url = (
            base_url or os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"
        ).rstrip("/")
        self.max_tokens = max_tokens
        self.default_options = default_options or ChatOptions()
        self.timeout = timeout
        self.max_retries = max_retries
        self._clients: LoopClients[AsyncAnthropic] = LoopClients(self._new_client)

    def __repr__(self) -> str:
        return f"AnthropicChatModel(model={self.model!r})"

    # -- the ChatModel interface ------------------------------------------------

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """Send the prompt and wait for the whole answer."""
        request = self._request(prompt)
        with self.translating_errors(model=request["model"]):
            message = await self._client().messages.create(**request)
            return response_from_message(message)

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """Stream the answer: text deltas as they come, each tool call when its block ends."""
        request = self._request(prompt)
        request["stream"] = True
        with self.translating_errors(model=request["model"]):
            events = await self._client().messages.create(**request)
        state = StreamState()
        with self.translating_errors(model=request["model"], streaming=True):
            try:
                async for event in events:
                    chunk = state.add(event)
                    if chunk is not None:
                        yield chunk
            finally:
                await events.close()
        if state.stop_reason is None:
            open_calls = len(state.calls)
            calls = f" and {open_calls} unfinished tool call(s)" if open_calls else ""
            raise ModelError(
                f"The Anthropic API at {mask_url(self.base_url)} ended its streamed answer "
                f"before it was complete (no stop_reason after {state.characters} "
                f"characters{calls}): try again."
            )
        yield state.final_chunk()

    async def aclose(self) -> None:
        """Close the HTTP client of the running event loop (others close with their loop)."""
        client = self._clients.pop()
        if client is not None:
            await client.close()

    # -- translation -------------------------------------------------------------

    def _client(self) -> AsyncAnthropic:
        return self._clients.get()

    def _new_client(self) -> AsyncAnthropic:
        anthropic = import_sdk("anthropic", "anthropic")
        transport = deadline_transport(
            httpx_module_of(anthropic.DefaultAsyncHttpxClient),
            self.timeout,
            limits=anthropic.DEFAULT_CONNECTION_LIMITS,
        )
        client: AsyncAnthropic = anthropic.AsyncAnthropic(
            api_key=self._api_key,
            base_url=self.base_url,
            timeout=self.timeout,
            max_retries=self.max_retries,
            http_client=anthropic.DefaultAsyncHttpxClient(transport=transport),
        )
        return client

    def _request(self, prompt: Prompt) -> dict[str, Any]:
        options = effective_options(self.default_options, prompt)
        system, messages = to_anthropic_messages(prompt.messages)
        request: dict[str, Any] = {
            "model": options.model or self.model,
            "max_tokens": options.max_tokens or self.max_tokens,
            "messages": messages,
        }
        if system:
            request["system"] = system
        if options.stop:
            request["stop_sequences"] = list(options.stop)
        extra = dict(options.extra)
        # The Messages API takes temperature and top_p; this SDK version no
        # longer lists them as arguments, so they travel as body fields.
        for name in ("temperature", "top_p"):
            value = getattr(options, name)
            if value is not None:
                extra.setdefault(name, value)
        choice = extra.pop("tool_choice", None)
        definitions = tool_definitions(options)
        if definitions:
            request["tools"] = [
                {
                    "name": d.name,
                    "description": d.description,
                    "input_schema": dict(d.input_schema),
                }
                for d in definitions
            ]
            wire_choice = tool_choice(choice)
            if options.parallel_tool_calls is False and wire_choice.get("type") != "none":
                wire_choice["disable_parallel_tool_use"] = True
            if wire_choice != {"type": "auto"}:
                request["tool_choice"] = wire_choice
        if extra:
            request["extra_body"] = extra
        return request

    def translate_error(
        self, exc: Exception, *, model: str | None = None, streaming: bool = False
    ) -> ModelError:
        """One sentence for each way the Messages API can fail."""
        model = model or self.model
        where = f"the Anthropic API at {mask_url(self.base_url)}"
        fault = reply_fault(
            exc,
            where=where[0].upper() + where[1:],
            what="a Messages API reply",
            streaming=streaming,
            hint="check the base_url (or ANTHROPIC_BASE_URL).",
        )
        if fault is not None:
            return fault
        try:
            import anthropic
        except ImportError:  # pragma: no cover - the request could not have been sent
            return super().translate_error(exc, model=model, streaming=streaming)
        if isinstance(exc, anthropic.APITimeoutError) or timed_out(exc):
            if streaming:
                return ModelError(
                    f"The Anthropic API did not finish its streamed answer within "
                    f"{self.timeout:g} s: try again, or raise timeout=."
                )
            return ModelError(
                f"The Anthropic API did not answer within {self.timeout:g} s "
                f"({self.max_retries} retries): try again, or raise timeout=."
            )
        if isinstance(exc, anthropic.APIConnectionError) and connection_refused(exc):
            return ModelUnavailableError(
                f"Cannot reach {where}: check the network (or the base_url) and try again."
            )
        if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
            return ModelUnavailableError(
                f"Anthropic rejected the API key ({exc.status_code}): "
                "check ANTHROPIC_API_KEY or the api_key you passed."
            )
        if isinstance(exc, anthropic.NotFoundError):
            return ModelUnavailableError(
                f"Anthropic answered 404 for model {model!r}: check the model name."
            )
        if isinstance(exc, anthropic.APIStatusError):
            if streaming:  # an error event in the stream comes with the stream's own 200
                return ModelError(
                    f"Anthropic reported an error while streaming its answer: "
                    f"{_status_message(exc)}"
                )
            return ModelError(f"Anthropic answered {exc.status_code}: {_status_message(exc)}")
        if isinstance(exc, anthropic.APIError):
            return ModelError(f"Anthropic reported an error: {_status_message(exc)}")
        return super().translate_error(exc, model=model, streaming=streaming)


def _status_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        error = body.get("error", body)
        if isinstance(error, Mapping) and error.get("message"):
            return str(error["message"])
    return str(getattr(exc, "message", exc))
