"""ToolCallingAdvisor: the tool loop, and the only one in springtail.

Call the model; when the response asks for tools, run them with the
ToolCallingManager and call the model again with the results, until it
answers. The advisors after this one in the chain (larger ``order``) sit
inside the loop and run on every iteration; those before it see one request
and one final response.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from springtail.client._advisor import (
    HIGHEST_PRECEDENCE,
    LOWEST_PRECEDENCE,
    CallAdvisorChain,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisorChain,
)
from springtail.client._aggregate import StreamAggregator
from springtail.client._events import ToolEventQueue, TurnPaused
from springtail.client._paused_turns import (
    APPROVAL_REQUIRED_FINISH_REASON,
    STORE_KEY,
    pause_turn,
    paused_response,
    resumed_turn,
)
from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    ChatResponseMetadata,
    Generation,
    GenerationMetadata,
    Message,
    Prompt,
    ToolResponseMessage,
    Usage,
)

if TYPE_CHECKING:
    from springtail.client._tool_search import ToolSearch, ToolSearchTurn
    from springtail.execution import (
        ToolCallingManager,
        ToolCallLimitExceededError,
        ToolExecutionResult,
    )

__all__ = [
    "APPROVAL_REQUIRED_FINISH_REASON",
    "DEFAULT_MAX_MODEL_CALLS",
    "LIMIT_EXCEEDED_FINISH_REASON",
    "MODEL_CALL_LIMIT_FINISH_REASON",
    "ToolCallingAdvisor",
]

LIMIT_EXCEEDED_FINISH_REASON = "toolCallLimitExceeded"
MODEL_CALL_LIMIT_FINISH_REASON = "modelCallLimitExceeded"
DEFAULT_MAX_MODEL_CALLS = 50
"""Model calls one turn may make; pydantic-ai's ``UsageLimits`` uses the same default."""

_NO_USAGE = Usage()


def _has_tool_calls(response: ChatResponse) -> bool:
    return response.has_tool_calls()


def _with_usage(response: ChatResponse, usage: Usage) -> ChatResponse:
    if response.metadata.usage == usage:
        return response
    return replace(response, metadata=replace(response.metadata, usage=usage))


def _limit_response(error: ToolCallLimitExceededError, last: ChatResponse) -> ChatResponse:
    """The answer the caller gets when the manager refuses more tool calls."""
    text = (
        f"Tool call limit exceeded: {error} The request was stopped before the model "
        "could answer; the tool calls within the limit did run."
    )
    metadata = GenerationMetadata(
        finish_reason=LIMIT_EXCEEDED_FINISH_REASON,
        extra={"tool_name": error.tool_name, "limit": error.limit},
    )
    return ChatResponse((Generation(AssistantMessage(text), metadata),), last.metadata)


def _model_limit_response(limit: int, last: ChatResponse) -> ChatResponse:
    """The answer the caller gets when the turn has used all its model calls."""
    text = (
        f"Model call limit exceeded: the model was called {limit} times in this turn and "
        "still asked for tools, so the request was stopped before running them."
    )
    metadata = GenerationMetadata(
        finish_reason=MODEL_CALL_LIMIT_FINISH_REASON, extra={"limit": limit}
    )
    return ChatResponse((Generation(AssistantMessage(text), metadata),), last.metadata)


def _new_messages(prompt: Prompt, result: ToolExecutionResult) -> tuple[Message, ...]:
    """What one execution added to the conversation: the tool call and its responses."""
    return tuple(result.conversation_history[len(prompt.messages) :])


