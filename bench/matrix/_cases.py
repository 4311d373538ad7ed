"""What one request of the matrix expects: the calls, their arguments, and the answer."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

Kind = Literal["single", "twice", "chain", "multi", "none", "follow-up", "refer"]
Half = Literal["dev", "held-out", "fresh", "probe"]
"""``probe``: chained requests written after the fourth pass, to read (``bench.matrix.probe``).
``fresh``: a second held-out half written for issue 54 before its design changes, over every
tool set (``bench.matrix.fresh``); hidden like ``held-out``, and never revealed."""
HIDDEN: frozenset[Half] = frozenset({"held-out", "fresh"})
"""The halves whose requests, calls and answers the runner does not print."""
Language = Literal["en", "de", "es"]
LANGUAGES: tuple[Language, ...] = ("en", "de", "es")
"""The languages a request is written in: English, and German and Spanish translations of
the team tool sets' development and held-out requests (``bench.matrix.languages``)."""
Origin = Literal["team", "elsewhere"]
"""Who wrote a tool set's tools: the team, or someone else (``bench.matrix.elsewhere``)."""
KINDS: tuple[Kind, ...] = ("single", "twice", "chain", "multi", "none", "follow-up", "refer")
"""``single``: one call. ``twice``: the same tool two or three times, no call needing another's
result. ``chain``: a call that needs an earlier call's result (two or three steps). ``multi``:
two different tools, each twice, none needing another's result. ``none``: no call at all.
``follow-up``: a conversation whose later turn builds on the earlier one ("And in GBP?",
"Cancel it."). ``refer``: a conversation whose later turn's call needs a value that only the
earlier turn's *result* holds ("her", "that", "there"); checked by the matrix's own test."""
CONVERSATIONS: frozenset[Kind] = frozenset({"follow-up", "refer"})
"""The kinds played as one conversation with chat memory."""

Value = Any
"""An expected argument: a number (compared by value), text (compared ignoring case and a
final period), a :class:`Contains` (free text that must hold a word), a :class:`OneOf`
(any of several), a list or a dict of these, or ``ANY`` (present, any value)."""


@dataclass(frozen=True, slots=True)
class Contains:
    """Free text (a title, a message) that must contain each of these words."""

    words: tuple[str, ...]


def contains(*words: str) -> Contains:
    """Free text that must contain each of ``words`` (case-insensitive)."""
    return Contains(words)


@dataclass(frozen=True, slots=True)
class OneOf:
    """Any one of these values (a date written as ``2026-03-18`` or as ``March 18``)."""

    options: tuple[Value, ...]


def one_of(*options: Value) -> OneOf:
    """A value that matches when any of ``options`` does."""
    return OneOf(options)


ANY: Any = object()


@dataclass(frozen=True, slots=True)
class Call:
    """One expected tool call; arguments not named here may take any value.

    ``commutes`` names two arguments that may come in either order (``12 * 25`` is
    ``25 * 12``).
    """

    name: str
    arguments: Mapping[str, Value] = field(default_factory=dict)
    commutes: tuple[str, str] | None = None

    def commuting(self, first: str, second: str) -> Call:
        """This call, with ``first`` and ``second`` allowed to swap."""
        return replace(self, commutes=(first, second))


def call(name: str, /, **arguments: Value) -> Call:
    """An expected call."""
    return Call(name, arguments)


@dataclass(frozen=True, slots=True)
class Turn:
    """One request and what a right answer to it does.

    ``answer`` lists groups of alternatives: the answer must contain one string
    of every group (case-insensitive; thousands separators and spaces ignored
    for numbers). A request that needs no tool expects no call.
    """

    request: str
    calls: tuple[Call, ...] = ()
    answer: tuple[tuple[str, ...], ...] = ()
    ordered: bool = False


def turn(
    request: str,
    *calls: Call,
    answer: Sequence[str | Sequence[str]] = (),
    ordered: bool = False,
) -> Turn:
    """A request, its calls and the answer groups (a string is a group of one)."""
    groups = tuple((a,) if isinstance(a, str) else tuple(a) for a in answer)
    return Turn(request, calls, groups, ordered)


@dataclass(frozen=True, slots=True)
class Case:
    """One case: a request (or a conversation of several), its kind and its half."""

    kind: Kind
    half: Half
    turns: tuple[Turn, ...]
    language: Language = "en"

    @property
    def label(self) -> str:
        """The first request, for tables."""
        return self.turns[0].request


def probe_case(kind: Kind, *turns: Turn) -> Case:
    """A case of the probe half (``--half probe``): the probe sets' one way to write one."""
    return Case(kind, "probe", turns)


@dataclass(frozen=True, slots=True)
class ToolSet:
    """A domain: its tools (built fresh for every case) and its cases."""

    name: str
    build: Callable[[], list[Any]]
    cases: tuple[Case, ...]
    origin: Origin = "team"
