"""Policies to measure: the embedded default, or the default less some of its rules.

``--policy without:CallShare`` runs the default rules less ``CallShare``: the
ablation that tells whether a rule earns its place (docs/embedded-model.md).
The experiments of earlier passes left with the rules they measured; their
history is in ``bench/NOTEBOOK.md``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

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
    known = {type(r).__name__ for r in DEFAULT_RULES}
    if kind != "without" or not wanted or wanted - known:
        raise SystemExit(
            f"--policy {spec!r}: use default or without:RULE,... "
            f"(rules: {', '.join(sorted(known))})"
        )
    return SmallModelPolicy(rules=tuple(r for r in DEFAULT_RULES if type(r).__name__ not in wanted))