class ToolCallingAdvisor:
    """Runs the tool loop: model → tools → model … until the model answers.

    Args:
        tool_calling_manager: Runs the tool calls; default: a
            ``ToolCallingManager()`` with its default settings (created on
            first use).
        order: Where the loop sits in the chain. Advisors with a larger
            order run again on every iteration. Must lie strictly between
            ``HIGHEST_PRECEDENCE`` and ``LOWEST_PRECEDENCE``, so that there
            is always room for an advisor outside and one inside the loop.
        eligibility_checker: Whether a response's tool calls should run;
            default: it has tool calls. Returning ``False`` ends the loop with
            that response, tool calls unexecuted.
        conversation_history_enabled: ``True`` sends the whole conversation
            on every iteration. ``False`` sends only the system message and
            the latest tool responses, for when a memory advisor inside the
            loop supplies the history.
        max_model_calls: Model calls one turn may make (default 50). A
            model that keeps asking for tools, even for ones the call limits
            refuse, ends the turn here instead of looping for ever.
        tool_search: Offer each model call only the tools it needs out of a
            large set ([`ToolSearch`][]: retrieved by the framework, or
            found by the model with a search tool); ``None`` (the default)
            offers every tool on every call. Only offered tools run.

    The loop ends when the checker says no, when every executed tool is
    return-direct (the caller gets the tool results as generations), when
    the manager raises ``ToolCallLimitExceededError`` (the caller gets one
    generation saying so, ``finish_reason == "toolCallLimitExceeded"``), or
    when the turn's model calls are used up and the last response still asks
    for tools (``finish_reason == "modelCallLimitExceeded"``; those tools do
    not run), or when the approver deferred calls to a person
    (``finish_reason == "approvalRequired"``: the other calls of that reply
    ran, and the turn is stored in the request's chat memory, or handed back
    as a ``PausedTurn``; a later request with the decisions resumes it).
    The call limits count the whole turn, kept by the loop in a
    ``ToolTurn``, whatever the prompt carries. Token usage of the final
    response is the sum over all iterations.

    In a stream, the loop yields each tool call's start, approval and end
    as it happens, as responses whose ``event`` is set (see
    [`ChatClientResponse`][]).
    """

    __slots__ = ("_checker", "_history", "_manager", "_max_model_calls", "_order", "_search")

    def __init__(
        self,
        tool_calling_manager: ToolCallingManager | None = None,
        order: int = HIGHEST_PRECEDENCE + 300,
        eligibility_checker: Callable[[ChatResponse], bool] | None = None,
        conversation_history_enabled: bool = True,
        *,
        max_model_calls: int = DEFAULT_MAX_MODEL_CALLS,
        tool_search: ToolSearch | None = None,
    ) -> None:
        if isinstance(order, bool) or not isinstance(order, int):
            raise TypeError(f"order must be an int, got {type(order).__name__}")
        if not HIGHEST_PRECEDENCE < order < LOWEST_PRECEDENCE:
            raise ValueError(
                f"ToolCallingAdvisor order must lie strictly between HIGHEST_PRECEDENCE "
                f"({HIGHEST_PRECEDENCE}) and LOWEST_PRECEDENCE ({LOWEST_PRECEDENCE}), got {order}; "
                "the default, HIGHEST_PRECEDENCE + 300, leaves room on both sides"
            )
        if isinstance(max_model_calls, bool) or not isinstance(max_model_calls, int):
            raise TypeError(f"max_model_calls must be an int, got {max_model_calls!r}")
        if max_model_calls < 1:
            raise ValueError(f"max_model_calls must be at least 1, got {max_model_calls}")
        self._manager = tool_calling_manager
        self._order = order
        self._checker = eligibility_checker or _has_tool_calls
        self._history = conversation_history_enabled
        self._max_model_calls = max_model_calls
        self._search = tool_search

    @property
    def name(self) -> str:
        """The advisor's name, for logs."""
        return "ToolCallingAdvisor"

    @property
    def order(self) -> int:
        """Where the loop sits in the chain (smaller = outer)."""
        return self._order

    @property
    def conversation_history_enabled(self) -> bool:
        """Whether each iteration resends the whole conversation."""
        return self._history

    @property
    def max_model_calls(self) -> int:
        """Model calls one turn may make."""
        return self._max_model_calls

    @property
    def tool_search(self) -> ToolSearch | None:
        """How each model call's tools are narrowed, or ``None`` (every tool, every call)."""
        return self._search

    @property
    def tool_calling_manager(self) -> ToolCallingManager:
        """The manager that runs the tool calls (the default one is built on first use)."""
        manager = self._manager
        if manager is None:
            from springtail.execution import ToolCallingManager

            manager = ToolCallingManager()
            self._manager = manager
        return manager

    def __repr__(self) -> str:
        return (
            f"ToolCallingAdvisor(order={self._order}, "
            f"conversation_history_enabled={self._history}, "
            f"max_model_calls={self._max_model_calls}"
            + (f", tool_search={self._search!r})" if self._search is not None else ")")
        )

    def _begin(self) -> ToolSearchTurn | None:
        return self._search.begin_turn() if self._search is not None else None

    def _with_named_tools(self, request: ChatClientRequest) -> ChatClientRequest:
        """Turn ``tool_names`` into callbacks so the model is told about those tools.

        Providers describe only ``tool_callbacks`` to the model; a tool asked
        for by name is looked up once here, through the manager's resolver,
        and travels with the request from then on.
        """
        options = request.prompt.options
        if options is None or not options.tool_names:
            return request
        present = {cb.tool_definition.name for cb in options.tool_callbacks}
        wanted = [name for name in options.tool_names if name not in present]
        if not wanted:
            return request
        manager = self.tool_calling_manager
        manager.resolve_tool_definitions(options)  # raises, naming any unknown tool
        resolver = manager.resolver
        assert resolver is not None  # resolve_tool_definitions found them all
        found = tuple(cb for cb in map(resolver.resolve, wanted) if cb is not None)
        options = options.copy_with(tool_callbacks=options.tool_callbacks + found)
        return request.with_prompt(request.prompt.with_options(options))

    def _next_request(
        self, current: ChatClientRequest, result: ToolExecutionResult
    ) -> ChatClientRequest:
        """The next iteration's request, carrying the messages this iteration added."""
        prompt = current.prompt
        added = _new_messages(prompt, result)
        history = result.conversation_history
        if self._history:
            prompt = prompt.with_messages(history)
        else:
            messages: list[Message] = []
            system = prompt.system_message
            if system is not None:
                messages.append(system)
            if history and isinstance(history[-1], ToolResponseMessage):
                messages.append(history[-1])
            prompt = prompt.with_messages(messages)
        return ChatClientRequest(prompt, current.context, added)

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        """Call the model, run its tool calls and call it again until it answers.

        A request that resumes a paused turn (it brings decisions) first runs
        the approved calls of that turn and answers the denied ones, then
        calls the model with the results. A call whose approver defers it
        ends the turn: the response's finish reason is ``"approvalRequired"``.
        """
        from springtail.execution import ToolCallLimitExceededError, ToolTurn

        manager = self.tool_calling_manager
        turn = ToolTurn()
        usage = _NO_USAGE
        current = self._with_named_tools(request)
        search = self._begin()
        model_calls = 0
        resumed = await resumed_turn(current.context)
        if resumed is not None:
            replay = ChatResponse.of(resumed.assistant)
            try:
                result = await manager.aexecute_tool_calls(
                    current.prompt,
                    replay,
                    turn=turn,
                    decisions=resumed.decisions,
                    results=resumed.results,
                )
            except ToolCallLimitExceededError as error:
                return ChatClientResponse(_limit_response(error, replay), current.context)
            if result.return_direct:
                return ChatClientResponse(_direct_response(result, replay), current.context)
            current = self._next_request(current, result)
        while True:
            offered = search.offer(current) if search is not None else current
            response = await chain.next_call(offered)
            model_calls += 1
            chat_response = response.chat_response
            usage = usage + chat_response.metadata.usage
            if not self._checker(chat_response):
                return response.with_chat_response(_with_usage(chat_response, usage))
            if model_calls >= self._max_model_calls:
                final = _model_limit_response(model_calls, chat_response)
                return response.with_chat_response(_with_usage(final, usage))
            if search is not None:
                offered = search.admit(offered, current, chat_response)
            try:
                result = await manager.aexecute_tool_calls(offered.prompt, chat_response, turn=turn)
            except ToolCallLimitExceededError as error:
                final = _limit_response(error, chat_response)
                return response.with_chat_response(_with_usage(final, usage))
            if result.pending_approvals:
                store = current.context.get(STORE_KEY)
                paused = await pause_turn(current.prompt, chat_response, result, store)
                final = paused_response(paused, chat_response)
                return response.with_chat_response(_with_usage(final, usage))
            if result.return_direct:
                final = _direct_response(result, chat_response)
                return response.with_chat_response(_with_usage(final, usage))
            current = self._next_request(current, result)

    async def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]:
        """Stream the final answer; tool calls run between iterations and are streamed as events.

        Chunks without tool calls pass through at once, so the final answer
        streams live. Chunks carrying tool calls are held back and the calls
        run once the model's stream has ended (when every call is complete);
        each call's start, approval and end go out as event responses while
        they happen. Usage of the iterations whose chunks were held back is
        added to the next chunk that goes out, so summing chunk usage gives
        the total. A turn that pauses for a person's decision ends with a
        ``TurnPaused`` event and the ``"approvalRequired"`` response.
        """
        from springtail.execution import ToolCallLimitExceededError, ToolTurn

        manager = self.tool_calling_manager
        turn = ToolTurn()
        carry = _NO_USAGE
        current = self._with_named_tools(request)
        search = self._begin()
        model_calls = 0
        resumed = await resumed_turn(current.context)
        if resumed is not None:
            replay = ChatResponse.of(resumed.assistant)
            outcome = _Outcome()
            try:
                async for event in _executing(
                    manager.aexecute_tool_calls(
                        current.prompt,
                        replay,
                        turn=turn,
                        listeners=(outcome.events,),
                        decisions=resumed.decisions,
                        results=resumed.results,
                    ),
                    outcome,
                    current.context,
                ):
                    yield event
            except ToolCallLimitExceededError as error:
                yield ChatClientResponse(_limit_response(error, replay), current.context)
                return
            result = outcome.result
            if result.return_direct:
                yield ChatClientResponse(_direct_response(result, replay), current.context)
                return
            current = self._next_request(current, result)
        while True:
            offered = search.offer(current) if search is not None else current
            aggregator = StreamAggregator()
            held: list[ChatClientResponse] = []
            held_usage = _NO_USAGE
            last: ChatClientResponse | None = None
            async for response in chain.next_stream(offered):
                if response.event is not None:
                    yield response  # a nested loop's event: pass it on
                    continue
                chunk = response.chat_response
                aggregator.add(chunk)
                last = response
                if chunk.has_tool_calls():
                    held.append(response)
                    held_usage = held_usage + chunk.metadata.usage
                    continue
                if carry != _NO_USAGE:
                    response = response.with_chat_response(
                        _with_usage(chunk, chunk.metadata.usage + carry)
                    )
                    carry = _NO_USAGE
                yield response
            model_calls += 1
            full = aggregator.response()
            if not self._checker(full):
                for response in held:
                    if carry != _NO_USAGE:
                        chunk = response.chat_response
                        response = response.with_chat_response(
                            _with_usage(chunk, chunk.metadata.usage + carry)
                        )
                        carry = _NO_USAGE
                    yield response
                if carry != _NO_USAGE:
                    yield ChatClientResponse(_usage_only(full, carry), current.context)
                return
            carry = carry + held_usage
            context = last.context if last is not None else current.context
            if model_calls >= self._max_model_calls:
                final = _model_limit_response(model_calls, full)
                yield ChatClientResponse(_with_usage(final, carry), context)
                return
            if search is not None:
                offered = search.admit(offered, current, full)
            outcome = _Outcome()
            try:
                async for event in _executing(
                    manager.aexecute_tool_calls(
                        offered.prompt, full, turn=turn, listeners=(outcome.events,)
                    ),
                    outcome,
                    context,
                ):
                    yield event
            except ToolCallLimitExceededError as error:
                final = _limit_response(error, full)
                yield ChatClientResponse(_with_usage(final, carry), context)
                return
            result = outcome.result
            if result.pending_approvals:
                store = current.context.get(STORE_KEY)
                paused = await pause_turn(current.prompt, full, result, store)
                yield ChatClientResponse(_EMPTY, context, TurnPaused(paused))
                final = paused_response(paused, full, streamed=True)
                yield ChatClientResponse(_with_usage(final, carry), context)
                return
            if result.return_direct:
                final = _direct_response(result, full)
                yield ChatClientResponse(_with_usage(final, carry), context)
                return
            current = self._next_request(current, result)


