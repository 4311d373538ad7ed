"""The ToolCallingManager: run one response's tool calls, concurrently and safely."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable, Sequence
from time import perf_counter
from typing import Any, Literal

from springtail._sync import run_sync
from springtail.execution._approval import ApprovalGate, Approver
from springtail.execution._errors import ToolCallLimitExceededError, UnknownToolError
from springtail.execution._invoke import requires_approval, run_tool, timeout_of
from springtail.execution._limits import REPEAT_ERROR, plan_calls, repeat_notice
from springtail.execution._observation import (
    TracerCache,
    end_span,
    hooks,
    notify,
    settle,
    start_span,
)
from springtail.execution._pool import WorkerPool
from springtail.execution._processor import (
    DefaultToolExecutionExceptionProcessor,
    ToolExecutionExceptionProcessor,
)
from springtail.execution._resolvers import ToolCallbackResolver, UnloadableTool, listed_names
from springtail.execution._result import ToolExecutionResult
from springtail.execution._turn import ToolTurn
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Message,
    Prompt,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
)
from springtail.tools._callback import ToolCallback
from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition
from springtail.tools._errors import ToolExecutionError

__all__ = ["ToolCallingManager"]

_LIMIT_MODES = ("raise", "error_response")


class _Run:
    """State shared by the calls of one execution."""

    __slots__ = (
        "approval_lock",
        "available",
        "context",
        "on_approval",
        "on_end",
        "on_start",
        "single",
        "tracer",
    )

    def __init__(self, context: ToolContext, available: tuple[str, ...], tracer: Any) -> None:
        self.context = context
        self.available = available
        self.tracer = tracer
        self.single = False
        self.approval_lock: asyncio.Lock | None = None
        self.on_start: tuple[Callable[..., Any], ...] = ()
        self.on_end: tuple[Callable[..., Any], ...] = ()
        self.on_approval: tuple[Callable[..., Any], ...] = ()


def _error_type(error: ToolExecutionError | None) -> str | None:
    if error is None:
        return None
    if type(error) is ToolExecutionError:
        return type(error.cause).__name__
    return type(error).__name__


class ToolCallingManager:
    """Runs the tool calls a model asked for and answers each one.

    Every call gets an answer the model can read, failures included (unknown
    tool, bad arguments, timeout, denied approval, an exception): the
    exception processor turns each failure into text, and a call that fails
    or hangs never costs the other calls their results. The calls of one
    response run at the same time: ``async`` tools as tasks on the event
    loop, sync tools on the manager's own worker threads, at most
    ``max_concurrency`` at once.

    Args:
        resolver: finds the tools a request names in ``tool_names`` (and,
            with ``resolve_unoffered_tools``, any tool the model names).
        exception_processor: turns a failure into the model's answer, or
            raises to end the execution; any
            ``Callable[[ToolExecutionError], str]``. Default:
            :class:`DefaultToolExecutionExceptionProcessor`.
        listeners: :class:`ToolExecutionListener` objects told about every call.
        include_content: record arguments and results in spans. Off by
            default because they may hold personal data.
        max_concurrency: how many calls of one response may run at once;
            also the number of worker threads for sync tools. Tools mostly
            wait on I/O, so this is not tied to the CPU count.
        default_timeout: seconds a call may take when its tool sets no
            ``timeout`` of its own; ``None`` waits for ever.
        approver: ``(call, definition) -> bool`` (or an awaitable bool),
            asked before running a tool marked ``requires_approval``. Without
            one such calls are denied. Approvals are asked one at a time; a
            sync approver runs on a worker thread, so it may block on input.
        max_calls_per_tool: calls of one tool allowed per turn (since the last
            user message).
        max_total_tool_calls: calls of all tools allowed per turn.
        on_limit_exceeded: ``"raise"`` raises :class:`ToolCallLimitExceededError`;
            ``"error_response"`` answers the call with a notice instead of running it.
        max_result_chars: longer answers are cut to this many characters,
            with a notice saying how much was cut.
        tracer_provider: OpenTelemetry tracer provider for the spans; default
            the global one.
        resolve_unoffered_tools: also run a tool the request did not offer
            when the resolver knows its name (Spring AI 1.x's fallback). Off
            by default: a request's tools are a permission, so an
            application that gives users different tools stays safe.

    A call identical to an earlier call of the same turn (same tool, same
    arguments, compared as parsed JSON) is not run again: it is answered,
    as an error the model can read, with the earlier call's result. The same
    tool with other arguments always runs.

    Raises:
        ValueError: a limit, the concurrency, a timeout or the result size is
            not positive, or ``on_limit_exceeded`` is not a known mode.
    """

    def __init__(
        self,
        resolver: ToolCallbackResolver | None = None,
        exception_processor: ToolExecutionExceptionProcessor | None = None,
        listeners: Iterable[object] = (),
        include_content: bool = False,
        max_concurrency: int = 16,
        default_timeout: float | None = None,
        approver: Approver | None = None,
        max_calls_per_tool: int = 40,
        max_total_tool_calls: int = 150,
        on_limit_exceeded: Literal["raise", "error_response"] = "raise",
        max_result_chars: int | None = None,
        *,
        tracer_provider: Any | None = None,
        resolve_unoffered_tools: bool = False,
    ) -> None:
        _positive_int("max_concurrency", max_concurrency)
        _positive_int("max_calls_per_tool", max_calls_per_tool)
        _positive_int("max_total_tool_calls", max_total_tool_calls)
        if max_result_chars is not None:
            _positive_int("max_result_chars", max_result_chars)
        if default_timeout is not None and not default_timeout > 0:
            raise ValueError(
                "default_timeout must be a positive number of seconds or None, "
                f"got {default_timeout!r}"
            )
        if on_limit_exceeded not in _LIMIT_MODES:
            raise ValueError(
                f"on_limit_exceeded must be 'raise' or 'error_response', got {on_limit_exceeded!r}"
            )
        if exception_processor is not None and not callable(exception_processor):
            raise TypeError(
                f"exception_processor must be callable as processor(error) -> str, "
                f"got {exception_processor!r}"
            )
        self._resolver = resolver
        self._processor: ToolExecutionExceptionProcessor = (
            exception_processor
            if exception_processor is not None
            else DefaultToolExecutionExceptionProcessor()
        )
        self._listeners = tuple(listeners)
        self._on_start = hooks(self._listeners, "on_tool_start")
        self._on_end = hooks(self._listeners, "on_tool_end")
        self._on_approval = hooks(self._listeners, "on_tool_approval")
        self._resolve_unoffered = bool(resolve_unoffered_tools)
        self._include_content = include_content
        self._max_concurrency = max_concurrency
        self._default_timeout = default_timeout
        self._approvals = ApprovalGate(approver)
        self._max_calls_per_tool = max_calls_per_tool
        self._max_total_tool_calls = max_total_tool_calls
        self._raise_on_limit = on_limit_exceeded == "raise"
        self._on_limit_exceeded = on_limit_exceeded
        self._max_result_chars = max_result_chars
        self._tracers = TracerCache(tracer_provider)
        self._pool: WorkerPool | None = None
        self._pool_lock = threading.Lock()

    # -- configuration, read-only ------------------------------------------

    @property
    def resolver(self) -> ToolCallbackResolver | None:
        """The resolver asked for tools the request does not carry."""
        return self._resolver

    @property
    def exception_processor(self) -> ToolExecutionExceptionProcessor:
        """The policy that turns failures into answers."""
        return self._processor

    @property
    def max_concurrency(self) -> int:
        """How many calls of one response run at once."""
        return self._max_concurrency

    @property
    def default_timeout(self) -> float | None:
        """Seconds a call may take when its tool sets no timeout."""
        return self._default_timeout

    @property
    def resolve_unoffered_tools(self) -> bool:
        """Whether a tool the request did not offer may be resolved by name and run."""
        return self._resolve_unoffered

    @property
    def listeners(self) -> tuple[object, ...]:
        """The listeners told about every call this manager runs."""
        return self._listeners

    @property
    def on_limit_exceeded(self) -> str:
        """What happens when a call limit is reached."""
        return self._on_limit_exceeded

    # -- definitions -------------------------------------------------------

    def resolve_tool_definitions(self, options: ChatOptions | None) -> list[ToolDefinition]:
        """The definitions to send to the model for a request with ``options``.

        The request's tool callbacks come first, then the tools listed in
        ``options.tool_names``, looked up with the resolver. A name given
        both ways appears once.

        Raises:
            ValueError: a name in ``tool_names`` is not known anywhere.
        """
        if options is None:
            return []
        found: dict[str, ToolDefinition] = {}
        for callback in options.tool_callbacks:
            definition = callback.tool_definition
            found.setdefault(definition.name, definition)
        missing: list[str] = []
        for name in options.tool_names:
            if name in found:
                continue
            resolved = self._resolver.resolve(name) if self._resolver is not None else None
            if resolved is None:
                missing.append(name)
            else:
                found[name] = resolved.tool_definition
        if missing:
            where = (
                f"nor known to the resolver {self._resolver!r}"
                if self._resolver is not None
                else "and the manager has no resolver"
            )
            raise ValueError(
                f"tool_names lists {', '.join(map(repr, missing))}, but no such tool is "
                f"among the request's tool callbacks {where}. Fix the name or register the tool."
            )
        return list(found.values())

    # -- execution ---------------------------------------------------------

    def execute_tool_calls(
        self,
        prompt: Prompt,
        chat_response: ChatResponse,
        *,
        turn: ToolTurn | None = None,
        listeners: Iterable[object] = (),
    ) -> ToolExecutionResult:
        """Run the response's tool calls and return the extended conversation.

        The sync form of :meth:`aexecute_tool_calls`; works inside a running
        event loop too.
        """
        return run_sync(
            self.aexecute_tool_calls(prompt, chat_response, turn=turn, listeners=listeners)
        )

    async def aexecute_tool_calls(
        self,
        prompt: Prompt,
        chat_response: ChatResponse,
        *,
        turn: ToolTurn | None = None,
        listeners: Iterable[object] = (),
    ) -> ToolExecutionResult:
        """Run the tool calls of the first generation that has any.

        Args:
            prompt: The request the model answered; its options carry the
                offered tools and the tool context.
            chat_response: The model's response with the tool calls.
            turn: The turn's record of calls, kept by the caller over all
                iterations of one turn (the tool loop does). Without one,
                the calls since the prompt's last user message are counted.
            listeners: More :class:`ToolExecutionListener` objects, told
                about this execution's calls only.

        Returns:
            The prompt's messages, the assistant message and one
            ``ToolResponseMessage`` with an answer per call, in call order.

        Raises:
            ValueError: the response asks for no tool call.
            ToolCallLimitExceededError: a call limit was reached and
                ``on_limit_exceeded="raise"``; the calls within the limits
                ran and are in ``partial_result``.
            Exception: whatever the exception processor raises.
        """
        assistant = _first_with_tool_calls(chat_response)
        calls = assistant.tool_calls
        options = prompt.options
        callbacks: dict[str, ToolCallback] = {}
        context: Any = None
        offered_names: tuple[str, ...] = ()
        if options is not None:
            for callback in options.tool_callbacks:
                callbacks.setdefault(callback.tool_definition.name, callback)
            context = options.tool_context
            offered_names = options.tool_names
        if not isinstance(context, ToolContext):
            context = ToolContext(context)

        if turn is None:
            turn = ToolTurn()
        turn.seed(prompt.messages)
        plan = plan_calls(
            calls,
            turn,
            per_tool_limit=self._max_calls_per_tool,
            total_limit=self._max_total_tool_calls,
            raise_on_limit=self._raise_on_limit,
        )

        resolved: list[ToolCallback | None] = []
        resolver = self._resolver
        for call in calls:
            found = callbacks.get(call.name)
            if (
                found is None
                and resolver is not None
                and (self._resolve_unoffered or call.name in offered_names)
            ):
                found = self._resolve(call.name)
            resolved.append(found)

        run = _Run(context, (), self._tracers.get())
        if listeners:
            listeners = tuple(listeners)
            run.on_start = self._on_start + hooks(listeners, "on_tool_start")
            run.on_end = self._on_end + hooks(listeners, "on_tool_end")
            run.on_approval = self._on_approval + hooks(listeners, "on_tool_approval")
        else:
            run.on_start, run.on_end, run.on_approval = (
                self._on_start,
                self._on_end,
                self._on_approval,
            )
        if any(found is None for found in resolved):
            run.available = self._available_names(options, callbacks)
        skipped, repeats = plan.skipped, plan.repeats
        to_run = (
            [i for i in range(len(calls)) if i not in skipped and i not in repeats]
            if skipped or repeats
            else range(len(calls))
        )
        responses: list[ToolResponse | None] = [None] * len(calls)
        run.single = len(to_run) == 1
        await self._run_all(calls, resolved, plan.notices, to_run, run, responses)
        for i in to_run:
            response = responses[i]
            if response is not None and plan.notices[i] is None:
                turn.remember(plan.keys[i], response.response_data)
        for i, j in repeats.items():
            earlier = responses[j]
            answer = earlier.response_data if earlier is not None else ""
            notice = (repeat_notice(calls[i].name, answer), REPEAT_ERROR)
            responses[i] = await self._call(calls[i], resolved[i], notice, run)

        answered = [i for i in range(len(calls)) if i not in skipped] if skipped else to_run
        if repeats:
            answered = sorted(set(answered) | set(repeats))
        done = [responses[i] for i in answered]
        history: list[Message] = list(prompt.messages)
        history.append(assistant)
        if done or plan.exceeded is None:
            history.append(ToolResponseMessage(tuple(r for r in done if r is not None)))
        return_direct = bool(done) and all(
            (cb := resolved[i]) is not None
            and plan.notices[i] is None
            and i not in repeats
            and cb.tool_metadata.return_direct
            for i in answered
        )
        result = ToolExecutionResult(history, return_direct)
        if plan.exceeded is not None:
            raise ToolCallLimitExceededError(plan.exceeded[0], plan.exceeded[1], result)
        return result

    async def _run_all(
        self,
        calls: Sequence[ToolCall],
        resolved: Sequence[ToolCallback | None],
        notices: Sequence[tuple[str, str] | None],
        to_run: Sequence[int],
        run: _Run,
        responses: list[ToolResponse | None],
    ) -> None:
        if len(to_run) == 1:
            # One call: no task, no semaphore; the common case stays cheap.
            i = to_run[0]
            responses[i] = await self._call(calls[i], resolved[i], notices[i], run)
            return
        if not to_run:
            return
        semaphore = (
            asyncio.Semaphore(self._max_concurrency)
            if len(to_run) > self._max_concurrency
            else None
        )
        loop = asyncio.get_running_loop()
        tasks = [
            loop.create_task(self._call(calls[i], resolved[i], notices[i], run, semaphore))
            for i in to_run
        ]
        try:
            results = await asyncio.gather(*tasks)
        except BaseException:
            # A processor raised, or we were cancelled: stop every other call
            # (async tools are cancelled, threads are no longer waited for).
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        for i, response in zip(to_run, results, strict=True):
            responses[i] = response

    async def _call(
        self,
        call: ToolCall,
        callback: ToolCallback | None,
        notice: tuple[str, str] | None,
        run: _Run,
        semaphore: asyncio.Semaphore | None = None,
    ) -> ToolResponse:
        if semaphore is not None:
            async with semaphore:
                return await self._call(call, callback, notice, run)
        if run.tracer is None and not run.on_start and not run.on_end:
            return (await self._respond(call, callback, notice, run))[0]
        definition = callback.tool_definition if callback is not None else None
        if run.on_start and (pending := notify(run.on_start, call, definition)):
            await settle(pending)
        started = perf_counter()
        if run.tracer is not None:
            with start_span(run.tracer, call, definition, self._include_content) as span:
                response, error_type, waited = await self._respond(call, callback, notice, run)
                end_span(span, response, error_type, self._include_content)
        else:
            response, _, waited = await self._respond(call, callback, notice, run)
        if run.on_end and (
            pending := notify(
                run.on_end, call, definition, response, perf_counter() - started - waited
            )
        ):
            await settle(pending)
        return response

    async def _respond(
        self,
        call: ToolCall,
        callback: ToolCallback | None,
        notice: tuple[str, str] | None,
        run: _Run,
    ) -> tuple[ToolResponse, str | None, float]:
        """The call's response, its error type for a failure, and the approval wait."""
        if notice is not None:
            return ToolResponse(call.id, call.name, notice[0], True), notice[1], 0.0
        error: ToolExecutionError
        waited = 0.0
        try:
            if callback is None:
                raise UnknownToolError(call.name, run.available)
            if requires_approval(callback):
                waited = await self._approve(call, callback.tool_definition, run)
            timeout = timeout_of(callback)
            text = await run_tool(
                callback,
                call.arguments,
                run.context,
                self._default_timeout if timeout is None else timeout,
                alone=run.single,
                pool=self._worker_pool,
            )
        except ToolExecutionError as exc:
            error = exc
        except Exception as exc:
            error = ToolExecutionError(callback.tool_definition if callback else None, exc)
        else:
            return ToolResponse(call.id, call.name, self._cut(text)), None, waited
        answer = self._processor(error)
        if not isinstance(answer, str):
            raise TypeError(
                f"The exception processor {self._processor!r} returned {type(answer).__name__}; "
                "it must return the text the model reads (str) or raise."
            )
        return (
            ToolResponse(call.id, call.name, self._cut(answer), True),
            _error_type(error),
            waited,
        )

    async def _approve(self, call: ToolCall, definition: ToolDefinition, run: _Run) -> float:
        """Ask the approver; return the seconds the decision took (raises when denied)."""
        if run.approval_lock is None:
            run.approval_lock = asyncio.Lock()
        started = perf_counter()
        approved = False
        try:
            await self._approvals.check(call, definition, run.approval_lock)
            approved = True
        finally:
            waited = perf_counter() - started
            if run.on_approval and (
                pending := notify(run.on_approval, call, definition, approved, waited)
            ):
                await settle(pending)
        return waited

    def _resolve(self, name: str) -> ToolCallback | None:
        assert self._resolver is not None
        try:
            return self._resolver.resolve(name)
        except Exception as exc:
            # A broken resolver answers this one call with an error instead
            # of losing the whole response.
            return UnloadableTool(name, exc)

    def _available_names(
        self, options: ChatOptions | None, callbacks: dict[str, ToolCallback]
    ) -> tuple[str, ...]:
        names = dict.fromkeys(callbacks)
        if options is not None:
            names.update(dict.fromkeys(options.tool_names))
        if self._resolver is not None and self._resolve_unoffered:
            names.update(dict.fromkeys(listed_names(self._resolver)))
        return tuple(names)

    def _worker_pool(self) -> WorkerPool:
        pool = self._pool
        if pool is not None:
            return pool
        with self._pool_lock:
            if self._pool is None:
                self._pool = WorkerPool(self._max_concurrency)
            return self._pool

    def _cut(self, text: str) -> str:
        limit = self._max_result_chars
        if limit is None or len(text) <= limit:
            return text
        cut = len(text) - limit
        return (
            f"{text[:limit]}\n[Result truncated: {cut} of {len(text)} characters were cut "
            f"to fit the {limit}-character limit.]"
        )

    def __repr__(self) -> str:
        return (
            f"ToolCallingManager(resolver={self._resolver!r}, "
            f"max_concurrency={self._max_concurrency}, default_timeout={self._default_timeout!r}, "
            f"on_limit_exceeded={self._on_limit_exceeded!r}, "
            f"resolve_unoffered_tools={self._resolve_unoffered})"
        )


def _first_with_tool_calls(chat_response: ChatResponse) -> AssistantMessage:
    for generation in chat_response.results:
        if generation.output.tool_calls:
            return generation.output
    raise ValueError("No tool call requested by the chat model")


def _positive_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be at least 1, got {value}")
