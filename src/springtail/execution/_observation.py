"""Watching tool calls: listener hooks and OpenTelemetry spans.

Both cost nothing when unused: the manager asks its tracer cache once per
execution and skips all span work when there is no tracer, and
OpenTelemetry is never imported by springtail itself. If the application
has not imported ``opentelemetry.trace``, it cannot have configured a tracer
provider, so there is nothing to record.
"""

from __future__ import annotations

import inspect
import logging
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from springtail.messages import ToolCall, ToolResponse
    from springtail.tools._definition import ToolDefinition

__all__ = ["ToolExecutionListener", "TracerCache", "hooks", "notify", "settle"]

logger = logging.getLogger("springtail.execution")


@runtime_checkable
class ToolExecutionListener(Protocol):
    """Hooks called around every tool call; implement any of them.

    ``definition`` is ``None`` for a call to an unknown tool. ``on_tool_end``
    receives the response the model will read (``is_error`` tells failures
    apart) and the call's wall-clock duration in seconds, without the time
    an approver took. A listener may also define
    ``on_tool_approval(call, definition, approved, wait_s)``, called once the
    approver has decided on a tool marked ``requires_approval``, and
    ``on_tool_deferred(call, definition, deadline)``, called instead of
    ``on_tool_end`` when the approver deferred the call to a person (it waits
    until ``deadline``, ``None`` for no deadline). Hooks run on the
    event loop: keep them quick, or return an awaitable, which is awaited.
    An exception raised by a hook is logged and ignored, so a broken
    observer never changes what the model sees.
    """

    def on_tool_start(self, call: ToolCall, definition: ToolDefinition | None) -> Any:
        """Called before the call is approved and run."""

    def on_tool_end(
        self,
        call: ToolCall,
        definition: ToolDefinition | None,
        response: ToolResponse,
        duration_s: float,
    ) -> Any:
        """Called with the call's response once it is final."""


def hooks(listeners: Sequence[object], name: str) -> tuple[Callable[..., Any], ...]:
    """The bound ``name`` methods of the listeners that define one."""
    found = []
    for listener in listeners:
        method = getattr(listener, name, None)
        if method is not None:
            if not callable(method):
                raise TypeError(f"{listener!r}.{name} must be a method, got {method!r}")
            found.append(method)
    return tuple(found)


def notify(methods: tuple[Callable[..., Any], ...], *args: Any) -> list[Awaitable[Any]] | None:
    """Call each hook; return the awaitables async hooks gave back, if any.

    Sync hooks (the common case) cost no coroutine: the caller awaits only
    what this returns. A hook's failure is logged and swallowed.
    """
    pending: list[Awaitable[Any]] | None = None
    for method in methods:
        try:
            result = method(*args)
        except Exception:
            logger.exception("tool execution listener %r failed; ignoring it", method)
            continue
        if result is not None and inspect.isawaitable(result):
            if pending is None:
                pending = []
            pending.append(result)
    return pending


async def settle(pending: list[Awaitable[Any]]) -> None:
    """Await the awaitables of async hooks; log and swallow their failures."""
    for awaitable in pending:
        try:
            await awaitable
        except Exception:
            logger.exception("tool execution listener failed; ignoring it")


class TracerCache:
    """The tracer for the current provider, rebuilt only when the provider changes.

    Asking a provider for a tracer allocates; doing it once per provider
    keeps span work to the spans themselves.
    """

    __slots__ = ("_explicit", "_provider", "_tracer")

    def __init__(self, tracer_provider: Any | None) -> None:
        self._explicit = tracer_provider
        self._provider: Any = None
        self._tracer: Any = None

    def get(self) -> Any | None:
        """The tracer to record tool spans with, or ``None`` when nobody listens.

        With no explicit provider the global one is used, but only when the
        application has imported ``opentelemetry.trace`` and set a real
        provider; the default proxy provider records nothing, so it is skipped.
        """
        provider = self._explicit
        if provider is None:
            trace = sys.modules.get("opentelemetry.trace")
            if trace is None:
                return None
            provider = trace.get_tracer_provider()
            if isinstance(provider, trace.ProxyTracerProvider | trace.NoOpTracerProvider):
                return None
        if provider is not self._provider:
            self._tracer = provider.get_tracer("springtail.execution")
            self._provider = provider
        return self._tracer


def start_span(
    tracer: Any, call: ToolCall, definition: ToolDefinition | None, include_content: bool
) -> Any:
    """A context manager for the call's ``execute_tool NAME`` span (GenAI semconv)."""
    from opentelemetry.trace import SpanKind

    attributes: dict[str, str] = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": call.name,
        "gen_ai.tool.call.id": call.id,
        "gen_ai.tool.type": "function",
    }
    if definition is not None:
        attributes["gen_ai.tool.description"] = definition.description
    if include_content:
        attributes["gen_ai.tool.call.arguments"] = call.arguments
    return tracer.start_as_current_span(
        f"execute_tool {call.name}",
        kind=SpanKind.INTERNAL,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=True,
    )


def end_span(
    span: Any, response: ToolResponse, error_type: str | None, include_content: bool
) -> None:
    """Record the call's outcome on its span before the span ends."""
    if include_content:
        span.set_attribute("gen_ai.tool.call.result", response.response_data)
    if error_type is not None:
        from opentelemetry.trace import Status, StatusCode

        span.set_attribute("error.type", error_type)
        span.set_status(Status(StatusCode.ERROR, response.response_data[:1024]))
