"""The ChatModel base class and the errors every provider shares.

A provider writes the two async methods, ``acall`` and ``astream``; the sync
twins and the error translation come from here, so no provider repeats them.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

from springtail._sync import iterate_sync, run_sync
from springtail.messages import ChatOptions, ChatResponse, Prompt

__all__ = ["ChatModel", "ModelError", "ModelUnavailableError"]


class ModelError(Exception):
    """A model call failed in a way the caller should hear about."""


class ModelUnavailableError(ModelError):
    """The model cannot be reached or loaded; the message says what to start or install."""


class ChatModel(abc.ABC):
    """A chat model: sends tool definitions, returns tool calls, never runs tools.

    Subclasses implement [`acall`][] and [`astream`][]; [`call`][] and
    [`stream`][] run them from sync code (a plain script, a worker thread,
    or inside a running event loop). ``astream`` yields partial responses:
    text deltas as they arrive, and each tool call once it is complete
    (providers assemble the fragments of a call before yielding it).

    A provider wraps its network work in [`translating_errors`][] and
    overrides [`translate_error`][] to turn what its SDK raises into a
    [`ModelError`][] with one true sentence; whatever it does not
    recognise still becomes a [`ModelError`][], so a caller only ever
    has to catch that.

    Any class with ``call``, ``acall``, ``stream`` and ``astream`` passes
    ``isinstance(obj, ChatModel)``, so a model written against the earlier
    protocol keeps working with code that checks for one.

    Attributes:
        default_options: Options for every request; a request's own options
            win field by field.
        native_response_schema: Whether the provider enforces
            ``ChatOptions.response_schema`` itself (OpenAI ``response_format``,
            Ollama ``format``, a grammar on the embedded model). When it does
            not, the client's prompt instructions are all the model gets.
    """

    default_options: ChatOptions
    native_response_schema: ClassVar[bool] = False

    @abc.abstractmethod
    async def acall(self, prompt: Prompt) -> ChatResponse:
        """Send the prompt and wait for the whole answer."""

    @abc.abstractmethod
    def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """Stream the answer (an async generator function in every provider)."""

    def call(self, prompt: Prompt) -> ChatResponse:
        """Send the prompt and wait for the whole answer, from sync code."""
        return run_sync(self.acall(prompt))

    def stream(self, prompt: Prompt) -> Iterator[ChatResponse]:
        """Stream the answer from sync code, chunk by chunk as it arrives."""
        return iterate_sync(lambda: self.astream(prompt))

    async def aclose(self) -> None:  # noqa: B027  (optional hook, nothing held by default)
        """Release what the model holds for the running event loop (an HTTP client).

        Nothing by default; the server providers close the loop's client.
        """

    # -- error translation -------------------------------------------------------

    def translate_error(
        self, exc: Exception, *, model: str | None = None, streaming: bool = False
    ) -> ModelError:
        """The [`ModelError`][] that tells the caller what ``exc`` means.

        Providers override this for the exceptions their SDK raises and call
        ``super()`` for the rest. This fallback is for faults nobody foresaw:
        it names the model and the exception in one sentence.

        Args:
            exc: What the SDK or the transport raised.
            model: The model name the request asked for, for the sentence.
            streaming: Whether the answer had begun to stream: a connection
                that breaks then means something else than one that never
                opened ("start the server" would be untrue).
        """
        name = f" {model!r}" if model else ""
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return ModelError(
            f"The model{name} of {self!r} failed with {type(exc).__name__}"
            + (f": {detail}" if detail else ".")
        )

    @contextmanager
    def translating_errors(
        self, *, model: str | None = None, streaming: bool = False
    ) -> Iterator[None]:
        """Raise whatever the block raises as a [`ModelError`][] (``from`` the original).

        A [`ModelError`][] passes through unchanged, and so does anything
        that is not an ``Exception`` (cancellation, Ctrl-C, generator exit).
        """
        try:
            yield
        except ModelError:
            raise
        except Exception as exc:
            raise self.translate_error(exc, model=model, streaming=streaming) from exc

    @classmethod
    def __subclasshook__(cls, other: type) -> Any:
        if cls is ChatModel:
            names = ("call", "acall", "stream", "astream")
            if all(any(name in vars(base) for base in other.__mro__) for name in names):
                return True
        return NotImplemented
