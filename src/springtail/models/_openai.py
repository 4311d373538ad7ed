"""OpenAI chat completions, and every server that speaks them.

One provider covers OpenAI itself and the OpenAI-compatible servers (vLLM,
llama.cpp's server, LM Studio, LiteLLM): only the base URL and the key
differ. The official ``openai`` SDK is imported when the first request is
sent, so building the model costs nothing and the SDK is only needed by
those who use it. Retries of 429, 5xx and timeouts are the SDK's own
(``max_retries``, exponential backoff with jitter).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from springtail.messages import ChatOptions, ChatResponse, Prompt
from springtail.models._base import ChatModel, ModelError, ModelUnavailableError
from springtail.models._deadline import deadline_transport, httpx_module_of
from springtail.models._faults import connection_refused, reply_fault, timed_out
from springtail.models._loop_clients import LoopClients, import_sdk
from springtail.models._openai_wire import (
    StreamState,
    response_format,
    response_from_completion,
    to_openai_messages,
    tool_choice,
)
from springtail.models._redact import mask_url
from springtail.models._wire import effective_options, function_tools, tool_definitions

if TYPE_CHECKING:
    from openai import AsyncOpenAI

__all__ = ["OpenAIChatModel", "response_format", "to_openai_messages"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
OPENAI_HOST = "api.openai.com"
COMPATIBLE_KEY_ENV = "SPRINGTAIL_OPENAI_COMPATIBLE_API_KEY"
"""Where an OpenAI-compatible server's key comes from; never ``OPENAI_API_KEY``."""
COMPATIBLE_DUMMY_KEY = "not-needed"
"""Sent to a custom base URL when no key is set: the SDK needs one, local servers ignore it."""


