"""The small-model policy: every rule the embedded model follows beyond translating and decoding.

``LlamaCppChatModel`` renders the model's chat template, decodes (a call's
body under the tools' grammar), streams and caches; that is all it does on
its own. A 1.5B model needs more help than that to call tools well, and that
help is here, in one object the ``embedded`` presets turn on
(``SmallModelPolicy()``) and any other GGUF leaves off (``PlainPolicy()``).
Pass ``policy=`` to swap it. The measurements behind each rule are in
``docs/embedded-model.md``.

The policy reads the prompt (what the user asked, what the tools returned)
but never runs or refuses tools: loop prevention is the tool loop's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from springtail.messages import (
    AssistantMessage,
    Message,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp._followup import named_tools
from springtail.tools._definition import ToolDefinition

__all__ = [
    "DEFAULT_TOOL_GUIDANCE",
    "Opening",
    "PlainPolicy",
    "SmallModelPolicy",
    "ToolPolicy",
    "TurnView",
]

DEFAULT_TOOL_GUIDANCE = (
    "Only call a function when the request needs what the function returns. "
    "Reply to greetings, thanks and general questions in plain text, without a function. "
    "After a function returns, answer the user's request in one or two full sentences "
    "that state the values it returned; do not describe functions."
)
"""Appended to the system prompt when tools are offered (why: docs/embedded-model.md)."""


@dataclass(frozen=True, slots=True)
class TurnView:
    """What a policy reads of a prompt: the request and what this turn's tools did."""

    request: str = ""
    calls: frozenset[tuple[str, str]] = frozenset()
    """``(name, canonical JSON arguments)`` of the calls made since the last user message."""
    succeeded: frozenset[str] = frozenset()
    """Tools that answered without an error since the last user message."""
    follow_up: bool = False
    """The request comes after an answer in the conversation."""

    @property
    def has_results(self) -> bool:
        """Whether tools have answered in this turn."""
        return bool(self.calls)

    def called(self) -> set[str]:
        """The tools called in this turn."""
        return {name for name, _ in self.calls}

    def repeats(self, name: str, arguments: dict[str, object]) -> bool:
        """Whether a call with these arguments was already made in this turn."""
        return (name, canonical_arguments(arguments)) in self.calls

    @classmethod
    def of(cls, messages: Sequence[Message]) -> TurnView:
        """The view of a prompt's messages."""
        calls: set[tuple[str, str]] = set()
        succeeded: set[str] = set()
        request = ""
        follow_up = False
        in_turn = True
        for message in reversed(messages):
            if isinstance(message, UserMessage):
                if in_turn:
                    request, in_turn = message.text, False
                continue
            if not in_turn:
                if isinstance(message, AssistantMessage):
                    follow_up = True
                    break
                continue
            if isinstance(message, ToolResponseMessage):
                succeeded.update(r.name for r in message.responses if not r.is_error)
            elif isinstance(message, AssistantMessage):
                for call in message.tool_calls:
                    try:
                        arguments = json.loads(call.arguments or "{}")
                    except ValueError:
                        continue
                    calls.add((call.name, canonical_arguments(arguments)))
        return cls(request, frozenset(calls), frozenset(succeeded), follow_up)


