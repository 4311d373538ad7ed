"""The request spec: ``client.prompt(...)`` and its fluent setters.

Request settings add to the client's defaults: tools, advisors, tool context
and advisor params add up (request values winning for equal keys), a request
system text replaces the default one, and request options are merged over the
client's options field by field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from springtail._sync import run_sync
from springtail.client._chain import OUTPUT_FORMAT_KEY
from springtail.client._defaults import ClientDefaults, check_advisor, flatten
from springtail.client._entity import format_instructions, json_schema, reask_entity
from springtail.client._request import PreparedRequest, build_messages
from springtail.client._responses import CallResponse, StreamResponse
from springtail.client._tools import ToolSource, resolve_sources
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Message,
    SystemMessage,
    ToolResponseMessage,
    UserMessage,
)

if TYPE_CHECKING:
    from springtail.execution import ToolCallDecision
    from springtail.memory import PausedTurn

__all__ = ["ChatClientRequestSpec"]

T = TypeVar("T")

_MESSAGE_TYPES = (SystemMessage, UserMessage, AssistantMessage, ToolResponseMessage)
_MESSAGE_TYPE_SET = frozenset(_MESSAGE_TYPES)


class ChatClientRequestSpec:
    """One request being described; finish it with ``call()``, ``entity()`` or ``stream()``.

    Every setter returns the spec, so calls chain. The spec is a builder:
    ``call()``/``stream()`` take a snapshot, so changing the spec afterwards
    does not affect a response already returned. ``call()``, ``acall()``,
    ``entity()`` and ``aentity()`` run the request at once.
    """

    __slots__ = (
        "_advisors",
        "_decisions",
        "_defaults",
        "_messages",
        "_options",
        "_params",
        "_resume",
        "_system",
        "_tool_context",
        "_tools",
        "_user",
    )

    def __init__(self, defaults: ClientDefaults, user: str | None = None) -> None:
        self._defaults = defaults
        self._system: str | None = None
        self._user = user
        self._messages: list[Message] = []
        self._tools: list[ToolSource] = []
        self._tool_context: dict[str, Any] = {}
        self._advisors: list[Any] = []
        self._params: dict[str, Any] = {}
        self._options: ChatOptions | None = None
        self._decisions: dict[str, ToolCallDecision] | None = None
        self._resume: PausedTurn | None = None

    def system(self, text: str) -> ChatClientRequestSpec:
        """The system text for this request, in place of the client's default."""
        self._system = text
        return self

    def user(self, text: str) -> ChatClientRequestSpec:
        """What the user says; sent after any ``messages()``."""
        self._user = text
        return self

    def messages(self, *messages: Message | Iterable[Message]) -> ChatClientRequestSpec:
        """Earlier messages of the conversation, sent between the system text and the user text."""
        items = flatten(messages)
        # One fast pass over a possibly long history; the slow check only finds the culprit.
        if not _MESSAGE_TYPE_SET.issuperset(map(type, items)):
            for message in items:
                if not isinstance(message, _MESSAGE_TYPES):
                    raise TypeError(
                        f"messages() takes SystemMessage, UserMessage, AssistantMessage or "
                        f"ToolResponseMessage objects, got {type(message).__name__}: {message!r}"
                    )
        self._messages.extend(items)
        return self

    def tools(self, *sources: ToolSource) -> ChatClientRequestSpec:
        """More tools for this request, added to the client's default tools."""
        self._tools.extend(flatten(sources))
        return self

    def tool_context(self, context: Mapping[str, Any]) -> ChatClientRequestSpec:
        """Values for tools' ``ToolContext``, merged over the client's default ones."""
        self._tool_context.update(context)
        return self

    def advisors(self, *advisors: Any) -> ChatClientRequestSpec:
        """More advisors for this request, added to the client's default advisors."""
        for advisor in flatten(advisors):
            check_advisor(advisor)
            self._advisors.append(advisor)
        return self

    def advisor_param(self, key: str, value: Any) -> ChatClientRequestSpec:
        """A value advisors read from the request context, e.g. the conversation id."""
        self._params[key] = value
        return self

    def advisor_params(self, params: Mapping[str, Any]) -> ChatClientRequestSpec:
        """Several advisor params at once."""
        self._params.update(params)
        return self

    def options(self, options: ChatOptions) -> ChatClientRequestSpec:
        """Options for this request, merged over the client's default options."""
        if not isinstance(options, ChatOptions):
            raise TypeError(f"options() takes a ChatOptions, got {type(options).__name__}")
        self._options = options if self._options is None else self._options.merge(options)
        return self

    # -- resuming a paused turn ---------------------------------------------------

    def approve(self, *call_ids: str) -> ChatClientRequestSpec:
        """Resume the conversation's paused turn, running these waiting calls.

        The request then brings no new message: the tool loop takes the paused
        turn from the conversation's chat memory (or from [`resume`][]),
        runs the approved calls, answers the denied ones, and the model goes
        on. Every call that waits needs a decision in the same request.
        """
        return self.decide(dict.fromkeys(call_ids, True))

    def deny(self, *call_ids: str, message: str | None = None) -> ChatClientRequestSpec:
        """Resume the paused turn without running these calls; the model reads ``message``."""
        from springtail.execution import ToolCallDecision

        return self.decide(dict.fromkeys(call_ids, ToolCallDecision.deny(message)))

    def decide(self, decisions: Mapping[str, ToolCallDecision | bool]) -> ChatClientRequestSpec:
        """Decisions for the paused turn's calls by id: True, False or a ``ToolCallDecision``."""
        from springtail.execution._deferred import as_decisions

        found = as_decisions(decisions)
        self._decisions = {**(self._decisions or {}), **found}
        return self

    def resume(self, turn: PausedTurn | str) -> ChatClientRequestSpec:
        """Resume this paused turn (a ``PausedTurn``, or its JSON) instead of one in chat memory.

        For code without chat memory, which kept ``response.paused_turn()``
        (it carries the conversation), and for code that took the turn from
        its memory itself (``memory.take_paused_turn(...)``, already decided).
        """
        from springtail.memory import PausedTurn

        if isinstance(turn, str):
            turn = PausedTurn.from_json(turn)
        elif not isinstance(turn, PausedTurn):
            raise TypeError(f"resume() takes a PausedTurn or its JSON, got {type(turn).__name__}")
        self._resume = turn
        return self

    def _prepare(self) -> PreparedRequest:
        defaults = self._defaults
        options = defaults.options
        if self._options is not None:
            options = self._options if options is None else options.merge(self._options)
        tools = (defaults.tools, resolve_sources(self._tools)) if self._tools else (defaults.tools,)
        tool_context = (
            {**defaults.tool_context, **self._tool_context}
            if self._tool_context
            else defaults.tool_context
        )
        system = self._system if self._system is not None else defaults.system
        resuming = self._decisions is not None or self._resume is not None
        if resuming:
            if self._user:
                raise ValueError(
                    "A request that resumes a paused turn brings decisions, not a new message; "
                    "send the message once the turn is answered."
                )
            user = None
            earlier = [*self._resume.messages, *self._messages] if self._resume else self._messages
        else:
            user = self._user if self._user is not None else defaults.user
            earlier = self._messages
        messages = build_messages(system, earlier, user)
        if not messages and not resuming:
            raise ValueError(
                "The request has no messages: give a user text with prompt('...') or "
                ".user('...'), or earlier messages with .messages(...)."
            )
        adds_nothing = not (self._tools or self._tool_context or self._options)
        return PreparedRequest(
            ready_options=defaults.ready_options() if adds_nothing else None,
            model=defaults.model,
            messages=messages,
            options=options,
            tools=tools,
            tool_context=tool_context,
            advisors=defaults.advisors + tuple(self._advisors),
            params={**defaults.params, **self._params} if defaults.params else dict(self._params),
            auto_register=defaults.auto_register,
            decisions=self._decisions,
            resume=self._resume,
        )

    def call(self) -> CallResponse:
        """Run the request now and return its response, which keeps the result.

        Like every Python client's call, this runs the request: tools run,
        memory is saved and configuration errors are raised here, even when
        the result is never read. It works inside a running event loop too
        (the request then runs on a helper thread); prefer [`acall`][] there.
        """
        request = self._prepare()
        return CallResponse(request, run_sync(request.call()))

    async def acall(self) -> CallResponse:
        """Run the request now and return its response, from async code."""
        request = self._prepare()
        return CallResponse(request, await request.call())

    def entity(self, target: type[T], *, max_retries: int = 1) -> T:
        """Run the request for an answer shaped like ``target`` and return it validated.

        See [`aentity`][].
        """
        return run_sync(self.aentity(target, max_retries=max_retries))

    async def aentity(self, target: type[T], *, max_retries: int = 1) -> T:
        """Run the request for an answer shaped like ``target`` and return it validated.

        The JSON Schema of ``target`` goes with the first request, in
        ``ChatOptions.response_schema`` (providers that support it enforce
        it natively) and as instructions added to the last user message at
        the model call (memory and logs keep what the user wrote). An answer
        that does not validate is sent back with the validation error, at
        most ``max_retries`` times, as Spring AI's structured-output
        validation does.

        Raises:
            ValueError: no answer, the retries included, is valid JSON of
                that shape.
        """
        request = self._prepare()
        schema_options = ChatOptions(response_schema=json_schema(target))
        options = (
            schema_options if request.options is None else request.options.merge(schema_options)
        )
        request = replace(request, options=options, ready_options=None)
        result = await request.call({OUTPUT_FORMAT_KEY: format_instructions(target)})
        value: T = await reask_entity(request.reask, result.chat_response.text, target, max_retries)
        return value

    def stream(self) -> StreamResponse:
        """Stream the answer; the request runs when a view of it is iterated."""
        return StreamResponse(self._prepare())

    def astream(self) -> StreamResponse:
        """The same as [`stream`][]; its views support ``async for`` as well as ``for``."""
        return StreamResponse(self._prepare())
