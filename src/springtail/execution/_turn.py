"""What one turn of the tool loop has run so far: call counts and each distinct call's answer.

A turn is everything between a user message and the answer to it. The call
limits and loop prevention count per turn, so the tool loop keeps one
``ToolTurn`` for the whole turn and hands it to the manager on every
iteration. Counting in the loop, not in the prompt, is what makes the limits
hold when the prompt does not carry the turn's history
(``conversation_history_enabled=False``, or a memory advisor inside the loop).
Code that drives the loop itself passes no turn: the manager then reads the
turn from the prompt, which in that case holds the whole conversation.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from typing import Any

from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)

__all__ = ["ToolTurn", "same_call"]


_decode = json.JSONDecoder().decode
_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
_UNPARSED: Any = object()


class _Arguments:
    """A call's arguments: the text as written, parsed on first comparison."""

    __slots__ = ("_parsed", "_signature", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._parsed: Any = _UNPARSED
        self._signature: Hashable = _UNPARSED

    def parsed(self) -> Any:
        value = self._parsed
        if value is _UNPARSED:
            text = self.text.strip()
            try:
                value = _decode(text) if text else {}
            except (ValueError, RecursionError):
                value = _Unparsable(text)
            self._parsed = value
        return value

    def signature(self) -> Hashable:
        """A hash key equal for equal arguments (and, rarely, for some unequal ones)."""
        if self._signature is _UNPARSED:
            self._signature = self._compute_signature()
        return self._signature

    def _compute_signature(self) -> Hashable:
        value = self.parsed()
        if type(value) is dict:
            try:
                return frozenset(value.items())
            except TypeError:  # nested values: bucket by the keys
                return frozenset(value)
        try:
            hash(value)
        except TypeError:
            return type(value).__name__
        return value  # type: ignore[no-any-return]

    def same_as(self, other: _Arguments) -> bool:
        """Whether both are the same arguments: equal text, or equal canonical JSON."""
        if self.text == other.text:
            return True
        mine, theirs = self.parsed(), other.parsed()
        if mine != theirs:
            return False
        if isinstance(mine, _Unparsable):
            return True
        # ``==`` also holds for 1 == 1.0 == true; canonical JSON tells those apart.
        try:
            return bool(_encode(mine) == _encode(theirs))
        except (ValueError, RecursionError):  # pragma: no cover - decoded JSON always encodes
            return False


class _Unparsable:
    """Arguments that are not JSON, compared by their stripped text."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unparsable) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


class _Answers:
    """The answered calls of one tool, indexed by argument signature on first need."""

    __slots__ = ("index", "pending")

    def __init__(self) -> None:
        self.pending: list[tuple[_Arguments, str]] = []
        self.index: dict[Hashable, list[tuple[_Arguments, str]]] = {}

    def find(self, arguments: _Arguments) -> str | None:
        """The first answer of a call with the same arguments, if any."""
        if self.pending:
            for entry in self.pending:
                self.index.setdefault(entry[0].signature(), []).append(entry)
            self.pending.clear()
        for seen, answer in self.index.get(arguments.signature(), ()):
            if arguments.same_as(seen):
                return answer
        return None


def same_call(a: ToolCall, b: ToolCall) -> bool:
    """Whether two calls name the same tool with the same arguments (as parsed JSON)."""
    return a.name == b.name and _Arguments(a.arguments).same_as(_Arguments(b.arguments))


class ToolTurn:
    """The tool calls of one turn: how many per tool and in total, and what each answered.

    Create one per turn and pass it to every
    ``ToolCallingManager.aexecute_tool_calls(..., turn=turn)`` of that turn.
    On first use it also takes in the tool calls the prompt already holds
    after its last user message, so a turn continued from a stored
    conversation keeps counting where it was.
    """

    __slots__ = ("_answers", "_exact", "_parsed", "_per_tool", "_seeded", "_total")

    def __init__(self) -> None:
        self._per_tool: dict[str, int] = {}
        self._total = 0
        # (name, arguments as written) -> answer: the common repeat, found without parsing.
        self._exact: dict[tuple[str, str], str] = {}
        # name -> calls answered: parsed and indexed only when a later call of the
        # same tool needs comparing, so a turn with one call per tool parses nothing.
        self._answers: dict[str, _Answers] = {}
        # Arguments parsed by a lookup, reused when the same call is remembered.
        self._parsed: dict[str, _Arguments] = {}
        self._seeded = False

    @property
    def total_calls(self) -> int:
        """Tool calls made in this turn, over all tools."""
        return self._total

    def calls_of(self, name: str) -> int:
        """Tool calls of ``name`` made in this turn."""
        return self._per_tool.get(name, 0)

    def seed(self, messages: Sequence[Message]) -> None:
        """Take in the calls ``messages`` hold after the last user message (first use only)."""
        if self._seeded:
            return
        self._seeded = True
        start = 0
        for index in range(len(messages) - 1, -1, -1):
            if isinstance(messages[index], UserMessage):
                start = index + 1
                break
        calls: dict[str, ToolCall] = {}
        for message in messages[start:]:
            if isinstance(message, AssistantMessage):
                for call in message.tool_calls:
                    calls[call.id] = call
            elif isinstance(message, ToolResponseMessage):
                for response in message.responses:
                    self.count(response.name)
                    asked = calls.get(response.id)
                    if asked is not None:
                        self.remember(asked, response.response_data)

    def count(self, name: str) -> None:
        """Count one call of ``name``."""
        self._per_tool[name] = self._per_tool.get(name, 0) + 1
        self._total += 1

    def answer_of(self, call: ToolCall) -> str | None:
        """What the first identical call of this turn answered, if there was one."""
        exact = self._exact.get((call.name, call.arguments))
        if exact is not None:
            return exact
        answers = self._answers.get(call.name)
        if answers is None:
            return None
        arguments = self._parsed.get(call.arguments)
        if arguments is None:
            arguments = self._parsed[call.arguments] = _Arguments(call.arguments)
        return answers.find(arguments)

    def remember(self, call: ToolCall, answer: str) -> None:
        """Keep what ``call`` answered; a lookup finds the first of identical calls."""
        self._exact.setdefault((call.name, call.arguments), answer)
        arguments = self._parsed.pop(call.arguments, None) or _Arguments(call.arguments)
        answers = self._answers.get(call.name)
        if answers is None:
            answers = self._answers[call.name] = _Answers()
        answers.pending.append((arguments, answer))

    def __repr__(self) -> str:
        return f"ToolTurn(total_calls={self._total}, per_tool={self._per_tool!r})"