def canonical_arguments(arguments: object) -> str:
    """Arguments as one string that is the same for equal JSON values."""
    return json.dumps(arguments, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Opening:
    """How the next reply may open, as a policy decides it."""

    offer: tuple[ToolDefinition, ...] = ()
    """When set, the reply is a call to one of these tools (the model writes the arguments)."""
    call_floor: float | None = None
    """The reply opens with a call when the call-opening tokens get at least this share of the
    first token's probability, whatever the sampler picked."""


class ToolPolicy(Protocol):
    """The rules a small model needs beyond its template and the call grammar."""

    @property
    def guidance(self) -> str | None:
        """Text appended to the system prompt when tools are offered."""
        ...

    @property
    def never_empty(self) -> bool:
        """A reply may not begin with an end-of-generation token."""
        ...

    @property
    def unknown_tool_as_prose(self) -> bool:
        """A call to a tool that does not exist becomes a prose reply (else the loop answers it)."""
        ...

    @property
    def spelled_tag_as_prose(self) -> bool:
        """A reply that spells a tag out of plain text (``<tools>``) is generated again as prose."""
        ...

    @property
    def repeat_as_prose(self) -> bool:
        """A reply whose first call repeats one made in this turn is generated again as prose."""
        ...

    @property
    def one_call_per_reply(self) -> bool:
        """A reply ends after its first call, without asking the model whether another follows."""
        ...

    def result_text(self, name: str, data: str, *, is_error: bool) -> str:
        """A tool's result as the model reads it."""
        ...

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening:
        """How the next reply may open."""
        ...


@dataclass(frozen=True, slots=True)
class PlainPolicy:
    """No rules: the model's template, the call grammar and nothing else (any GGUF's default)."""

    guidance: str | None = None
    never_empty: bool = False
    unknown_tool_as_prose: bool = False
    spelled_tag_as_prose: bool = False
    repeat_as_prose: bool = False
    one_call_per_reply: bool = False

    def result_text(self, name: str, data: str, *, is_error: bool) -> str:
        """The result as the tool returned it."""
        return data

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening:
        """Any reply."""
        return Opening()


@dataclass(frozen=True, slots=True)
class SmallModelPolicy:
    """The embedded presets' rules, each measured on the 1.5B model (docs/embedded-model.md).

    Args:
        guidance: Appended to the system prompt when tools are offered: call a
            function only when needed, answer with the values it returned.
        never_empty: After tool results the 1.5B model sometimes ends its turn
            before writing anything; the first token is then the best non-end one.
        unknown_tool_as_prose: A call to a tool that does not exist means no
            tool fits; the reply is generated again in prose.
        spelled_tag_as_prose: For requests no tool serves the model sometimes
            writes ``<tools></tools>`` copied from the template; such a reply is
            generated again in prose.
        repeat_as_prose: A reply that opens with a call identical to one made in
            this turn means the model has nothing new to call: it answers instead.
        one_call_per_reply: The 1.5B model never writes a second call in one
            reply (p(``<tool_call>``) after a call's ``</tool_call>`` stayed
            below 0.0001 on every request measured), so asking it costs a
            decoding step for nothing; its next call comes after the result.
        result_prefix: Results read ``NAME returned: DATA``; a bare value left the
            model thanking the user instead of stating it.
        offer_named_tools: Once tools have answered, a tool the request names
            word for word but the turn has not called is offered first (the
            second half of "reserve 2 units and add that as a to-do").
        follow_up_call_floor: In a conversation that already has answers, a new
            request opens with a call when calling gets at least this share of
            the first token's probability; ``None`` turns it off.
        after_results_call_floor: Once tools have answered, the reply opens with
            another call when calling gets at least this share of the first
            token's probability. The 1.5B model answers after the first of two
            calls a request needs ("12 times 7, and 300 divided by 4"), but
            gives calling more weight there than when it is done; a forced call
            that only repeats one already made is answered in prose
            (``repeat_as_prose``). Only after the turn's first call: pushed after
            a second, the model made up a third. Off (``None``) by default: 0.03
            was chosen on the development half of ``bench/matrix`` and did not
            hold on the held-out half (docs/embedded-model.md).
    """

    guidance: str | None = DEFAULT_TOOL_GUIDANCE
    never_empty: bool = True
    unknown_tool_as_prose: bool = True
    spelled_tag_as_prose: bool = True
    repeat_as_prose: bool = True
    one_call_per_reply: bool = True
    result_prefix: bool = True
    offer_named_tools: bool = True
    follow_up_call_floor: float | None = 0.01
    after_results_call_floor: float | None = None

    def __post_init__(self) -> None:
        for name in ("follow_up_call_floor", "after_results_call_floor"):
            floor = getattr(self, name)
            if floor is not None and not 0.0 < floor <= 1.0:
                raise ValueError(f"{name}={floor} must lie in (0, 1], or be None.")

    def result_text(self, name: str, data: str, *, is_error: bool) -> str:
        """``NAME returned: DATA`` (or ``failed``), so the answer states it."""
        if not self.result_prefix:
            return data
        return f"{name} {'failed' if is_error else 'returned'}: {data}"

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening:
        """Offer named tools after results, else push towards another call; same for follow-ups."""
        if not tools:
            return Opening()
        if view.has_results:
            if self.offer_named_tools and view.request:
                offer = tuple(named_tools(view.request, tools, view.called()))
                if offer:
                    return Opening(offer=offer)
            if len(view.calls) == 1:
                return Opening(call_floor=self.after_results_call_floor)
            return Opening()
        if view.follow_up and self.follow_up_call_floor is not None:
            return Opening(call_floor=self.follow_up_call_floor)
        return Opening()
