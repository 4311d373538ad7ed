"""The per-call path shared by every callback springtail builds.

Kept small and free of reflection: it runs for every tool call the model
makes, and its cost is the framework overhead of a call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition
from springtail.tools._errors import ToolExecutionError

__all__ = [
    "EMPTY_CONTEXT",
    "as_context",
    "convert",
    "is_async_callable",
    "run_async",
    "run_in_thread",
    "run_sync",
]

EMPTY_CONTEXT = ToolContext()


def as_context(context: Any) -> ToolContext:
    """The context a tool receives: the given one, or an empty one."""
    if context is None:
        return EMPTY_CONTEXT
    if isinstance(context, ToolContext):
        return context
    return ToolContext(context)


def is_async_callable(fn: Any) -> bool:
    """Whether calling ``fn`` returns a coroutine (``async def`` or async ``__call__``)."""
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004 - callable objects count too
    return inspect.iscoroutinefunction(call) and not inspect.isfunction(fn)


def run_sync(
    definition: ToolDefinition,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """Call a sync tool, wrapping what it raises as the contract says."""
    try:
        return fn(*args, **kwargs)
    except ToolExecutionError:
        raise
    except Exception as exc:
        raise ToolExecutionError(definition, exc) from exc


async def run_async(
    definition: ToolDefinition,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """Await an async tool, wrapping what it raises as the contract says."""
    try:
        return await fn(*args, **kwargs)
    except ToolExecutionError:
        raise
    except Exception as exc:
        raise ToolExecutionError(definition, exc) from exc


async def run_in_thread(
    definition: ToolDefinition,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """Run a sync tool off the event loop, so ``acall`` never blocks the loop."""
    import asyncio

    return await asyncio.to_thread(run_sync, definition, fn, args, kwargs)


def convert(
    definition: ToolDefinition,
    converter: Callable[[Any, Any], Any],
    result: Any,
    return_type: Any,
) -> str:
    """Turn a result into text; a converter that fails is the tool failing."""
    try:
        text = converter(result, return_type)
    except ToolExecutionError:
        raise
    except Exception as exc:
        raise ToolExecutionError(definition, exc) from exc
    return "" if text is None else text
