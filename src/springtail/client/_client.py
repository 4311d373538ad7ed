"""ChatClient: the fluent front door to a chat model, its tools and advisors."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from springtail.client._defaults import ClientDefaults, check_advisor, flatten
from springtail.client._spec import ChatClientRequestSpec
from springtail.client._tools import ToolSource, resolve_sources
from springtail.messages import ChatOptions, Prompt, SystemMessage, UserMessage
from springtail.models._base import ChatModel

__all__ = ["ChatClient", "ChatClientBuilder"]


def _as_tuple(items: Any) -> tuple[Any, ...]:
    """``tools=`` and ``advisors=`` take a collection; a single item is forgiven."""
    if isinstance(items, Iterable) and not isinstance(items, str | bytes):
        return tuple(items)
    return (items,)


class ChatClient:
    """Talks to one chat model with default instructions, tools and advisors.

    Args:
        model: Any ``ChatModel``.
        system: Default system text for every request.
        user: Default user text, used when a request gives none.
        tools: Default tools: objects with ``@tool`` methods, ``@tool``
            functions, ``ToolCallback``s, or lazy providers (zero-argument
            callables returning such sources, asked once per request).
        advisors: Default advisors, ordered by their ``order``.
        tool_context: Default values for tools' ``ToolContext``.
        options: Default ``ChatOptions``; a request's options merge over them.
        tool_calling_auto_register: Add a ``ToolCallingAdvisor`` when a
            request has tools and its chain has none. ``False`` returns the
            model's tool calls to you unexecuted.
        advisor_params: Default advisor params for every request.

    Tools given here are resolved at once, so a mistake (an object without
    tools) fails when the client is built; a client is immutable and can be
    shared by threads and tasks.
    """

    __slots__ = ("_defaults",)

    def __init__(
        self,
        model: ChatModel,
        *,
        system: str | None = None,
        user: str | None = None,
        tools: Iterable[ToolSource] = (),
        advisors: Iterable[Any] = (),
        tool_context: Mapping[str, Any] | None = None,
        options: ChatOptions | None = None,
        tool_calling_auto_register: bool = True,
        advisor_params: Mapping[str, Any] | None = None,
    ) -> None:
        if not all(hasattr(model, attr) for attr in ("acall", "astream")):
            raise TypeError(
                f"ChatClient needs a ChatModel (with call/acall/stream/astream), got {model!r}"
            )
        if options is not None and not isinstance(options, ChatOptions):
            raise TypeError(f"options must be a ChatOptions, got {type(options).__name__}")
        sources = _as_tuple(tools)
        advisor_list = _as_tuple(advisors)
        for advisor in advisor_list:
            check_advisor(advisor)
        self._defaults = ClientDefaults(
            model=model,
            system=system,
            user=user,
            tool_sources=sources,
            tools=resolve_sources(sources),
            advisors=advisor_list,
            tool_context=dict(tool_context or {}),
            options=options,
            params=dict(advisor_params or {}),
            auto_register=tool_calling_auto_register,
        )

    @staticmethod
    def builder(model: ChatModel) -> ChatClientBuilder:
        """A Spring-style builder for a client around ``model``."""
        return ChatClientBuilder(model)

    @classmethod
    def create(cls, model: ChatModel) -> ChatClient:
        """A client with no defaults."""
        return cls(model)

    @property
    def model(self) -> ChatModel:
        """The chat model this client talks to."""
        return self._defaults.model

    def mutate(self) -> ChatClientBuilder:
        """A builder holding this client's defaults; what it builds is independent."""
        d = self._defaults
        builder = ChatClientBuilder(d.model)
        builder._system = d.system
        builder._user = d.user
        builder._tools = list(d.tool_sources)
        builder._advisors = list(d.advisors)
        builder._tool_context = dict(d.tool_context)
        builder._options = d.options
        builder._params = dict(d.params)
        builder._auto_register = d.auto_register
        return builder

    def prompt(self, prompt: str | Prompt | None = None) -> ChatClientRequestSpec:
        """Start a request: user text, a whole ``Prompt``, or nothing (set it later)."""
        if prompt is None or isinstance(prompt, str):
            return ChatClientRequestSpec(self._defaults, prompt)
        if isinstance(prompt, Prompt):
            spec = ChatClientRequestSpec(self._defaults)
            messages = list(prompt.messages)
            first = messages[0] if messages else None
            if isinstance(first, SystemMessage):
                spec.system(first.text)
                messages.pop(0)
            last = messages[-1] if messages else None
            if isinstance(last, UserMessage):
                spec.user(last.text)
                messages.pop()
            if messages:
                spec.messages(messages)
            if prompt.options is not None:
                spec.options(prompt.options)
            return spec
        raise TypeError(f"prompt() takes a str, a Prompt or nothing, got {type(prompt).__name__}")

    def __repr__(self) -> str:
        d = self._defaults
        return (
            f"ChatClient(model={d.model!r}, tools={len(d.tool_sources)}, "
            f"advisors={[getattr(a, 'name', repr(a)) for a in d.advisors]})"
        )


class ChatClientBuilder:
    """Collects a client's defaults; ``build()`` makes the immutable client.

    Tools, advisors, tool context and advisor params add up over repeated
    calls; system, user and options replace what was set before.
    """

    def __init__(self, model: ChatModel) -> None:
        self._model = model
        self._system: str | None = None
        self._user: str | None = None
        self._tools: list[ToolSource] = []
        self._advisors: list[Any] = []
        self._tool_context: dict[str, Any] = {}
        self._options: ChatOptions | None = None
        self._params: dict[str, Any] = {}
        self._auto_register = True

    def default_system(self, text: str) -> ChatClientBuilder:
        """System text sent with every request that sets none."""
        self._system = text
        return self

    def default_user(self, text: str) -> ChatClientBuilder:
        """User text sent with every request that sets none."""
        self._user = text
        return self

    def default_tools(self, *sources: ToolSource) -> ChatClientBuilder:
        """Tools offered on every request (added to any set before)."""
        self._tools.extend(flatten(sources))
        return self

    def default_advisors(self, *advisors: Any) -> ChatClientBuilder:
        """Advisors on every request (added to any set before)."""
        for advisor in flatten(advisors):
            check_advisor(advisor)
            self._advisors.append(advisor)
        return self

    def default_tool_context(self, context: Mapping[str, Any]) -> ChatClientBuilder:
        """``ToolContext`` values for every request (merged over any set before)."""
        self._tool_context.update(context)
        return self

    def default_options(self, options: ChatOptions) -> ChatClientBuilder:
        """``ChatOptions`` for every request."""
        self._options = options
        return self

    def default_advisor_params(self, params: Mapping[str, Any]) -> ChatClientBuilder:
        """Advisor params for every request (merged over any set before)."""
        self._params.update(params)
        return self

    def tool_calling_auto_register(self, enabled: bool) -> ChatClientBuilder:
        """Whether requests with tools get a ToolCallingAdvisor added automatically."""
        self._auto_register = enabled
        return self

    def build(self) -> ChatClient:
        """The client; later changes to this builder do not affect it."""
        return ChatClient(
            self._model,
            system=self._system,
            user=self._user,
            tools=self._tools,
            advisors=self._advisors,
            tool_context=self._tool_context,
            options=self._options,
            tool_calling_auto_register=self._auto_register,
            advisor_params=self._params,
        )