class _Outcome:
    """What one streamed execution produced: its events' queue, then its result."""

    __slots__ = ("events", "result")

    def __init__(self) -> None:
        self.events = ToolEventQueue()
        self.result: ToolExecutionResult


async def _executing(
    execution: Coroutine[Any, Any, ToolExecutionResult],
    outcome: _Outcome,
    context: dict[str, Any],
) -> AsyncIterator[ChatClientResponse]:
    """Run ``execution``, yielding its tool events as they happen, into ``outcome``."""
    events = outcome.events
    task = asyncio.get_running_loop().create_task(execution)
    task.add_done_callback(events.close)
    try:
        while (event := await events.queue.get()) is not None:
            yield ChatClientResponse(_EMPTY, context, event)
        outcome.result = task.result()
    finally:
        if not task.done():
            # The consumer stopped or was cancelled mid-execution: stop the tools.
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        elif not task.cancelled():
            task.exception()  # seen here or re-raised by the loop (Ctrl-C)


def _direct_response(result: ToolExecutionResult, last: ChatResponse) -> ChatResponse:
    """The tools' results as the answer, for a turn whose executed tools are all return-direct."""
    from springtail.execution import ToolExecutionResult

    return ChatResponse(tuple(ToolExecutionResult.build_generations(result)), last.metadata)


_EMPTY = ChatResponse(())


def _usage_only(response: ChatResponse, usage: Usage) -> ChatResponse:
    meta = response.metadata
    return ChatResponse((), ChatResponseMetadata(meta.id, meta.model, usage))
