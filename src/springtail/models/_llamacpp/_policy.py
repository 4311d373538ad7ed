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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from springtail.models._llamacpp._followup import named_tools, partly_named_tools
from springtail.models._llamacpp._values import (
    Known,
    doubled,
    grounded,
    literals,
    made_up,
    shape,
    uses,
)
from springtail.models._llamacpp._view import TurnView
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
class Opening:
    """How the next reply may open, as a policy decides it."""

    offer: tuple[ToolDefinition, ...] = ()
    """When set, the reply is a call to one of these tools (the model writes the arguments)."""
    call_floor: float | None = None
    """The reply opens with a call when the call-opening tokens get at least this share of the
    first token's probability, whatever the sampler picked."""
    wanted: frozenset[str] = frozenset()
    """When set, a call to an offered tool is kept only if ``keeps_extra_call`` accepts it
    for these values; otherwise the reply opens as it would without the offer."""


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

    def unused_values(
        self,
        view: TurnView,
        calls: Sequence[tuple[str, Mapping[str, Any]]],
        tools: Sequence[ToolDefinition],
    ) -> frozenset[str]:
        """Values of the request that neither this turn's calls nor ``calls`` carry.

        When any are left after a call, the reply is asked for another call that
        carries one; an empty set ends the reply as the model would.
        """
        ...

    def keeps_extra_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        wanted: frozenset[str],
        tools: Sequence[ToolDefinition],
    ) -> bool:
        """Whether a call the policy asked for is kept (it must carry one of ``wanted``)."""
        ...

    def made_up_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        tools: Sequence[ToolDefinition],
    ) -> bool:
        """Whether a call the model chose was invented; the reply is then generated as prose."""
        ...

    def instead_of_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        tools: Sequence[ToolDefinition],
    ) -> tuple[ToolDefinition, ...]:
        """Tools to offer in place of a call the model chose; empty keeps the call."""
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

    def unused_values(
        self,
        view: TurnView,
        calls: Sequence[tuple[str, Mapping[str, Any]]],
        tools: Sequence[ToolDefinition],
    ) -> frozenset[str]:
        """None: the model alone decides whether another call follows."""
        return frozenset()

    def keeps_extra_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        wanted: frozenset[str],
        tools: Sequence[ToolDefinition],
    ) -> bool:
        """Every call (this policy never asks for one)."""
        return True

    def made_up_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        tools: Sequence[ToolDefinition],
    ) -> bool:
        """Never: the model's calls are its own."""
        return False

    def instead_of_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        tools: Sequence[ToolDefinition],
    ) -> tuple[ToolDefinition, ...]:
        """Nothing: the model's calls are its own."""
        return ()


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
            decoding step for nothing; a further call in the same reply comes
            only when ``call_for_unused_values`` asks for it.
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
        call_for_unused_values: The 1.5B model writes one call per reply and,
            once its result is in, answers: "12 times 7, and 300 divided by 4"
            got 84 and nothing else. So while the request holds values (numbers,
            ids, dates, quoted phrases, codes) that no call of the turn carries,
            the reply is asked for another call, and keeps it only when it is
            new, carries one of those values and every value with digits in it
            comes from the conversation (a value a pending result will give is
            not there yet). The same holds once results are in, and for a
            follow-up request ("Reserve 2 of them", "And in GBP?"), which the
            model otherwise answers from the conversation without a call.
        call_for_result_values: Once tools have answered, a tool the request
            names by a word no called tool's name has ("convert" for
            ``convert_units`` after ``average``) is offered, and its call kept
            only when it carries a value the results gave and the request did
            not: the second step of "take the average of 12, 18 and 30, and
            convert that many km to miles", which the model otherwise answers
            with the first result alone. Off by default: it took the
            development half's chained requests up, but none of the held-out
            half's (docs/embedded-model.md).
        made_up_call_as_prose: A call whose values with digits all come from
            nowhere in the conversation ("How many minutes are there in a
            day?" became ``days_between("2023-04-01", "2023-04-01")``) was
            invented, not read: the reply is generated again as prose, from the
            prompt without the tools (with them, the model described the call it
            meant to make).
        named_instead_of_doubled: A call that writes one id or date into two
            arguments when the conversation gives it once filled a slot it had no
            value for ("How many days is it from today until 2026-04-01?" became
            ``days_between("2026-04-01", "2026-04-01")``); when the request names
            other tools (``today``), one of them is called first instead. Off
            by default, for the same reason as ``call_for_result_values``.
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
    call_for_unused_values: bool = True
    call_for_result_values: bool = False
    made_up_call_as_prose: bool = True
    named_instead_of_doubled: bool = False

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
        """Offer named tools after results, then a call for the request's unused values.

        A follow-up request gets the same offer for its values, and otherwise
        the follow-up call floor.
        """
        if not tools:
            return Opening()
        if view.has_results:
            if self.offer_named_tools and view.request:
                offer = tuple(named_tools(view.request, tools, view.called()))
                if offer:
                    return Opening(offer=offer)
            floor = self.after_results_call_floor if len(view.calls) == 1 else None
            wanted = self._unused(view, (), tools, any_shape=self.call_for_result_values)
            if wanted:
                return Opening(offer=tuple(tools), call_floor=floor, wanted=wanted)
            if self.call_for_result_values and view.request:
                offer = tuple(partly_named_tools(view.request, tools, view.called()))
                wanted = literals(view.results) - literals(view.request)
                if offer and wanted:
                    return Opening(offer=offer, call_floor=floor, wanted=wanted)
            return Opening(call_floor=floor)
        if view.follow_up:
            wanted = self.unused_values(view, (), tools)
            if wanted:
                return Opening(
                    offer=tuple(tools), call_floor=self.follow_up_call_floor, wanted=wanted
                )
            return Opening(call_floor=self.follow_up_call_floor)
        return Opening()

    def unused_values(
        self,
        view: TurnView,
        calls: Sequence[tuple[str, Mapping[str, Any]]],
        tools: Sequence[ToolDefinition],
    ) -> frozenset[str]:
        """The request's values that no call of this turn, nor ``calls``, carries.

        Once a call has taken some of them, only values shaped like those count
        (numbers after numbers, dates after dates, ids after ids): a second call
        of the same request is for more of the same, while "order 1042 of
        customer C-7" is one call that needed only the order's number.
        """
        return self._unused(view, calls, tools, any_shape=False)

    def _unused(
        self,
        view: TurnView,
        calls: Sequence[tuple[str, Mapping[str, Any]]],
        tools: Sequence[ToolDefinition],
        *,
        any_shape: bool,
    ) -> frozenset[str]:
        if not self.call_for_unused_values or not view.request:
            return frozenset()
        request = literals(view.request)
        used = self._used(view, calls, tools)
        left = request - used
        if used and not any_shape:
            shapes = {shape(v) for v in used}
            left = frozenset(v for v in left if shape(v) in shapes)
        return frozenset(left)

    @staticmethod
    def _used(
        view: TurnView,
        calls: Sequence[tuple[str, Mapping[str, Any]]],
        tools: Sequence[ToolDefinition],
    ) -> set[str]:
        """The request's values that this turn's calls, and ``calls``, carry."""
        request = literals(view.request)
        schemas = {d.name: d.input_schema for d in tools}
        used: set[str] = set()
        for name, arguments in [*view.call_arguments(), *calls]:
            used |= uses(arguments, request, schemas.get(name))
        return used

    def keeps_extra_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        wanted: frozenset[str],
        tools: Sequence[ToolDefinition],
    ) -> bool:
        """A new call that carries a wanted value and has no value with digits from nowhere.

        Once results are in, a call that carries only request values of another
        shape than the turn's calls took is the next step of a chain ("look up
        SKU-100 and order 3 of it"), so it must also carry a value that only the
        results gave.
        """
        schema = next((d.input_schema for d in tools if d.name == name), None)
        carried = uses(arguments, wanted, schema)
        if (
            not carried
            or view.repeats(name, arguments)
            or not grounded(arguments, Known(view.context), schema)
        ):
            return False
        used = self._used(view, (), tools)
        if not view.has_results or not used:
            return True
        shapes = {shape(v) for v in used}
        if any(shape(v) in shapes for v in carried):
            return True
        given = literals(view.results) - literals(view.request)
        return bool(uses(arguments, given, schema))

    def made_up_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        tools: Sequence[ToolDefinition],
    ) -> bool:
        """Whether every value with digits of the call appears nowhere in the conversation."""
        if not self.made_up_call_as_prose:
            return False
        schema = next((d.input_schema for d in tools if d.name == name), None)
        return made_up(arguments, Known(view.context), schema)

    def instead_of_call(
        self,
        view: TurnView,
        name: str,
        arguments: Mapping[str, Any],
        tools: Sequence[ToolDefinition],
    ) -> tuple[ToolDefinition, ...]:
        """The tools the request names, when the call doubles an id or date it was given once."""
        if not self.named_instead_of_doubled or not view.request:
            return ()
        schema = next((d.input_schema for d in tools if d.name == name), None)
        if not doubled(arguments, Known(view.context), schema):
            return ()
        return tuple(named_tools(view.request, tools, {*view.called(), name}))
