"""What a ChatClient gives every request, and the checks its arguments pass.

The client (``_client.py``) builds a ``ClientDefaults`` once; each
request spec (``_spec.py``) reads it. Both depend on this module and neither
on the other, so the spec needs nothing of the client but its defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from springtail.client._request import PreparedRequest
from springtail.client._tools import ResolvedTools, ToolSource
from springtail.execution._errors import DuplicateToolNameError
from springtail.messages import ChatOptions
from springtail.models._base import ChatModel

__all__ = ["ClientDefaults", "check_advisor", "flatten"]


@dataclass(frozen=True, slots=True)
class ClientDefaults:
    """A client's defaults: model, instructions, tools, advisors, context, options."""

    model: ChatModel
    system: str | None = None
    user: str | None = None
    tool_sources: tuple[ToolSource, ...] = ()
    tools: ResolvedTools = field(default_factory=ResolvedTools)
    advisors: tuple[Any, ...] = ()
    tool_context: Mapping[str, Any] = field(default_factory=dict)
    options: ChatOptions | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    auto_register: bool = True
    _ready: list[ChatOptions | None] = field(default_factory=list, compare=False, repr=False)

    def ready_options(self) -> ChatOptions | None:
        """Options for requests that add nothing to the defaults, built on first use.

        Saves rebuilding the same ``ChatOptions`` on every request; lazy tool
        providers must be asked each time, so with them there is no cache.
        """
        if self._ready:
            return self._ready[0]
        if self.tools.providers:
            return None
        try:
            ready = PreparedRequest(
                model=self.model,
                messages=(),
                options=self.options,
                tools=(self.tools,),
                tool_context=self.tool_context,
                advisors=(),
                params={},
                auto_register=self.auto_register,
            ).final_options()
        except DuplicateToolNameError:
            return None  # raised again, as documented, when the request runs
        self._ready.append(ready)
        return ready


def check_advisor(advisor: object) -> None:
    """Reject what cannot sit in an advisor chain, saying what is missing."""
    missing = [attr for attr in ("name", "order") if not hasattr(advisor, attr)]
    if not (hasattr(advisor, "advise_call") or hasattr(advisor, "advise_stream")):
        missing.append("advise_call or advise_stream")
    if missing:
        raise TypeError(
            f"{advisor!r} is not an advisor: it lacks {', '.join(missing)}. "
            "An advisor has a name, an int order and advise_call and/or advise_stream."
        )
    if isinstance(advisor.order, bool) or not isinstance(advisor.order, int):  # type: ignore[attr-defined]
        raise TypeError(f"{advisor!r}: order must be an int, got {advisor.order!r}")  # type: ignore[attr-defined]


def flatten(items: tuple[Any, ...]) -> list[Any]:
    """Accept both ``f(a, b)`` and ``f([a, b])``."""
    if len(items) == 1 and isinstance(items[0], list | tuple):
        return list(items[0])
    return list(items)
