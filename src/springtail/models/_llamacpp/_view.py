"""What a policy reads of a prompt: the request and its values, this turn's calls and plan."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp._plan import PlanState
from springtail.models._llamacpp._values import Known, RequestValues, literals

__all__ = ["TurnView", "canonical_arguments"]


@dataclass(frozen=True)
class TurnView:
    """What a policy reads of a prompt: the request and what this turn's tools did.

    Everything is read from the messages once per request; the request's
    values (``values``) and the conversation's (``known``) are read the first
    time a rule asks for them.
    """

    request: str = ""
    calls: frozenset[tuple[str, str]] = frozenset()
    """``(name, canonical JSON arguments)`` of the calls made since the last user message."""
    follow_up: bool = False
    """The request comes after an answer in the conversation."""
    context: str = ""
    """Every text of the conversation: system prompt, messages, call arguments and results."""
    answered: tuple[str, ...] = ()
    """What the tools returned without an error since the last user message, in order."""
    plan: PlanState = field(default_factory=PlanState)
    """Where this turn's plan stands."""

    @cached_property
    def values(self) -> RequestValues:
        """The values the request writes (numbers, ids, codes, quoted phrases)."""
        return RequestValues.of(self.request)

    @cached_property
    def known(self) -> Known:
        """The values the whole conversation holds, for telling read values from invented ones."""
        return Known(self.context)

    @cached_property
    def stated(self) -> frozenset[str]:
        """The literals the whole conversation writes (``_values.literals``), normalised."""
        return literals(self.context)

    @property
    def has_results(self) -> bool:
        """Whether tools have answered in this turn."""
        return bool(self.calls)

    def repeats(self, name: str, arguments: Mapping[str, object]) -> bool:
        """Whether a call with these arguments was already made in this turn."""
        return (name, canonical_arguments(arguments)) in self.calls

    @classmethod
    def of(cls, messages: Sequence[Message]) -> TurnView:
        """The view of a prompt's messages."""
        calls: set[tuple[str, str]] = set()
        request = ""
        follow_up = False
        in_turn = True
        texts: list[str] = []
        results: list[str] = []
        for message in messages:
            if isinstance(message, SystemMessage | UserMessage):
                texts.append(message.text)
            elif isinstance(message, AssistantMessage):
                texts.append(message.text)
                texts.extend(call.arguments for call in message.tool_calls)
            elif isinstance(message, ToolResponseMessage):
                texts.extend(r.response_data for r in message.responses)
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
                results[:0] = [r.response_data for r in message.responses if not r.is_error]
            elif isinstance(message, AssistantMessage):
                for call in message.tool_calls:
                    try:
                        arguments = json.loads(call.arguments or "{}")
                    except ValueError:
                        continue
                    calls.add((call.name, canonical_arguments(arguments)))
        return cls(
            request,
            frozenset(calls),
            follow_up,
            "\n".join(texts),
            tuple(results),
            PlanState.of(messages),
        )


def canonical_arguments(arguments: object) -> str:
    """Arguments as one string that is the same for equal JSON values."""
    return json.dumps(arguments, sort_keys=True, ensure_ascii=False)
