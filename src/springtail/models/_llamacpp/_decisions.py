"""The answers a policy gives the generator: small tagged values, one type per question.

The generator asks three things (``_policy.ToolPolicy``): how a reply may
open, what to do with a plan line the model wrote, and whether another line
follows. Each answer is one of a few frozen values, so a rule's decision is
data a test can compare, not a side effect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from springtail.models._llamacpp._plan import PlanLine
from springtail.tools._definition import ToolDefinition

__all__ = [
    "ByShare",
    "Close",
    "Decide",
    "Drop",
    "Free",
    "Keep",
    "More",
    "Next",
    "Offer",
    "Opening",
    "Prose",
    "Retry",
    "Review",
    "Wait",
]


@dataclass(frozen=True, slots=True)
class Free:
    """The model's first tokens decide between a call and prose.

    With ``call_floor`` set, the reply opens with a call when the tokens
    that open one get at least this share of the first token's probability,
    whatever the sampler picked.
    """

    call_floor: float | None = None


@dataclass(frozen=True, slots=True)
class ByShare:
    """The share of the first token's probability that opens a call decides, both ways.

    At ``threshold`` or more the reply is a call, below it prose, whichever
    single token the sampler would have picked: a model torn between three
    ways of opening a call (a fence, ``{``, a tag) and one word of prose
    gives the word the top place while meaning the call.
    """

    threshold: float
    named: float | None = None
    """Below ``threshold`` but at this share or more, prose whose first sentence names an
    offered tool (``list_appointments``) is the call it describes: it is held back until
    that sentence ends, and never shown when it names one."""

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold={self.threshold} must lie in (0, 1].")
        if self.named is not None and not 0.0 < self.named <= self.threshold:
            raise ValueError(f"named={self.named} must lie in (0, threshold].")


@dataclass(frozen=True, slots=True)
class Prose:
    """The reply is prose; ``without_tools`` renders the prompt without the tools' section.

    With the tools still in the prompt, a model that was stopped from making
    up a call describes the call it meant to make.
    """

    without_tools: bool = False


@dataclass(frozen=True, slots=True)
class Offer:
    """The reply is a call to one of ``tools`` (the model writes the arguments).

    When ``wanted`` is set the call is kept only if it carries one of these
    request values; otherwise the reply opens as ``Free`` would. With
    ``waiting`` set, that line of the plan (one the write-out could not
    write: its result holds no value for ``looked_up``) comes back after the
    new call, those arguments taking its result.
    """

    tools: tuple[ToolDefinition, ...]
    wanted: frozenset[str] = frozenset()
    waiting: PlanLine | None = None
    looked_up: frozenset[str] = frozenset()


Opening: TypeAlias = Free | ByShare | Prose | Offer
"""How a reply may open."""


@dataclass(frozen=True, slots=True)
class Keep:
    """The line stands; the earlier lines named in ``instead_of`` go (no line used them).

    The arguments named in ``defaults`` are taken out of the line: their
    parameters keep their defaults (an optional filter the request never
    asked for). Those in ``amended`` take the values given there: a value
    the request ties to another parameter by its word ("to 2026-05-01" is
    an end, not a start).
    """

    instead_of: frozenset[str] = frozenset()
    defaults: frozenset[str] = frozenset()
    amended: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True, slots=True)
class Drop:
    """The line goes, and the plan ends before it (the lines before it stand)."""


@dataclass(frozen=True, slots=True)
class Wait:
    """The line stands, but waits for the line before it.

    The arguments named here were values the model could only have computed
    (they appear nowhere in the conversation); they become the result of the
    line before, so the line is written out once that result is in and the
    model writes the values it then reads.
    """

    arguments: frozenset[str]


@dataclass(frozen=True, slots=True)
class Retry:
    """The plan starts again without the tool ``without``: its line was a step taken too early.

    Asked "Book Tom Becker in with Dr. Haddad", the model calls the booking
    at once with a patient id it made up; without the booking tool, its
    first line is the patient search, and the booking follows as a line that
    takes that result.

    A later line retries in its place, once, with the other tools; with
    ``wanted`` set the new line stands only if it carries one of these
    request values; with ``only`` set, it may call only these tools (the
    rule knows which tools take the value). With ``then`` set, ``only`` is
    a first choice: when the new line is turned away too, the line is
    written once more with the tools of ``then`` (empty: any tool not yet
    turned away). With ``looked_up`` set, the line turned away comes back
    after the new line (a tool of ``only`` or of ``then``; not after a
    line of any tool, which an empty ``then`` allows), those of its arguments
    taking the new line's result: the new line looks up what the line
    needed (an id from a name, the day of an event named). With ``texts``
    set, the new line's required free texts are one of these, held by its
    grammar: the search is for the thing the request names ("the team
    sync"), not for the title the line was to write ("Prep").
    """

    without: str
    wanted: frozenset[str] = frozenset()
    only: frozenset[str] = frozenset()
    then: frozenset[str] | None = None
    looked_up: frozenset[str] = frozenset()
    texts: frozenset[str] = frozenset()


Review: TypeAlias = Keep | Drop | Wait | Retry | Prose
"""What to do with a plan line the model wrote (``Prose``: the whole reply is prose)."""


@dataclass(frozen=True, slots=True)
class Decide:
    """The model decides whether another line follows.

    It does when the tokens that begin a line get at least half the next
    token's probability (for JSON calls: when its next tokens open another
    call).
    """

    note: str = ""
    """When set, written as a comment before the model decides, and the line it then writes
    goes under it: a part of the request no line has served yet ("tell me where it stands")."""


@dataclass(frozen=True, slots=True)
class More:
    """Another line follows; it is kept only if it carries one of ``wanted`` (when set).

    A line the model would have written anyway may instead take an earlier
    result (a step between: ``currency_convert(amount=r1, ...)`` before the
    message to the name the request gave); the values stay wanted after it.
    """

    wanted: frozenset[str] = frozenset()
    tools: frozenset[str] = frozenset()
    """When set, the line calls one of these tools (the request names them, no line did)."""
    note: str = ""
    """When set, written as a comment above the line (as ``Decide.note``)."""


@dataclass(frozen=True, slots=True)
class Close:
    """The plan ends here."""


Next: TypeAlias = Decide | More | Close
"""Whether another plan line follows the one just written."""
