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
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    ChatResponseMetadata,
    Generation,
    GenerationMetadata,
    Message,
    Prompt,
    SystemMessage,
    ToolResponseMessage,
    Usage,
    UserMessage,
)
from springtail.models._base import ChatModel, ModelError, ModelUnavailableError
from springtail.models._loop_clients import LoopClients, import_sdk
from springtail.models._wire import (
    ToolCallAssembler,
    effective_options,
    function_tools,
    plain_json,
    repair_tool_call,
    tool_definitions,
    usage_value,
)

if TYPE_CHECKING:
    from openai import AsyncOpenAI

__all__ = ["OpenAIChatModel"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
COMPATIBLE_DUMMY_KEY = "not-needed"
"""Sent to a custom base URL when no key is set: the SDK needs one, local servers ignore it."""

_TOOL_CHOICE_KEYWORDS = frozenset({"auto", "none", "required"})


class OpenAIChatModel(ChatModel):
    """A chat model behind the OpenAI chat-completions API.

    Args:
        model: The model name sent with every request unless the request's
            options name another.
        base_url: Where the API lives, e.g. ``http://127.0.0.1:8080/v1`` for
            llama.cpp's server. ``None`` reads ``OPENAI_BASE_URL``, then uses
            OpenAI's own endpoint.
        api_key: ``None`` reads ``OPENAI_API_KEY``. With a custom base URL and
            no key at all a dummy key is sent, since local servers need none.
        default_options: Options for every request; a request's own options
            win field by field.
        timeout: Seconds one HTTP attempt may take.
        max_retries: Retries of 429, 5xx, timeouts and dropped connections
            (the SDK's backoff: 0.5 s doubling up to 8 s, with jitter).
        stream_usage: Ask for token usage at the end of a stream
            (``stream_options.include_usage``); turn off for a server that
            rejects the field.

    ``ChatOptions.response_schema`` is sent natively, as
    ``response_format={"type": "json_schema", ...}``.

    Raises:
        ModelUnavailableError: No API key for OpenAI's own endpoint.
    """

    native_response_schema: ClassVar[bool] = True

    def __init__(
        self,
        model: str = "gpt-4o-mini",
        *,
        base_url: str | None = None,
        api_key: str | None = None,
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
        key = api_key or os.environ.get("OPENAI_API_KEY") or None
        if key is None:
            if self.base_url == DEFAULT_BASE_URL:
                raise ModelUnavailableError(
                    "No OpenAI API key: set OPENAI_API_KEY (or pass api_key=...) "
                    "to use OpenAI, or give the base_url of an OpenAI-compatible server."
                )
            key = COMPATIBLE_DUMMY_KEY
        self._api_key = key
        self.timeout = timeout
        self.max_retries = max_retries
        self.stream_usage = stream_usage
        self.default_options = default_options or ChatOptions()
        self._clients: LoopClients[AsyncOpenAI] = LoopClients(self._new_client)

    def __repr__(self) -> str:
        return f"OpenAIChatModel(model={self.model!r}, base_url={self.base_url!r})"

    # -- the ChatModel interface ------------------------------------------------

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """Send the prompt and wait for the whole answer."""
        request = self._request(prompt)
        with self.translating_errors(model=request["model"]):
            completion = await self._client().chat.completions.create(**request)
            return _response_from_completion(completion)

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """Stream the answer: text deltas as they come, each tool call once complete."""
        request = self._request(prompt)
        request["stream"] = True
        if self.stream_usage:
            request["stream_options"] = {"include_usage": True}
        with self.translating_errors(model=request["model"]):
            chunks = await self._client().chat.completions.create(**request)
        state = _StreamState()
        with self.translating_errors(model=request["model"]):
            try:
                async for chunk in chunks:
                    delta_text, thinking = state.add(chunk)
                    if delta_text or thinking:
                        yield state.text_chunk(delta_text, thinking)
            finally:
                await chunks.close()
        yield state.final_chunk()

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
        client: AsyncOpenAI = openai.AsyncOpenAI(
            api_key=self._api_key,
            base_url=self.base_url,
            timeout=self.timeout,
            max_retries=self.max_retries,
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
        tool_choice = extra.pop("tool_choice", None)
        if tool_choice is not None:
            request["tool_choice"] = _tool_choice(tool_choice)
        if extra:
            request["extra_body"] = extra
        return request

    def translate_error(self, exc: Exception, *, model: str | None = None) -> ModelError:
        """One sentence for each way an OpenAI-compatible server can fail."""
        model = model or self.model
        try:
            import openai
        except ImportError:  # pragma: no cover - the request could not have been sent
            return super().translate_error(exc, model=model)
        server = f"The server at {self.base_url}"
        if isinstance(exc, openai.APITimeoutError):
            return ModelError(
                f"{server} did not answer within {self.timeout:g} s "
                f"({self.max_retries} retries): check the server, or raise timeout=."
            )
        if isinstance(exc, openai.APIConnectionError):
            return ModelUnavailableError(
                f"Cannot reach the OpenAI-compatible server at {self.base_url}: "
                "start it (or fix the base URL) and try again."
            )
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return ModelUnavailableError(
                f"{server} rejected the API key ({exc.status_code}): "
                "check OPENAI_API_KEY or the api_key you passed."
            )
        if isinstance(exc, openai.NotFoundError):
            return ModelUnavailableError(
                f"{server} answered 404 for model {model!r}: check the model name "
                "and that the base URL ends with /v1."
            )
        if isinstance(exc, openai.APIStatusError):
            return ModelError(f"{server} answered {exc.status_code}: {_status_message(exc)}")
        return super().translate_error(exc, model=model)


def _status_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        error = body.get("error", body)
        if isinstance(error, Mapping) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str):
            return error
    return str(getattr(exc, "message", exc))


def response_format(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``ChatOptions.response_schema`` as chat completions' ``response_format``.

    The name is the schema's ``title`` cut to the characters OpenAI accepts
    (``response`` without one). ``strict`` is asked for only when the schema
    meets strict mode's rules (every object closed with
    ``additionalProperties: false`` and listing all its properties as
    required): OpenAI rejects a strict request whose schema does not, and
    Pydantic's schemas of models with optional fields do not.
    """
    plain = plain_json(schema)
    title = plain.get("title") if isinstance(plain, dict) else None
    name = re.sub(r"[^A-Za-z0-9_-]", "_", title)[:64] if isinstance(title, str) else ""
    return {
        "type": "json_schema",
        "json_schema": {
            "name": name or "response",
            "schema": plain,
            "strict": strict_compatible(plain),
        },
    }


def strict_compatible(schema: Any) -> bool:
    """Whether every object in ``schema`` is closed and requires all its properties."""
    if not isinstance(schema, dict):
        return True
    properties = schema.get("properties")
    if schema.get("type") == "object" or isinstance(properties, dict):
        names = set(properties) if isinstance(properties, dict) else set()
        if schema.get("additionalProperties") is not False:
            return False
        if set(schema.get("required") or ()) != names:
            return False
    children: list[Any] = []
    for key in ("properties", "$defs", "definitions"):
        if isinstance(schema.get(key), dict):
            children.extend(schema[key].values())
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        if isinstance(schema.get(key), list):
            children.extend(schema[key])
    for key in ("items", "additionalProperties", "not"):
        if isinstance(schema.get(key), dict):
            children.append(schema[key])
    return all(strict_compatible(child) for child in children)


def _tool_choice(value: Any) -> Any:
    """``"auto"``/``"none"``/``"required"``, a tool's name, or the raw wire object."""
    if isinstance(value, str) and value not in _TOOL_CHOICE_KEYWORDS:
        return {"type": "function", "function": {"name": value}}
    return value


def to_openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages in chat-completions form; each tool response becomes its own message."""
    wire: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            wire.append({"role": "system", "content": message.text})
        elif isinstance(message, UserMessage):
            wire.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text}
            if message.tool_calls:
                entry["content"] = message.text or None
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments},
                    }
                    for call in message.tool_calls
                ]
            wire.append(entry)
        elif isinstance(message, ToolResponseMessage):
            wire.extend(
                {"role": "tool", "tool_call_id": r.id, "content": r.response_data}
                for r in message.responses
            )
        else:  # pragma: no cover - the Message union is closed
            raise TypeError(f"Cannot send a {type(message).__name__} to an OpenAI server")
    return wire


def _usage(raw: Any) -> Usage:
    if raw is None:
        return Usage()
    prompt = usage_value(raw, "prompt_tokens")
    completion = usage_value(raw, "completion_tokens")
    total = usage_value(raw, "total_tokens") or prompt + completion
    return Usage(prompt, completion, total)


def _reasoning(message: Any) -> str:
    """The reasoning text some servers add (vLLM, llama.cpp, DeepSeek), kept out of the answer."""
    for name in ("reasoning_content", "reasoning"):
        value = getattr(message, name, None)
        if isinstance(value, str) and value:
            return value
    return ""


def _response_from_completion(completion: Any) -> ChatResponse:
    generations = []
    for choice in completion.choices or ():
        message = choice.message
        calls = tuple(
            repair_tool_call(
                getattr(call, "id", None),
                getattr(getattr(call, "function", None), "name", None),
                getattr(getattr(call, "function", None), "arguments", None),
            )
            for call in (getattr(message, "tool_calls", None) or ())
        )
        thinking = _reasoning(message)
        generations.append(
            Generation(
                AssistantMessage(text=message.content or "", tool_calls=calls),
                GenerationMetadata(
                    finish_reason=choice.finish_reason,
                    extra={"thinking": thinking} if thinking else {},
                ),
            )
        )
    return ChatResponse(
        tuple(generations),
        ChatResponseMetadata(
            id=completion.id, model=completion.model, usage=_usage(completion.usage)
        ),
    )


class _StreamState:
    """What a stream has said so far: id, model, finish reason, usage, open tool calls."""

    def __init__(self) -> None:
        self.id: str | None = None
        self.model: str | None = None
        self.finish_reason: str | None = None
        self.usage = Usage()
        self.calls = ToolCallAssembler()

    def add(self, chunk: Any) -> tuple[str, str]:
        """Take one chunk in; return its text and reasoning deltas ("" when none)."""
        self.id = self.id or getattr(chunk, "id", None)
        self.model = self.model or getattr(chunk, "model", None)
        if getattr(chunk, "usage", None) is not None:
            self.usage = _usage(chunk.usage)
        text = thinking = ""
        for choice in getattr(chunk, "choices", None) or ():
            if choice.index != 0:  # one generation per request is what springtail asks for
                continue
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
            delta = choice.delta
            if delta is None:
                continue
            text += delta.content or ""
            thinking += _reasoning(delta)
            for fragment in getattr(delta, "tool_calls", None) or ():
                function = getattr(fragment, "function", None)
                self.calls.add(
                    getattr(fragment, "index", None),
                    call_id=getattr(fragment, "id", None),
                    name=getattr(function, "name", None),
                    arguments=getattr(function, "arguments", None),
                )
        return text, thinking

    def _metadata(self, usage: Usage | None = None) -> ChatResponseMetadata:
        return ChatResponseMetadata(id=self.id, model=self.model, usage=usage or Usage())

    def text_chunk(self, text: str, thinking: str = "") -> ChatResponse:
        extra = {"thinking": thinking} if thinking else {}
        return ChatResponse(
            (Generation(AssistantMessage(text=text), GenerationMetadata(extra=extra)),),
            self._metadata(),
        )

    def final_chunk(self) -> ChatResponse:
        """The last chunk: the complete tool calls, the finish reason and the usage."""
        output = AssistantMessage(tool_calls=tuple(self.calls.finish()))
        return ChatResponse(
            (Generation(output, GenerationMetadata(finish_reason=self.finish_reason)),),
            self._metadata(self.usage),
        )
