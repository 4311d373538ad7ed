"""Finding a tool by name when the request did not carry it."""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol, runtime_checkable

from springtail.tools._callback import ToolCallback
from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition, ToolMetadata
from springtail.tools._errors import ToolExecutionError

__all__ = [
    "DelegatingToolCallbackResolver",
    "EntryPointToolCallbackResolver",
    "StaticToolCallbackResolver",
    "ToolCallbackResolver",
    "UnloadableTool",
    "listed_names",
]

logger = logging.getLogger("springtail.execution")


@runtime_checkable
class ToolCallbackResolver(Protocol):
    """Looks a tool up by the name the model used; ``None`` when it has none."""

    def resolve(self, name: str) -> ToolCallback | None:
        """The tool called ``name``, or ``None``."""
        ...


def _is_callback(obj: object) -> bool:
    return (
        hasattr(obj, "tool_definition")
        and callable(getattr(obj, "call", None))
        and callable(getattr(obj, "acall", None))
    )


class StaticToolCallbackResolver:
    """A fixed set of tools, known when the application starts.

    Raises:
        ValueError: two tools share a name, which would make lookups depend
            on the order they were given in.
    """

    __slots__ = ("_by_name",)

    def __init__(self, callbacks: Iterable[ToolCallback]) -> None:
        by_name: dict[str, ToolCallback] = {}
        duplicates: list[str] = []
        for callback in callbacks:
            if not _is_callback(callback):
                raise TypeError(
                    f"{callback!r} is not a ToolCallback: it needs tool_definition, "
                    "call() and acall(). Convert @tool functions and objects with "
                    "springtail.tool_callbacks(...)."
                )
            name = callback.tool_definition.name
            if name in by_name:
                duplicates.append(name)
            by_name[name] = callback
        if duplicates:
            raise ValueError(
                f"Two tools are named {', '.join(map(repr, sorted(set(duplicates))))}; "
                "tool names must be unique. Rename one of them."
            )
        self._by_name = by_name

    def tool_names(self) -> tuple[str, ...]:
        """The names this resolver knows, in the order given."""
        return tuple(self._by_name)

    def resolve(self, name: str) -> ToolCallback | None:
        """The tool called ``name``, or ``None``."""
        return self._by_name.get(name)

    def __repr__(self) -> str:
        return f"StaticToolCallbackResolver({list(self._by_name)!r})"


class DelegatingToolCallbackResolver:
    """Asks several resolvers in order; the first that knows the name wins."""

    __slots__ = ("_resolvers",)

    def __init__(self, resolvers: Iterable[ToolCallbackResolver]) -> None:
        self._resolvers = tuple(resolvers)
        for resolver in self._resolvers:
            if not callable(getattr(resolver, "resolve", None)):
                raise TypeError(f"{resolver!r} is not a ToolCallbackResolver: it has no resolve()")

    @property
    def resolvers(self) -> tuple[ToolCallbackResolver, ...]:
        """The resolvers asked, in order."""
        return self._resolvers

    def tool_names(self) -> tuple[str, ...]:
        """The names known to the resolvers that can list theirs, first ones first."""
        names: dict[str, None] = {}
        for resolver in self._resolvers:
            names.update(dict.fromkeys(listed_names(resolver)))
        return tuple(names)

    def resolve(self, name: str) -> ToolCallback | None:
        """The first hit among the resolvers, or ``None``."""
        for resolver in self._resolvers:
            callback = resolver.resolve(name)
            if callback is not None:
                return callback
        return None

    def __repr__(self) -> str:
        return f"DelegatingToolCallbackResolver({list(self._resolvers)!r})"


