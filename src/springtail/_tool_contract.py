"""What a tool is to the rest of springtail: definition, metadata, context and protocol.

These four names are ``springtail.tools``'s public API and are documented
there; they are implemented here, below ``springtail.messages``, because
``ChatOptions.tool_callbacks`` (a message value) holds ``ToolCallback``s:
with them in ``tools/`` the messages layer would name a layer above it.
Nothing here imports anything of springtail.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

__all__ = ["ToolCallback", "ToolContext", "ToolDefinition", "ToolMetadata"]


class ToolContext(Mapping[str, Any]):
    """Read-only values handed to tools that declare a ``ToolContext`` parameter.

    Use it for what the application knows and the model must not choose: the
    user's name, the conversation id, a database handle. It is immutable so
    that tools running concurrently share it safely.
    """

    __slots__ = ("_data", "_idempotency_key")

    def __init__(
        self, context: Mapping[str, Any] | None = None, *, idempotency_key: str | None = None
    ) -> None:
        self._data: dict[str, Any] = dict(context) if context else {}
        if idempotency_key is None and isinstance(context, ToolContext):
            idempotency_key = context.idempotency_key
        self._idempotency_key: str | None = idempotency_key

    @property
    def idempotency_key(self) -> str | None:
        """A key that stays the same for this one call however often it is retried.

        Set when the call runs as a step of a durable turn (``springtail.durable``):
        the turn's workflow id plus the step's number. A tool that calls an
        outside API passes it on (an ``Idempotency-Key`` header, a unique
        column) so that a retried call changes nothing twice. ``None`` outside a
        durable turn.
        """
        return self._idempotency_key

    def with_idempotency_key(self, key: str | None) -> ToolContext:
        """A copy of this context carrying ``key`` as its idempotency key."""
        return ToolContext(self._data, idempotency_key=key)

    @property
    def context(self) -> dict[str, Any]:
        """A plain ``dict`` copy, safe to change."""
        return dict(self._data)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        if self._idempotency_key is not None:
            return f"ToolContext({self._data!r}, idempotency_key={self._idempotency_key!r})"
        return f"ToolContext({self._data!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ToolContext):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._data.items(), key=lambda kv: kv[0])))


@dataclass(frozen=True, slots=True)
class ToolDefinition:
    """The name, description and JSON Schema a provider sends to the model."""

    name: str
    description: str
    input_schema: Mapping[str, Any]

    def __post_init__(self) -> None:
        if not self.name or not self.name.strip():
            raise ValueError("ToolDefinition.name must not be empty")
        if not self.description or not self.description.strip():
            raise ValueError(f"ToolDefinition {self.name!r}: description must not be empty")
        if not self.input_schema:
            raise ValueError(f"ToolDefinition {self.name!r}: input_schema must not be empty")

    def __hash__(self) -> int:
        return hash((self.name, self.description))


@dataclass(frozen=True, slots=True)
class ToolMetadata:
    """How the tool loop treats a tool and its result.

    ``return_direct`` hands the result straight back to the caller instead of
    sending it to the model again. ``timeout`` (seconds, ``None`` for the
    manager's default) bounds one run of the tool, and ``requires_approval``
    asks the manager's approver before every run; they live here so that a
    hand-built callback can carry them too, not only ``@tool`` functions.
    ``is_async`` says how the manager runs the tool: ``True`` awaits
    ``acall`` on the event loop, ``False`` runs the blocking ``call`` on a
    worker thread. ``@tool`` callbacks set it from the function.
    ``idempotent`` says that running the tool twice with the same arguments
    does no more than running it once: a durable turn
    (``springtail.durable``) runs such a tool again when a crash interrupted
    it, and answers any other interrupted tool with a notice instead. The
    manager reads these flags here and nowhere else.
    """

    return_direct: bool = False
    timeout: float | None = None
    requires_approval: bool = False
    is_async: bool = True
    idempotent: bool = False

    def __post_init__(self) -> None:
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(
                f"ToolMetadata.timeout must be a positive number of seconds or None, "
                f"got {self.timeout!r}"
            )


@runtime_checkable
class ToolCallback(Protocol):
    """A tool the model can call: its definition plus a way to run it.

    ``tool_input`` is the raw JSON text of the arguments as the model wrote
    it; the callback validates it and returns the result as text for the
    model. ``acall`` is what the tool loop uses; ``call`` is for plain code.
    """

    @property
    def tool_definition(self) -> ToolDefinition: ...

    @property
    def tool_metadata(self) -> ToolMetadata: ...

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str: ...

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str: ...
