"""The ToolCallingManager: run one response's tool calls, concurrently and safely."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from springtail._sync import run_sync
from springtail.execution._approval import ApprovalGate, Approver
from springtail.execution._calls import CallRunner, Run
from springtail.execution._deferred import PendingApproval, ToolCallDecision, as_decisions
from springtail.execution._errors import DuplicateToolNameError, ToolCallLimitExceededError
from springtail.execution._limits import REPEAT_ERROR, plan_calls, repeat_notice
from springtail.execution._observation import TracerCache, hooks
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
    ToolResponse,
    ToolResponseMessage,
)
from springtail.tools._callback import ToolCallback
from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition

__all__ = ["ToolCallingManager"]

_LIMIT_MODES = ("raise", "error_response")


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
            [`DefaultToolExecutionExceptionProcessor`][].
        listeners: [`ToolExecutionListener`][] objects told about every call.
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
            Returning [`DEFER`][springtail.execution.DEFER] instead (or passing
            ``approver=defer_approval``) leaves the call waiting for a person:
            it does not run, and the result lists it in ``pending_approvals``.
        max_calls_per_tool: calls of one tool allowed per turn (since the last
            user message).
        max_total_tool_calls: calls of all tools allowed per turn.
        on_limit_exceeded: ``"raise"`` raises [`ToolCallLimitExceededError`][];
            ``"error_response"`` answers the call with a notice instead of running it.
        max_result_chars: longer answers are cut to this many characters,
            with a notice saying how much was cut.
        tracer_provider: OpenTelemetry tracer provider for the spans; default
            the global one.
        resolve_unoffered_tools: also run a tool the request did not offer
            when the resolver knows its name (Spring AI 1.x's fallback). Off
            by default: a request's tools are a permission, so an
            application that gives users different tools stays safe.
        approval_timeout: seconds a deferred call waits for its decision
            before it counts as denied; ``None`` (the default) waits until
            decided. A ``Defer(timeout=...)`` from the approver overrides it.

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
        approval_timeout: float | None = None,
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
        if approval_timeout is not None and not approval_timeout > 0:
            raise ValueError(
                "approval_timeout must be a positive number of seconds or None, "
                f"got {approval_timeout!r}"
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
        self._settings: dict[str, Any] = {
            "resolver": resolver,
            "exception_processor": exception_processor,
            "listeners": tuple(listeners),
            "include_content": include_content,
            "max_concurrency": max_concurrency,
            "default_timeout": default_timeout,
            "approver": approver,
            "max_calls_per_tool": max_calls_per_tool,
            "max_total_tool_calls": max_total_tool_calls,
            "on_limit_exceeded": on_limit_exceeded,
            "max_result_chars": max_result_chars,
            "tracer_provider": tracer_provider,
            "resolve_unoffered_tools": resolve_unoffered_tools,
            "approval_timeout": approval_timeout,
        }
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
        self._on_deferred = hooks(self._listeners, "on_tool_deferred")
        self._approval_timeout = approval_timeout
        self._resolve_unoffered = bool(resolve_unoffered_tools)
        self._max_concurrency = max_concurrency
        self._default_timeout = default_timeout
        self._max_calls_per_tool = max_calls_per_tool
        self._max_total_tool_calls = max_total_tool_calls
        self._raise_on_limit = on_limit_exceeded == "raise"
        self._on_limit_exceeded = on_limit_exceeded
        self._tracers = TracerCache(tracer_provider)
        self._runner = CallRunner(
            processor=self._processor,
            approvals=ApprovalGate(approver),
            include_content=include_content,
            max_concurrency=max_concurrency,
            default_timeout=default_timeout,
            max_result_chars=max_result_chars,
            approval_timeout=approval_timeout,
        )

    # -- configuration, read-only ------------------------------------------

    @property
    def settings(self) -> dict[str, Any]:
        """The keyword arguments this manager was built with (a copy).

        ``type(manager)(**{**manager.settings, "max_concurrency": 1})`` builds
        a manager like this one with one setting changed; the durable turn
        (``springtail.durable``) derives its own manager this way.
        """
        return dict(self._settings)

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
    def approval_timeout(self) -> float | None:
        """Seconds a deferred call waits for its decision (``None``: until decided)."""
        return self._approval_timeout

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
            DuplicateToolNameError: two tool callbacks share a name (a ``ValueError``).
        """
        if options is None:
            return []
        found = {name: cb.tool_definition for name, cb in _offered(options).items()}
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
        decisions: Mapping[str, ToolCallDecision | bool] | None = None,
        results: Sequence[ToolResponse] = (),
    ) -> ToolExecutionResult:
        """Run the response's tool calls and return the extended conversation.

        The sync form of [`aexecute_tool_calls`][]; works inside a running
        event loop too.
        """
        return run_sync(
            self.aexecute_tool_calls(
                prompt,
                chat_response,
                turn=turn,
                listeners=listeners,
                decisions=decisions,
                results=results,
            )
        )

    async def aexecute_tool_calls(
        self,
        prompt: Prompt,
        chat_response: ChatResponse,
        *,
        turn: ToolTurn | None = None,
        listeners: Iterable[object] = (),
        decisions: Mapping[str, ToolCallDecision | bool] | None = None,
        results: Sequence[ToolResponse] = (),
    ) -> ToolExecutionResult:
        """Run the tool calls of the first generation that has any.

        Args:
            prompt: The request the model answered; its options carry the
                offered tools and the tool context.
            chat_response: The model's response with the tool calls.
            turn: The turn's record of calls, kept by the caller over all
                iterations of one turn (the tool loop does). Without one,
                the calls since the prompt's last user message are counted.
            listeners: More [`ToolExecutionListener`][] objects, told
                about this execution's calls only.
            decisions: A person's decision per call id (``ToolCallDecision``,
                or ``True``/``False``), used instead of asking the approver:
                how a paused turn resumes. An approved call runs; a denied
                one is answered as a denial the model reads.
            results: Answers already known for some of the calls (those that
                ran before the turn paused): they are kept as they are and
                those calls do not run again.

        Returns:
            The prompt's messages, the assistant message and one
            ``ToolResponseMessage`` with an answer per call, in call order.
            When the approver deferred calls, they are left out of that
            message and listed in ``pending_approvals`` instead: the
            conversation is not ready for the model until they are decided.

        Raises:
            ValueError: the response asks for no tool call.
            DuplicateToolNameError: two of the request's tool callbacks share a
                name (a ``ValueError``); no call ran.
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
            callbacks = _offered(options)
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

        run = Run(context, (), self._tracers.get())
        if decisions:
            run.decisions = as_decisions(decisions)
        if listeners:
            listeners = tuple(listeners)
            run.on_start = self._on_start + hooks(listeners, "on_tool_start")
            run.on_end = self._on_end + hooks(listeners, "on_tool_end")
            run.on_approval = self._on_approval + hooks(listeners, "on_tool_approval")
            run.on_deferred = self._on_deferred + hooks(listeners, "on_tool_deferred")
        else:
            run.on_start, run.on_end, run.on_approval, run.on_deferred = (
                self._on_start,
                self._on_end,
                self._on_approval,
                self._on_deferred,
            )
        if any(found is None for found in resolved):
            run.available = self._available_names(options, callbacks)
        responses: list[ToolResponse | PendingApproval | None] = [None] * len(calls)
        skipped, repeats = plan.skipped, plan.repeats
        if results:
            # Calls answered before the turn paused keep their answers and do not run again.
            known = {response.id: response for response in results}
            for i, call in enumerate(calls):
                responses[i] = known.get(call.id)
            skipped = [i for i in skipped if responses[i] is None]
            repeats = {i: j for i, j in repeats.items() if responses[i] is None}
            if not skipped:
                plan.exceeded = None
        to_run = (
            [
                i
                for i in range(len(calls))
                if i not in skipped and i not in repeats and responses[i] is None
            ]
            if skipped or repeats or results
            else range(len(calls))
        )
        run.single = len(to_run) == 1
        await self._runner.run_all(calls, resolved, plan.notices, to_run, run, responses)
        for i in to_run:
            response = responses[i]
            if isinstance(response, ToolResponse) and plan.notices[i] is None:
                turn.remember(calls[i], response.response_data)
        for i, j in repeats.items():
            earlier = responses[j]
            if isinstance(earlier, PendingApproval):  # the same call waits for the same decision
                responses[i] = PendingApproval(calls[i], earlier.deadline)
                continue
            answer = earlier.response_data if earlier is not None else ""
            notice = (repeat_notice(calls[i].name, answer), REPEAT_ERROR)
            responses[i] = await self._runner.call(calls[i], resolved[i], notice, run)

        answered: Sequence[int] = range(len(calls))
        if skipped:
            answered = [i for i in answered if i not in skipped]
        result = _result(prompt, assistant, responses, answered, resolved, plan.notices, repeats)
        if plan.exceeded is not None:  # the limit ends the turn; deferred calls never run
            raise ToolCallLimitExceededError(plan.exceeded[0], plan.exceeded[1], result)
        return result

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

    def __repr__(self) -> str:
        return (
            f"ToolCallingManager(resolver={self._resolver!r}, "
            f"max_concurrency={self._max_concurrency}, default_timeout={self._default_timeout!r}, "
            f"on_limit_exceeded={self._on_limit_exceeded!r}, "
            f"resolve_unoffered_tools={self._resolve_unoffered})"
        )


def _result(
    prompt: Prompt,
    assistant: AssistantMessage,
    responses: Sequence[ToolResponse | PendingApproval | None],
    answered: Iterable[int],
    resolved: Sequence[ToolCallback | None],
    notices: Sequence[tuple[str, str] | None],
    repeats: Mapping[int, int],
) -> ToolExecutionResult:
    """The conversation extended by the answers, in call order; deferred calls listed apart."""
    done: list[ToolResponse] = []
    pending: list[PendingApproval] = []
    direct = True
    for i in answered:
        response = responses[i]
        if isinstance(response, PendingApproval):
            pending.append(response)
        elif response is not None:
            done.append(response)
            callback = resolved[i]
            direct = direct and (
                callback is not None
                and notices[i] is None
                and i not in repeats
                and callback.tool_metadata.return_direct
            )
    history: list[Message] = list(prompt.messages)
    history.append(assistant)
    if done:  # none when every call was over a limit, or waits for a decision
        history.append(ToolResponseMessage(tuple(done)))
    if pending:
        return ToolExecutionResult(history, False, tuple(pending))
    return ToolExecutionResult(history, bool(done) and direct)


def _offered(options: ChatOptions) -> dict[str, ToolCallback]:
    """The request's tool callbacks by name; two under one name are refused, as ChatClient does.

    Running the first of them silently would let one tool shadow another
    (an MCP server's ``calculate`` the application's own).
    """
    callbacks: dict[str, ToolCallback] = {}
    repeated: list[str] = []
    for callback in options.tool_callbacks:
        name = callback.tool_definition.name
        if name in callbacks and name not in repeated:
            repeated.append(name)
        callbacks.setdefault(name, callback)
    if repeated:
        raise DuplicateToolNameError(repeated, offered=True)
    return callbacks


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
