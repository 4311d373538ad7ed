"""The values that travel between your code, the tool loop and a chat model.

Every type here is a frozen dataclass: a message, once built, is shared by the
prompt, the memory and the advisors without anyone being able to change it
under the others' feet. Sequences given to constructors are stored as tuples
for the same reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, TypeAlias

from springtail._tool_contract import ToolCallback

__all__ = [
    "AssistantMessage",
    "ChatOptions",
    "ChatResponse",
    "ChatResponseMetadata",
    "Generation",
    "GenerationMetadata",
    "Message",
    "Prompt",
    "SystemMessage",
    "ToolCall",
    "ToolResponse",
    "ToolResponseMessage",
    "Usage",
    "UserMessage",
]


@dataclass(frozen=True, slots=True)
class SystemMessage:
    """Instructions that frame the whole conversation."""

    text: str
    role: ClassVar[Literal["system"]] = "system"


@dataclass(frozen=True, slots=True)
class UserMessage:
    """What the person said."""

    text: str
    role: ClassVar[Literal["user"]] = "user"


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call the model asked for.

    ``arguments`` stays the raw JSON text the model produced: it is validated
    only when the tool runs, so a malformed call can be answered with an error
    the model can read instead of failing while the response is parsed.
    """

    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class AssistantMessage:
    """The model's turn: text, tool calls, or both.

    ``metadata`` is what a provider needs back on a later request and the
    user never reads, as Spring AI's ``AssistantMessage`` metadata: the
    embedded model keeps the plan of a request's calls there, so a turn that
    pauses between its calls resumes from the conversation alone (memory, a
    database, another process). It holds JSON values only, is stored with the
    message by every chat memory, and is never part of ``text``.
    """

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict, hash=False)
    role: ClassVar[Literal["assistant"]] = "assistant"

    def __post_init__(self) -> None:
        if not isinstance(self.tool_calls, tuple):
            object.__setattr__(self, "tool_calls", tuple(self.tool_calls))

    def has_tool_calls(self) -> bool:
        """Whether the model asked for at least one tool call."""
        return bool(self.tool_calls)


@dataclass(frozen=True, slots=True)
class ToolResponse:
    """The answer to one tool call, matched to it by ``id``.

    ``is_error`` marks answers that report a failure (bad arguments, unknown
    tool, timeout, denied approval, an exception) rather than a result.
    """

    id: str
    name: str
    response_data: str
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class ToolResponseMessage:
    """The answers to all tool calls of one assistant message, in call order."""

    responses: tuple[ToolResponse, ...]
    role: ClassVar[Literal["tool"]] = "tool"

    def __post_init__(self) -> None:
        if not isinstance(self.responses, tuple):
            object.__setattr__(self, "responses", tuple(self.responses))


Message: TypeAlias = SystemMessage | UserMessage | AssistantMessage | ToolResponseMessage
"""Any message of a conversation."""


