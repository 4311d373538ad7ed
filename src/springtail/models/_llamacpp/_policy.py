"""The small-model policy: the few decisions the generator asks for, answered by small rules.

``LlamaCppChatModel`` renders the model's chat template, decodes (a call
under the tools' grammar), streams and caches; that is all it does on its
own. Where a 1.5B model needs help, the generator asks the policy, at three
points only:

- **how a reply may open** (``opening``): the model's first tokens decide, or
  the reply is prose, or a call to tools the policy offers;
- **what to do with a plan line the model wrote** (``review``): keep it, drop
  it and end the plan there, or answer in prose instead;
- **what comes next** (``next``): whether another line follows, or the model
  decides.

Each answer is a small tagged value (``_decisions.py``), and each rule is a
small class that answers one question, or passes (``_rules.py``, on the base in
``_rule.py``; ``MadeUpValues`` in ``_made_up.py``). How prompts
are written and text generated is not a decision but a plain
``DecodingProfile``. The
measurements behind every rule are in ``docs/embedded-model.md``.

The policy reads the prompt (what the user asked, what the tools returned,
where the plan stands) but never runs or refuses tools: loop prevention is
the tool loop's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

from springtail.models._llamacpp._decisions import (
    Decide,
    Free,
    Keep,
    Next,
    Opening,
    Review,
)
from springtail.models._llamacpp._plan import PlanLine
from springtail.models._llamacpp._profile import SMALL_MODEL_PROFILE, DecodingProfile
from springtail.models._llamacpp._rule import Rule
from springtail.models._llamacpp._rules import DEFAULT_RULES
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["PlainPolicy", "SmallModelPolicy", "ToolPolicy"]

logger = logging.getLogger("springtail.models.llamacpp")

_Decision = TypeVar("_Decision")


def _decided(rule: object, decision: _Decision) -> _Decision:
    # What each rule decided is in the debug log: the ablation in bench/matrix reads it.
    logger.debug("rule %s: %s", type(rule).__name__, decision)
    return decision


@runtime_checkable
class ToolPolicy(Protocol):
    """What the generator asks beyond its template and grammars (see the module's docstring)."""

    @property
    def profile(self) -> DecodingProfile:
        """How prompts are written and text is generated."""
        ...

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening:
        """How the next reply may open (asked when no plan line is ready to be written)."""
        ...

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review:
        """What to do with ``line``, which the model wrote after the lines ``written``."""
        ...

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next:
        """Whether another line follows the lines ``written`` of this reply."""
        ...


@dataclass(frozen=True)
class _RulePolicy:
    """A profile and the rules asked in order: the first rule with an answer decides."""

    profile: DecodingProfile = field(default_factory=DecodingProfile)
    rules: tuple[Rule, ...] = ()

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening:
        """The first rule's opening, else the model's own."""
        for rule in self.rules:
            decision = rule.opening(view, tools)
            if decision is not None:
                return _decided(rule, decision)
        return Free()

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review:
        """The first rule's review, else keep the line."""
        for rule in self.rules:
            decision = rule.review(view, line, written, tools)
            if decision is not None:
                return _decided(rule, decision)
        return Keep()

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next:
        """The first rule's answer, else the model decides."""
        for rule in self.rules:
            decision = rule.next(view, written, tools)
            if decision is not None:
                return _decided(rule, decision)
        return Decide()


@dataclass(frozen=True)
class PlainPolicy(_RulePolicy):
    """No rules: the model's template, the call grammar and nothing else (any GGUF's default).

    Tools are listed as the chat template lists them, calls are its own JSON
    calls, results read as the tools returned them, and every decision is
    the model's.
    """


@dataclass(frozen=True)
class SmallModelPolicy(_RulePolicy):
    """The embedded presets' profile and rules, each measured on the 1.5B model.

    Tools are shown as Python stubs and a reply that calls writes the
    request's calls as a plan (``docs/embedded-model.md``). Swap the profile
    with ``dataclasses.replace(SMALL_MODEL_PROFILE, ...)`` or the rules with
    any sequence of rule objects.
    """

    profile: DecodingProfile = SMALL_MODEL_PROFILE
    rules: tuple[Rule, ...] = DEFAULT_RULES