class OpenAIChatModel(ChatModel):
    """A chat model behind the OpenAI chat-completions API.

    Args:
        model: The model name sent with every request unless the request's
            options name another.
        base_url: Where the API lives, e.g. ``http://127.0.0.1:8080/v1`` for
            llama.cpp's server. ``None`` reads ``OPENAI_BASE_URL``, then uses
            OpenAI's own endpoint.
        api_key: The key. ``None`` reads ``api_key_env`` if given; else, for
            OpenAI itself (``api.openai.com``, or the ``OPENAI_BASE_URL`` that
            the SDK pairs with it) ``OPENAI_API_KEY``, and for any other
            server ``SPRINGTAIL_OPENAI_COMPATIBLE_API_KEY``: OpenAI's key is
            never sent to another host. With a custom base URL and no key at
            all a dummy key is sent, since local servers need none.
        api_key_env: The name of an environment variable holding the key
            (``from_uri``'s ``#model?key_env=NAME``); it must be set.
        default_options: Options for every request; a request's own options
            win field by field.
        timeout: The deadline of one attempt, in seconds: from sending the
            request to the answer's last byte (a stream's included). A
            server that trickles keep-alives does not stretch it.
        max_retries: Retries of 429, 5xx, timeouts and dropped connections
            (the SDK's backoff: 0.5 s doubling up to 8 s, with jitter).
        stream_usage: Ask for token usage at the end of a stream
            (``stream_options.include_usage``); turn off for a server that
            rejects the field.

    ``ChatOptions.response_schema`` is sent natively, as
    ``response_format={"type": "json_schema", ...}``.

    Raises:
        ModelUnavailableError: No API key for OpenAI's own endpoint, or
            ``api_key_env`` names a variable that is not set.
    """

    native_response_schema: ClassVar[bool] = True

    def __init__(
        self,
        model: str = "gpt-4o-mini",
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env: str | None = None,
        default_options: ChatOptions | None = None,
        timeout: float = 600.0,
        max_retries: int = 2,
        stream_usage: bool = True,
    ) -> None:
        if max_retries < 0:
            raise ValueError(f"max_retries must be 0 or more, got {max_retries}")
        self.model = model
        env_base = os.environ.get("OPENAI_BASE_URL") or None
        self.base_url = (base_url or env_base or DEFAULT_BASE_URL).rstrip("/")
        self._shown_url = mask_url(self.base_url)
        self._api_key, self._key_source = self._choose_key(
            api_key, api_key_env, openai_own=_is_openai(self.base_url) or base_url is None
        )
        self.timeout = timeout
        self.max_retries = max_retries
        self.stream_usage = stream_usage
        self.default_options = default_options or ChatOptions()
        self._clients: LoopClients[AsyncOpenAI] = LoopClients(self._new_client)

    def _choose_key(
        self, api_key: str | None, api_key_env: str | None, *, openai_own: bool
    ) -> tuple[str, str]:
        """The key to send and where it came from (for the sentence of a 401)."""
        if api_key:
            return api_key, "the api_key you passed"
        if api_key_env:
            key = os.environ.get(api_key_env)
            if not key:
                raise ModelUnavailableError(
                    f"The environment variable {api_key_env} (key_env=) is not set: "
                    f"set it to the API key of the server at {self._shown_url}."
                )
            return key, api_key_env
        if openai_own:
            key = os.environ.get("OPENAI_API_KEY")
            if key:
                return key, "OPENAI_API_KEY"
            if _is_openai(self.base_url):
                raise ModelUnavailableError(
                    "No OpenAI API key: set OPENAI_API_KEY (or pass api_key=...) "
                    "to use OpenAI, or give the base_url of an OpenAI-compatible server."
                )
            return COMPATIBLE_DUMMY_KEY, "OPENAI_API_KEY"
        key = os.environ.get(COMPATIBLE_KEY_ENV)
        if key:
            return key, COMPATIBLE_KEY_ENV
        return COMPATIBLE_DUMMY_KEY, COMPATIBLE_KEY_ENV

    def __repr__(self) -> str:
        return f"OpenAIChatModel(model={self.model!r}, base_url={self._shown_url!r})"

    # -- the ChatModel interface ------------------------------------------------

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """Send the prompt and wait for the whole answer."""
        request = self._request(prompt)
        with self.translating_errors(model=request["model"]):
            completion = await self._client().chat.completions.create(**request)
            return response_from_completion(completion)

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """Stream the answer: text deltas as they come, each tool call once complete."""
        request = self._request(prompt)
        request["stream"] = True
        if self.stream_usage:
            request["stream_options"] = {"include_usage": True}
        with self.translating_errors(model=request["model"]):
            chunks = await self._client().chat.completions.create(**request)
        state = StreamState()
        with self.translating_errors(model=request["model"], streaming=True):
            try:
                async for chunk in chunks:
                    delta_text, thinking = state.add(chunk)
                    if delta_text or thinking:
                        yield state.text_chunk(delta_text, thinking)
            finally:
                await chunks.close()
        missing = state.truncation()
        if missing is not None:
            raise self._cut_short(getattr(chunks, "response", None), missing)
        yield state.final_chunk()

    def _cut_short(self, response: Any, missing: str) -> ModelError:
        """The error for a stream that ended without saying it was complete."""
        server = f"The server at {self._shown_url}"
        headers = getattr(response, "headers", None) or {}
        content_type = str(headers.get("content-type", "")).partition(";")[0].strip()
        if content_type and content_type != "text/event-stream":
            return ModelError(
                f"{server} answered a streamed request with {content_type} instead of an "
                "event stream: check that the base URL is the server's OpenAI-compatible API "
                "(…/v1)."
            )
        return ModelError(
            f"{server} ended its streamed answer before it was complete ({missing}): "
            "try again, and check the server's log if it keeps happening."
        )

    async def aclose(self) -> None:
        """Close the HTTP client of the running event loop (others close with their loop)."""
        client = self._clients.pop()
        if client is not None:
            await client.close()

    # -- translation -------------------------------------------------------------

    def _client(self) -> AsyncOpenAI:
        return self._clients.get()

    def _new_client(self) -> AsyncOpenAI:
        openai = import_sdk("openai", "openai")
        transport = deadline_transport(
            httpx_module_of(openai.DefaultAsyncHttpxClient),
            self.timeout,
            limits=openai.DEFAULT_CONNECTION_LIMITS,
        )
        client: AsyncOpenAI = openai.AsyncOpenAI(
            api_key=self._api_key,
            base_url=self.base_url,
            timeout=self.timeout,
            max_retries=self.max_retries,
            http_client=openai.DefaultAsyncHttpxClient(transport=transport),
        )
        return client

    def _request(self, prompt: Prompt) -> dict[str, Any]:
        options = effective_options(self.default_options, prompt)
        request: dict[str, Any] = {
            "model": options.model or self.model,
            "messages": to_openai_messages(prompt.messages),
        }
        definitions = tool_definitions(options)
        if definitions:
            request["tools"] = function_tools(definitions)
            if options.parallel_tool_calls is not None:
                request["parallel_tool_calls"] = options.parallel_tool_calls
        for name in ("temperature", "top_p", "max_tokens", "seed"):
            value = getattr(options, name)
            if value is not None:
                request[name] = value
        if options.stop:
            request["stop"] = list(options.stop)
        if options.response_schema is not None:
            request["response_format"] = response_format(options.response_schema)
        extra = dict(options.extra)
        choice = extra.pop("tool_choice", None)
        if choice is not None:
            request["tool_choice"] = tool_choice(choice)
        if extra:
            request["extra_body"] = extra
        return request

    def translate_error(
        self, exc: Exception, *, model: str | None = None, streaming: bool = False
    ) -> ModelError:
        """One sentence for each way an OpenAI-compatible server can fail."""
        model = model or self.model
        server = f"The server at {self._shown_url}"
        fault = reply_fault(
            exc,
            where=server,
            what="a chat completion",
            streaming=streaming,
            hint="check that the base URL is the server's OpenAI-compatible API (…/v1).",
        )
        if fault is not None:
            return fault
        try:
            import openai
        except ImportError:  # pragma: no cover - the request could not have been sent
            return super().translate_error(exc, model=model, streaming=streaming)
        if isinstance(exc, openai.APITimeoutError) or timed_out(exc):
            if streaming:
                return ModelError(
                    f"{server} did not finish its streamed answer within {self.timeout:g} s: "
                    "check the server, or raise timeout=."
                )
            return ModelError(
                f"{server} did not answer within {self.timeout:g} s "
                f"({self.max_retries} retries): check the server, or raise timeout=."
            )
        if isinstance(exc, openai.APIConnectionError) and connection_refused(exc):
            return ModelUnavailableError(
                f"Cannot reach the OpenAI-compatible server at {self._shown_url}: "
                "start it (or fix the base URL) and try again."
            )
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return ModelUnavailableError(
                f"{server} rejected the API key ({exc.status_code}): check {self._key_source}."
            )
        if isinstance(exc, openai.NotFoundError):
            return ModelUnavailableError(
                f"{server} answered 404 for model {model!r}: check the model name "
                "and that the base URL ends with /v1."
            )
        if isinstance(exc, openai.APIStatusError):
            return ModelError(f"{server} answered {exc.status_code}: {_status_message(exc)}")
        if isinstance(exc, openai.APIError):  # an error event in place of (more) answer
            when = " while streaming its answer" if streaming else ""
            return ModelError(f"{server} reported an error{when}: {_status_message(exc)}")
        return super().translate_error(exc, model=model, streaming=streaming)


def _is_openai(url: str) -> bool:
    """Whether ``url`` is OpenAI's own API (the only host that gets OPENAI_API_KEY)."""
    try:
        return urlsplit(url).hostname == OPENAI_HOST
    except ValueError:
        return False


def _status_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        error = body.get("error", body)
        if isinstance(error, Mapping) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str):
            return error
    return str(getattr(exc, "message", exc))
