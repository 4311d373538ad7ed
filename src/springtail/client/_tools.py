"""Turn what a client or request was given as tools into one list of callbacks.

Sources are whatever ``springtail.tools.tool_callbacks`` accepts (objects
with ``@tool`` methods, ``@tool`` functions, ``ToolCallback``s) plus *lazy
tool providers*: zero-argument callables asked for their tools once per
request, for tool sets that change at run time (a plugin folder, an MCP
server's current tool list).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from springtail.execution._errors import DuplicateToolNameError

if TYPE_CHECKING:
    from springtail.tools import ToolCallback

__all__ = [
    "ResolvedTools",
    "ToolSource",
    "check_unique",
    "resolve_sources",
]

ToolSource: TypeAlias = Any
"""An object with @tool methods, a @tool function, a ToolCallback or a lazy provider."""


def _is_lazy_provider(source: object) -> bool:
    """A plain zero-argument callable that is not itself a tool."""
    if isinstance(source, type) or not callable(source):
        return False
    if hasattr(source, "tool_definition") or _is_tool_function(source):
        return False
    try:
        signature = inspect.signature(source)
    except (TypeError, ValueError):
        return False
    return all(
        p.default is not inspect.Parameter.empty
        or p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        for p in signature.parameters.values()
    )


def _is_tool_function(source: object) -> bool:
    # The mark @tool leaves on what it decorates (springtail.tools._decorator).
    return hasattr(source, "__springtail_tool__")


def _callbacks_of(source: object) -> list[ToolCallback]:
    if hasattr(source, "tool_definition") and hasattr(source, "acall"):
        return [source]  # type: ignore[list-item]  # a ToolCallback: nothing to collect
    from springtail.tools import tool_callbacks

    return list(tool_callbacks(source))


@dataclass(frozen=True, slots=True)
class ResolvedTools:
    """Tools resolved once (``static``) and lazy providers asked per request."""

    static: tuple[ToolCallback, ...] = ()
    providers: tuple[Callable[[], Any], ...] = ()

    def callbacks(self) -> list[ToolCallback]:
        """Every callback, asking each lazy provider now."""
        result = list(self.static)
        for provider in self.providers:
            produced = provider()
            items: Iterable[object] = (
                produced if isinstance(produced, list | tuple | set | frozenset) else (produced,)
            )
            for item in items:
                result.extend(_callbacks_of(item))
        return result

    def __bool__(self) -> bool:
        return bool(self.static or self.providers)


def resolve_sources(sources: Iterable[ToolSource]) -> ResolvedTools:
    """Resolve the sources that can be resolved now; keep lazy providers for later."""
    static: list[ToolCallback] = []
    providers: list[Callable[[], Any]] = []
    for source in sources:
        if _is_lazy_provider(source):
            providers.append(source)
        else:
            static.extend(_callbacks_of(source))
    return ResolvedTools(tuple(static), tuple(providers))


def check_unique(callbacks: Sequence[ToolCallback]) -> None:
    """Raise ``DuplicateToolNameError`` when two callbacks share a name."""
    seen: set[str] = set()
    duplicates: list[str] = []
    for callback in callbacks:
        name = callback.tool_definition.name
        if name in seen and name not in duplicates:
            duplicates.append(name)
        seen.add(name)
    if duplicates:
        raise DuplicateToolNameError(duplicates)
