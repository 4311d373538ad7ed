"""Policies to measure: the embedded default, less some of its rules, or plus experiments.

``--policy without:CallShare`` runs the default rules less ``CallShare``;
``--policy with:NAME`` adds an experiment defined in ``_experiments.py`` (one of
a default rule's class, such as ``MadeUpValuesProvidersFirst``, takes that rule's
place). This is where a rule that does not earn its place on both halves
lives on, so that it can be measured again (docs/embedded-model.md, the
ablation).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from bench.matrix._experiments import AFTER_DEFAULTS, EXPERIMENTS
from springtail.models._llamacpp import DEFAULT_RULES, DecodingProfile, SmallModelPolicy


def policy(spec: str, profile: Sequence[str] = ()) -> SmallModelPolicy:
    """The policy ``spec`` names (see the module's docstring), its profile changed by ``profile``.

    Each of ``profile`` is ``FIELD=VALUE``: a field of ``DecodingProfile`` and
    its value as JSON (``true``, ``512``, ``"text"``).
    """
    chosen = _rules(spec)
    changes = {}
    for item in profile:
        name, _, value = item.partition("=")
        if name not in {f.name for f in dataclasses.fields(DecodingProfile)}:
            raise SystemExit(f"--profile {item!r}: DecodingProfile has no field {name!r}")
        changes[name] = json.loads(value)
    return dataclasses.replace(chosen, profile=dataclasses.replace(chosen.profile, **changes))


def _rules(spec: str) -> SmallModelPolicy:
    if spec == "default":
        return SmallModelPolicy()
    kind, _, names = spec.partition(":")
    wanted = {n.strip() for n in names.split(",") if n.strip()}
    known = {type(r).__name__ for r in DEFAULT_RULES} | set(EXPERIMENTS)
    unknown = wanted - known
    if kind not in ("without", "with") or not wanted or unknown:
        raise SystemExit(
            f"--policy {spec!r}: use default, without:RULE,... or with:RULE,... "
            f"(rules: {', '.join(sorted(known))})"
        )
    if kind == "without":
        return SmallModelPolicy(
            rules=tuple(r for r in DEFAULT_RULES if type(r).__name__ not in wanted)
        )
    # An experiment of a default rule's class takes its place; the others go first (an opening
    # after results is otherwise AnswerOncePlanRan's), or last when they only ask for more.
    defaults = {type(d) for d in DEFAULT_RULES}
    chosen = [(n, EXPERIMENTS[n]) for n in sorted(wanted)]
    # A subclass of a default rule (``MadeUpValuesSearchLast``) takes its base's place too.
    placed = {n: next((d for d in defaults if isinstance(r, d)), None) for n, r in chosen}
    replacing = {placed[n]: r for n, r in chosen if placed[n] is not None}
    rules = tuple(replacing.get(type(r), r) for r in DEFAULT_RULES)
    first = tuple(r for n, r in chosen if placed[n] is None and n not in AFTER_DEFAULTS)
    last = tuple(r for n, r in chosen if n in AFTER_DEFAULTS)
    return SmallModelPolicy(rules=(*first, *rules, *last))
