"""The shared per-call helpers."""

from __future__ import annotations

import functools

from springtail.tools import ToolContext
from springtail.tools._invoke import EMPTY_CONTEXT, as_context, is_async_callable


def test_as_context_fills_in_an_empty_context_and_wraps_mappings() -> None:
    assert as_context(None) is EMPTY_CONTEXT
    ctx = ToolContext({"a": 1})
    assert as_context(ctx) is ctx
    wrapped = as_context({"a": 1})
    assert isinstance(wrapped, ToolContext)
    assert wrapped == ctx


def test_is_async_callable_sees_through_partials_and_callable_objects() -> None:
    async def coro(x: int) -> int:
        return x

    def plain(x: int) -> int:
        return x

    class AsyncCallable:
        async def __call__(self) -> None:
            pass

    class SyncCallable:
        def __call__(self) -> None:
            pass

    assert is_async_callable(coro)
    assert is_async_callable(functools.partial(coro, 1))
    assert is_async_callable(AsyncCallable())
    assert not is_async_callable(plain)
    assert not is_async_callable(SyncCallable())
