"""One policy for every tool failure: answer the model, or raise to the caller."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Protocol

from springtail.tools._errors import ToolExecutionError

__all__ = [
    "THROW_ON_ERROR_ENV",
    "DefaultToolExecutionExceptionProcessor",
    "ToolExecutionExceptionProcessor",
]

THROW_ON_ERROR_ENV = "SPRINGTAIL_TOOLS_THROW_EXCEPTION_ON_ERROR"


class ToolExecutionExceptionProcessor(Protocol):
    """Turns a failed tool call into the text the model reads, or raises.

    Any ``Callable[[ToolExecutionError], str]`` fits, so a plain function or
    a lambda is a processor. Raising from it ends the whole tool execution
    with that exception, which is how a caller opts out of letting the model
    see failures.
    """

    def __call__(self, error: ToolExecutionError, /) -> str: ...


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"true", "1"}


class DefaultToolExecutionExceptionProcessor:
    """Hand the failure's message to the model, unless told to raise.

    Args:
        always_throw: raise the ``ToolExecutionError`` instead of answering.
            ``None`` reads ``SPRINGTAIL_TOOLS_THROW_EXCEPTION_ON_ERROR``
            (``true``/``1``) once, here, so a deployment can switch the
            policy without code changes while a running manager stays
            predictable.
        rethrow: exception types (subclasses included) that are raised as the
            raw cause, for failures the application must handle itself, such
            as a lost database connection.
    """

    __slots__ = ("_rethrow", "always_throw")

    def __init__(
        self,
        always_throw: bool | None = None,
        rethrow: Iterable[type[BaseException]] = (),
    ) -> None:
        rethrow = tuple(rethrow)
        bad = [r for r in rethrow if not (isinstance(r, type) and issubclass(r, BaseException))]
        if bad:
            raise TypeError(
                f"rethrow must list exception classes; got {bad!r}. "
                "Pass types such as (ConnectionError, PermissionError)."
            )
        self.always_throw: bool = (
            _env_flag(THROW_ON_ERROR_ENV) if always_throw is None else always_throw
        )
        self._rethrow: tuple[type[BaseException], ...] = rethrow

    @property
    def rethrow(self) -> tuple[type[BaseException], ...]:
        """The exception types raised as they are instead of being answered."""
        return self._rethrow

    def process(self, error: ToolExecutionError) -> str:
        """Same as calling the processor; the name Spring users look for."""
        return self(error)

    def __call__(self, error: ToolExecutionError, /) -> str:
        cause = error.cause
        if self._rethrow and isinstance(cause, self._rethrow):
            raise cause
        if self.always_throw:
            raise error
        message = str(error)
        if message.strip():
            return message
        definition = error.tool_definition
        name = definition.name if definition is not None else getattr(error, "tool_name", "unknown")
        return f"Exception occurred in tool: {name} ({type(cause).__name__})"

    def __repr__(self) -> str:
        return (
            f"DefaultToolExecutionExceptionProcessor(always_throw={self.always_throw!r}, "
            f"rethrow={self._rethrow!r})"
        )