class EntryPointToolCallbackResolver:
    """Tools published by installed distributions under an entry-point group.

    A distribution declares, in its ``pyproject.toml``:

    ```toml
    [project.entry-points."springtail.tools"]
    weather = "acme_tools:weather"
    ```

    where the target is a ``@tool`` function, a ``ToolCallback``, or a
    zero-argument factory returning one. Targets are imported on first use
    and cached; names not found are looked up again next time, so tools
    installed while the process runs are picked up.
    """

    __slots__ = ("_cache", "_group", "_lock")

    def __init__(self, group: str = "springtail.tools") -> None:
        if not group:
            raise ValueError("group must name an entry-point group, e.g. 'springtail.tools'")
        self._group = group
        self._cache: dict[str, ToolCallback] = {}
        self._lock = threading.Lock()

    @property
    def group(self) -> str:
        """The entry-point group searched."""
        return self._group

    def tool_names(self) -> tuple[str, ...]:
        """The names of the entry points installed in the group right now."""
        return tuple(sorted({ep.name for ep in entry_points(group=self._group)}))

    def resolve(self, name: str) -> ToolCallback | None:
        """The tool published as ``name``, or ``None``.

        Raises:
            ImportError: the entry point exists but its target cannot be
                imported; the message names the entry point and distribution.
            TypeError: the target is neither a tool nor a factory of one.
        """
        cached = self._cache.get(name)
        if cached is not None:
            return cached
        found = tuple(entry_points(group=self._group, name=name))
        if not found:
            return None
        callback = self._load(found[0])
        with self._lock:
            return self._cache.setdefault(name, callback)

    def _load(self, entry_point: EntryPoint) -> ToolCallback:
        where = f"entry point '{entry_point.name} = {entry_point.value}' in group '{self._group}'"
        dist = getattr(entry_point, "dist", None)
        if dist is not None:
            where += f" (distribution {dist.name} {dist.version})"
        try:
            target = entry_point.load()
        except Exception as exc:
            raise ImportError(f"Cannot load the {where}: {exc}") from exc
        callback = _as_callback(target)
        if callback is None and callable(target):
            try:
                produced = target()
            except TypeError as exc:
                raise TypeError(
                    f"The {where} points to {target!r}, which is not a tool, and calling "
                    f"it with no arguments failed ({exc}). Point it to a @tool function, "
                    "a ToolCallback, or a zero-argument factory returning one."
                ) from exc
            callback = _as_callback(produced)
        if callback is None:
            raise TypeError(
                f"The {where} points to {target!r}, which is not a tool. Point it to a "
                "@tool function, a ToolCallback, or a zero-argument factory returning one."
            )
        if callback.tool_definition.name != entry_point.name:
            logger.warning(
                "The %s provides a tool named %r; the entry point should carry the tool's name",
                where,
                callback.tool_definition.name,
            )
        return callback

    def __repr__(self) -> str:
        return f"EntryPointToolCallbackResolver(group={self._group!r})"


def listed_names(resolver: object) -> tuple[str, ...]:
    """The names a resolver can list through an optional ``tool_names()``; else none.

    Listing is optional for a resolver: it only improves the answer to a
    call of an unknown tool. A resolver that fails to list lists nothing.
    """
    method = getattr(resolver, "tool_names", None)
    if not callable(method):
        return ()
    try:
        return tuple(str(name) for name in method())
    except Exception:
        logger.debug("%r could not list its tools", resolver, exc_info=True)
        return ()


def _as_callback(obj: Any) -> ToolCallback | None:
    """``obj`` as a ToolCallback when it is one or a @tool function."""
    if _is_callback(obj):
        callback: ToolCallback = obj
        return callback
    # Looked up at run time: the @tool helpers live in the tools layer's
    # public package, which imports far more than a resolver needs up front.
    tool_callbacks = getattr(importlib.import_module("springtail.tools"), "tool_callbacks", None)
    if tool_callbacks is None:
        return None
    try:
        callbacks = tool_callbacks(obj)
    except (TypeError, ValueError):
        return None
    if len(callbacks) != 1:
        return None
    found: ToolCallback = callbacks[0]
    return found


class UnloadableTool:
    """Stands in for a tool whose lookup raised, so that call gets an error answer."""

    is_async = True

    def __init__(self, name: str, error: Exception) -> None:
        self.tool_definition = ToolDefinition(name, f"Tool {name}", {"type": "object"})
        self.tool_metadata = ToolMetadata()
        self._error = error

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        raise ToolExecutionError(
            self.tool_definition,
            self._error,
            f"Tool '{self.tool_definition.name}' could not be loaded: {self._error}",
        )

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return self.call(tool_input, tool_context)
