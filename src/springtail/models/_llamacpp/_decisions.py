"""The answers a policy gives the generator: small tagged values, one type per question.

The generator asks three things (``_policy.ToolPolicy``): how a reply may
open, what to do with a plan line the model wrote, and whether another line
follows. Each answer is one of a few frozen values, so a rule's decision is
data a test can compare, not a side effect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

__all__ = [
    "ByShare",
    "Close",
    "Decide",
    "Drop",
    "Free",
    "Keep",
    "Next",
    "Opening",
    "Prose",
    "Review",
]


@dataclass(frozen=True, slots=True)
class Free:
    """The model's own first tokens decide between prose and a call.

    With ``call_floor``, the reply calls as soon as the tokens that open a
    call get that share of the first token's probability.
    """

    call_floor: float | None = None


@dataclass(frozen=True, slots=True)
class ByShare:
    """The reply calls when the call-opening tokens get ``threshold`` or more of the first token.

    Below it, the reply is prose, even when the likeliest single token opens
    a call.
    """

    threshold: float

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold={self.threshold} must lie in (0, 1].")


@dataclass(frozen=True, slots=True)
class Prose:
    """The reply is prose; with ``without_tools``, written from the prompt without the tools."""

    without_tools: bool = False


Opening: TypeAlias = Free | ByShare | Prose
"""How a reply may open."""


@dataclass(frozen=True, slots=True)
class Keep:
    """The line stands."""


@dataclass(frozen=True, slots=True)
class Drop:
    """The plan ends before this line; the lines before it stand."""


Review: TypeAlias = Keep | Drop | Prose
"""What to do with a plan line the model wrote (``Prose``: the reply is prose instead)."""


@dataclass(frozen=True, slots=True)
class Decide:
    """The model's next token says whether another line follows."""


@dataclass(frozen=True, slots=True)
class Close:
    """The plan ends here."""


Next: TypeAlias = Decide | Close
"""Whether another line follows."""
