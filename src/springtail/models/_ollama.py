"""Ollama's ``/api/chat``, through the official ``ollama`` client.

The request body is built here and sent with the client's own transport
(host parsing, ``OLLAMA_API_KEY``, NDJSON streaming, its error types). It is
not sent through ``AsyncClient.chat`` because that method re-validates tools
with a pydantic model that keeps only ``type``, ``items``, ``description``
and ``enum`` per property: nested objects lose their properties,
``additionalProperties`` and ``anyOf`` disappear, and the model is told less
than the schema says. Ollama itself accepts the full JSON Schema.

Ollama writes tool-call arguments as JSON objects; springtail keeps them as
JSON text (``ToolCall.arguments``) and turns them back into objects when the
conversation is sent again. The client has no retry of its own, so 429, 5xx
and timeouts are retried with ``springtail.models._retry``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, ClassVar

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
    ToolCall,
    ToolResponseMessage,
    Usage,
    UserMessage,
)
from springtail.models._base import ChatModel, ModelError, ModelUnavailableError
from springtail.models._deadline import deadline_transport
from springtail.models._faults import (
    MalformedReplyError,
    connection_refused,
    json_kind,
    reply_fault,
)
from springtail.models._loop_clients import LoopClients, import_sdk
from springtail.models._redact import mask_url
from springtail.models._retry import RetryPolicy, retry_async
from springtail.models._wire import (
    arguments_to_object,
    effective_options,
    function_tools,
    object_to_arguments,
    plain_json,
    repair_tool_call,
    tool_definitions,
)

__all__ = ["OllamaChatModel"]

DEFAULT_HOST = "http://localhost:11434"
DEFAULT_MODEL = "qwen3.5:4b"

_TOP_LEVEL_EXTRA = frozenset({"format", "think", "keep_alive", "logprobs", "top_logprobs"})
"""``ChatOptions.extra`` keys for the top of the request; all others are model options."""


class OllamaChatModel(ChatModel):
    """A chat model served by Ollama.

    Args:
        model: The Ollama model tag, e.g. ``qwen3.5:4b``.
        host: The server; ``None`` reads ``OLLAMA_HOST``, then uses
            ``http://localhost:11434``.
        think: Ask a thinking model to think (``True``/``False``, or a level
            such as ``"low"``); ``None`` leaves it to the model. The thinking
            text is kept out of the answer, in ``GenerationMetadata.extra["thinking"]``.
        keep_alive: How long Ollama keeps the model loaded after the request
            (``"5m"``, seconds, ``-1`` for ever); ``None`` is Ollama's default.
        default_options: Options for every request; a request's own options
            win field by field. ``extra`` keys ``format``, ``think``,
            ``keep_alive``, ``logprobs`` and ``top_logprobs`` go at the top of the
            request, every other key into Ollama's ``options`` (``num_ctx``,
            ``top_k``, ...).
        timeout: The deadline of one attempt, in seconds: from sending the
            request to the answer's last byte (a stream's included).
        max_retries: Retries of 429, 5xx and timeouts (0.5 s doubling up to
            8 s, with jitter). A refused connection is not retried: the server
            is not running, and the error says how to start it.

    ``ChatOptions.response_schema`` is sent natively, as ``format`` (an
    ``extra["format"]`` given by hand wins).
    """

    native_response_schema: ClassVar[bool] = True

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        host: str | None = None,
        think: bool | str | None = None,
        keep_alive: float | str | None = None,
        default_options: ChatOptions | None = None,
        timeout: float = 600.0,
        max_retries: int = 2,
    ) -> None:
        self.model = model
        self.host = host or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST
        self._shown_host = mask_url(self.host)
        self.think = think
        self.keep_alive = keep_alive
        self.default_options = default_options or ChatOptions()
        self.timeout = timeout
        self.retry = RetryPolicy(max_retries=max_retries)
        self._clients: LoopClients[Any] = LoopClients(self._new_client)

    def __repr__(self) -> str:
        return f"OllamaChatModel(model={self.model!r}, host={self._shown_host!r})"

    # -- the ChatModel interface ------------------------------------------------

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """Send the prompt and wait for the whole answer."""
        body = self._body(prompt, stream=False)
        client = self._client()

        async def attempt() -> Any:
            try:
                return await client._request(dict, "POST", "/api/chat", json=body, stream=False)
            except (TypeError, AttributeError) as exc:  # the client's dict(**reply) refused it
                raise MalformedReplyError("a reply that is not a JSON object") from exc

        with self.translating_errors(model=body["model"]):
            data = await retry_async(attempt, policy=self.retry, retryable=_retryable)
            message = _message(data, "reply")
            return ChatResponse(
                (
                    Generation(
                        AssistantMessage(
                            text=_text(message.get("content")),
                            tool_calls=_tool_calls(message.get("tool_calls")),
                        ),
                        _generation_metadata(data.get("done_reason"), message.get("thinking")),
                    ),
                ),
                _metadata(data),
            )

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """Stream the answer: text deltas as they come, tool calls in the last chunk."""
        body = self._body(prompt, stream=True)
        client = self._client()

        async def open_stream() -> tuple[Any, Any]:
            # The request is sent when the first line is read, so that is what
            # is retried; once text has been yielded a failure is final.
            lines = await client._request(dict, "POST", "/api/chat", json=body, stream=True)
            return lines, await _next_line(lines)

        with self.translating_errors(model=body["model"]):
            lines, first = await retry_async(open_stream, policy=self.retry, retryable=_retryable)
        calls: list[ToolCall] = []
        last: Mapping[str, Any] = {}
        characters = 0
        with self.translating_errors(model=body["model"], streaming=True):
            try:
                part = first
                while part is not None:
                    message = _message(part, "stream line")
                    last = part
                    calls.extend(_tool_calls(message.get("tool_calls")))
                    text = _text(message.get("content"))
                    characters += len(text)
                    thinking = message.get("thinking")
                    if text or thinking:
                        yield ChatResponse(
                            (
                                Generation(
                                    AssistantMessage(text=text),
                                    _generation_metadata(None, thinking),
                                ),
                            ),
                            ChatResponseMetadata(model=part.get("model")),
                        )
                    part = await _next_line(lines)
            finally:
                await lines.aclose()
        if last.get("done") is not True:
            raise ModelError(
                f"Ollama at {self._shown_host} ended its streamed answer before it was "
                f"complete (no line with done: true after {characters} characters"
                f"{f' and {len(calls)} tool call(s)' if calls else ''}): try again, and "
                "check the server's log if it keeps happening."
            )
        yield ChatResponse(
            (
                Generation(
                    AssistantMessage(tool_calls=tuple(calls)),
                    GenerationMetadata(finish_reason=last.get("done_reason")),
                ),
            ),
            _metadata(last),
        )

    async def aclose(self) -> None:
        """Close the HTTP client of the running event loop (others close with their loop)."""
        client = self._clients.pop()
        if client is not None:
            await client._client.aclose()

    # -- translation -------------------------------------------------------------

    def _client(self) -> Any:
        return self._clients.get()

    def _new_client(self) -> Any:
        ollama = import_sdk("ollama", "ollama")
        transport = deadline_transport(import_sdk("httpx", "ollama"), self.timeout)
        return ollama.AsyncClient(host=self.host, timeout=self.timeout, transport=transport)

    def _body(self, prompt: Prompt, *, stream: bool) -> dict[str, Any]:
        options = effective_options(self.default_options, prompt)
        body: dict[str, Any] = {
            "model": options.model or self.model,
            "messages": to_ollama_messages(prompt.messages),
            "stream": stream,
        }
        definitions = tool_definitions(options)
        if definitions:
            body["tools"] = function_tools(definitions)
        if self.think is not None:
            body["think"] = self.think
        if self.keep_alive is not None:
            body["keep_alive"] = self.keep_alive
        if options.response_schema is not None:
            body["format"] = plain_json(options.response_schema)
        model_options: dict[str, Any] = {}
        for name, wire in (
            ("temperature", "temperature"),
            ("top_p", "top_p"),
            ("seed", "seed"),
            ("max_tokens", "num_predict"),
        ):
            value = getattr(options, name)
            if value is not None:
                model_options[wire] = value
        if options.stop:
            model_options["stop"] = list(options.stop)
        for key, value in options.extra.items():
            if key == "options" and isinstance(value, Mapping):
                model_options.update(value)
            elif key in _TOP_LEVEL_EXTRA:
                body[key] = value
            else:
                model_options[key] = value
        if model_options:
            body["options"] = model_options
        return body

    def translate_error(
        self, exc: Exception, *, model: str | None = None, streaming: bool = False
    ) -> ModelError:
        """One sentence for each way Ollama can fail."""
        model = model or self.model
        where = f"Ollama at {self._shown_host}"
        status = getattr(exc, "status_code", None)
        if _is_connection_error(exc):
            return ModelUnavailableError(
                f"Cannot reach {where}: start it with `ollama serve` "
                f"(and `ollama pull {model}`), or point OLLAMA_HOST at a running server."
            )
        fault = reply_fault(
            exc,
            where=where,
            what="an /api/chat reply",
            streaming=streaming,
            hint="check that OLLAMA_HOST (or host=) points at Ollama itself.",
        )
        if fault is not None:
            return fault
        if status == 404:
            return ModelUnavailableError(
                f"{where} does not have the model {model!r}: "
                f"run `ollama pull {model}` and try again."
            )
        if _is_timeout(exc):
            if streaming:
                return ModelError(
                    f"{where} did not finish its streamed answer within {self.timeout:g} s: "
                    "check the server, or raise timeout=."
                )
            return ModelError(
                f"{where} did not answer within {self.timeout:g} s "
                f"({self.retry.max_retries} retries): check the server, or raise timeout=."
            )
        if isinstance(status, int):
            detail = getattr(exc, "error", str(exc))
            if status < 0:  # an error line in the middle of a stream
                return ModelError(f"{where} reported an error: {detail}")
            return ModelError(f"{where} answered {status}: {detail}")
        return super().translate_error(exc, model=model, streaming=streaming)


async def _next_line(lines: Any) -> Any:
    """The next parsed line of a stream, or ``None`` at its end."""
    try:
        return await lines.__anext__()
    except StopAsyncIteration:
        return None
    except (TypeError, AttributeError) as exc:  # the client's part.get(...) refused the line
        raise MalformedReplyError("a stream line that is not a JSON object") from exc


def _message(data: Any, what: str) -> Mapping[str, Any]:
    """The ``message`` of a reply or stream line, or ``MalformedReplyError``."""
    if not isinstance(data, Mapping):
        raise MalformedReplyError(f"{json_kind(data)} where a {what} object belongs")
    message = data.get("message")
    if message is None:
        return {}
    if not isinstance(message, Mapping):
        raise MalformedReplyError(f"a {what} whose 'message' is {json_kind(message)}")
    return message


def _text(value: Any) -> str:
    if value is None or isinstance(value, str):
        return value or ""
    raise MalformedReplyError(f"a message whose 'content' is {json_kind(value)}")


def _is_connection_error(exc: BaseException) -> bool:
    if connection_refused(exc):
        return True
    if type(exc) is ConnectionError:  # the ollama client's own translation of ConnectError
        return True
    try:
        import httpx
    except ImportError:  # pragma: no cover - the ollama client depends on httpx
        return False
    return isinstance(exc, httpx.ConnectError)


def _is_timeout(exc: BaseException) -> bool:
    try:
        import httpx
    except ImportError:  # pragma: no cover - the ollama client depends on httpx
        return False
    return isinstance(exc, httpx.TimeoutException)


def _retryable(exc: BaseException) -> bool:
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and (status in (408, 429) or status >= 500):
        return True
    return _is_timeout(exc)


def to_ollama_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages in ``/api/chat`` form; each tool response becomes its own ``tool`` message."""
    wire: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            wire.append({"role": "system", "content": message.text})
        elif isinstance(message, UserMessage):
            wire.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "function": {
                            "name": call.name,
                            "arguments": arguments_to_object(call.arguments),
                        },
                    }
                    for call in message.tool_calls
                ]
            wire.append(entry)
        elif isinstance(message, ToolResponseMessage):
            wire.extend(
                {
                    "role": "tool",
                    "content": r.response_data,
                    "tool_name": r.name,
                    "tool_call_id": r.id,
                }
                for r in message.responses
            )
        else:  # pragma: no cover - the Message union is closed
            raise TypeError(f"Cannot send a {type(message).__name__} to Ollama")
    return wire


def _tool_calls(raw: Any) -> tuple[ToolCall, ...]:
    if raw is not None and not isinstance(raw, list):
        raise MalformedReplyError(f"a message whose 'tool_calls' is {json_kind(raw)}")
    calls = []
    for item in raw or ():
        function = item.get("function") if isinstance(item, Mapping) else None
        if not isinstance(function, Mapping):
            raise MalformedReplyError(f"a tool call without a 'function' object: {item!r}")
        calls.append(
            repair_tool_call(
                item.get("id"),
                function.get("name"),
                object_to_arguments(function.get("arguments")),
            )
        )
    return tuple(calls)


def _generation_metadata(finish_reason: str | None, thinking: str | None) -> GenerationMetadata:
    return GenerationMetadata(
        finish_reason=finish_reason, extra={"thinking": thinking} if thinking else {}
    )


def _metadata(data: Mapping[str, Any]) -> ChatResponseMetadata:
    prompt = data.get("prompt_eval_count") or 0
    completion = data.get("eval_count") or 0
    return ChatResponseMetadata(
        model=data.get("model"), usage=Usage(prompt, completion, prompt + completion)
    )