def _merge_mappings(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    if not override:
        return dict(base)
    if not base:
        return dict(override)
    return {**base, **override}


@dataclass(frozen=True, slots=True)
class ChatOptions:
    """Request options shared by every provider.

    ``None`` means "not set", so that [`merge`][] can tell a value chosen on
    purpose from one left alone. Provider-specific settings go in ``extra``.

    ``response_schema`` is a JSON Schema the answer must match. A provider that
    can enforce it sends it natively (OpenAI ``response_format``, Ollama
    ``format``, a grammar on the embedded model); one that cannot leaves it to
    the instructions the client adds to the prompt.
    """

    model: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    stop: tuple[str, ...] | None = None
    seed: int | None = None
    parallel_tool_calls: bool | None = None
    response_schema: Mapping[str, Any] | None = None
    tool_callbacks: tuple[ToolCallback, ...] = ()
    tool_names: tuple[str, ...] = ()
    tool_context: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    _SCALARS: ClassVar[tuple[str, ...]] = (
        "model",
        "temperature",
        "top_p",
        "max_tokens",
        "stop",
        "seed",
        "parallel_tool_calls",
        "response_schema",
    )

    def __post_init__(self) -> None:
        if self.stop is not None and not isinstance(self.stop, tuple):
            stop: Any = self.stop
            object.__setattr__(self, "stop", (stop,) if isinstance(stop, str) else tuple(stop))
        for name in ("tool_callbacks", "tool_names"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))

    def merge(self, override: ChatOptions | None) -> ChatOptions:
        """Return these options with every field set in ``override`` taking its place.

        Scalars set in ``override`` win (``response_schema`` counts as one: a
        schema set in ``override`` replaces this one whole); tool callbacks and tool names given in
        ``override`` replace these ones (a request's tools replace a model's
        defaults); ``tool_context`` and ``extra`` are merged key by key with
        ``override`` winning.
        """
        if override is None or override is self:
            return self
        changes: dict[str, Any] = {
            name: getattr(override, name)
            for name in self._SCALARS
            if getattr(override, name) is not None
        }
        if override.tool_callbacks:
            changes["tool_callbacks"] = override.tool_callbacks
        if override.tool_names:
            changes["tool_names"] = override.tool_names
        if override.tool_context:
            changes["tool_context"] = _merge_mappings(self.tool_context, override.tool_context)
        if override.extra:
            changes["extra"] = _merge_mappings(self.extra, override.extra)
        return self._replace(changes) if changes else self

    def copy_with(self, **changes: Any) -> ChatOptions:
        """Return a copy with the given fields replaced."""
        unknown = changes.keys() - _OPTION_FIELDS
        if unknown:
            raise TypeError(f"ChatOptions has no field(s) {sorted(unknown)}")
        return self._replace(changes)

    def _replace(self, changes: Mapping[str, Any]) -> ChatOptions:
        # dataclasses.replace() re-runs __init__ through keyword parsing and
        # costs several microseconds; options are copied on every request, so
        # copy the slots directly and re-apply only the normalisation.
        new = object.__new__(ChatOptions)
        for name in _OPTION_FIELDS:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        new.__post_init__()
        return new

    def to_dict(self) -> dict[str, Any]:
        """The set scalar fields, for logging and provider translation."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name in self._SCALARS and getattr(self, f.name) is not None
        }


_OPTION_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(ChatOptions))


@dataclass(frozen=True, slots=True)
class Prompt:
    """The messages and options of one model call.

    A plain string is accepted as a single user message.
    """

    messages: tuple[Message, ...]
    options: ChatOptions | None = None

    def __init__(
        self,
        messages: str | Message | Iterable[Message],
        options: ChatOptions | None = None,
    ) -> None:
        msgs: tuple[Message, ...]
        if isinstance(messages, str):
            msgs = (UserMessage(messages),)
        elif isinstance(
            messages, SystemMessage | UserMessage | AssistantMessage | ToolResponseMessage
        ):
            msgs = (messages,)
        else:
            msgs = tuple(messages)
        object.__setattr__(self, "messages", msgs)
        object.__setattr__(self, "options", options)

    @property
    def system_message(self) -> SystemMessage | None:
        """The first system message, if any."""
        for message in self.messages:
            if isinstance(message, SystemMessage):
                return message
        return None

    @property
    def last_user_message(self) -> UserMessage | None:
        """The most recent user message, if any."""
        for message in reversed(self.messages):
            if isinstance(message, UserMessage):
                return message
        return None

    def with_messages(self, messages: Sequence[Message]) -> Prompt:
        """The same options around other messages."""
        return Prompt(messages, self.options)

    def with_options(self, options: ChatOptions | None) -> Prompt:
        """The same messages with other options."""
        return Prompt(self.messages, options)


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts; ``+`` adds them up over the iterations of a tool loop."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
        )


@dataclass(frozen=True)
class GenerationMetadata:
    """Why a generation ended, plus provider details in ``extra``."""

    finish_reason: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Generation:
    """One candidate answer of a response."""

    output: AssistantMessage
    metadata: GenerationMetadata = field(default_factory=GenerationMetadata)


@dataclass(frozen=True, slots=True)
class ChatResponseMetadata:
    """Response id, the model that answered, and token usage."""

    id: str | None = None
    model: str | None = None
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True, slots=True)
class ChatResponse:
    """What a model returned for one call (or one chunk of a stream)."""

    results: tuple[Generation, ...]
    metadata: ChatResponseMetadata = field(default_factory=ChatResponseMetadata)

    def __post_init__(self) -> None:
        if not isinstance(self.results, tuple):
            object.__setattr__(self, "results", tuple(self.results))

    @property
    def result(self) -> Generation | None:
        """The first generation, or ``None`` when there is none."""
        return self.results[0] if self.results else None

    @property
    def text(self) -> str:
        """The first generation's text ("" when there is none)."""
        return self.results[0].output.text if self.results else ""

    def has_tool_calls(self) -> bool:
        """Whether any generation asks for a tool call."""
        return any(g.output.tool_calls for g in self.results)

    @classmethod
    def of(
        cls,
        message: AssistantMessage | str,
        *,
        finish_reason: str | None = None,
        usage: Usage | None = None,
        model: str | None = None,
        id: str | None = None,
    ) -> ChatResponse:
        """A one-generation response: the common case, without the nesting."""
        output = AssistantMessage(message) if isinstance(message, str) else message
        return cls(
            (Generation(output, GenerationMetadata(finish_reason=finish_reason)),),
            ChatResponseMetadata(id=id, model=model, usage=usage or Usage()),
        )
