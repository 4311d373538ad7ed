"""Which of the options every ``support-bot`` command takes were given on the command line.

The common options (``--model``, ``--yes``, ``--mcp``, ...) are accepted
before or after any subcommand, so a subcommand that has no use for some of
them (``serve`` runs no ``--step``, ``mcp`` no model) must refuse them
itself, rather than ignore them without a word.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Final

from support_bot._model import DEFAULT_MODEL_URI

__all__ = ["COMMON_DEFAULTS", "given_options"]

COMMON_DEFAULTS: Final[dict[str, object]] = {
    "model": DEFAULT_MODEL_URI,
    "conversation": None,
    "step": "final",
    "yes": False,
    "threads": None,
    "mcp": None,
    "show_tools": None,
}
"""Each common option's ``dest`` and its default: a value other than this was given."""


def given_options(args: argparse.Namespace, names: Sequence[str]) -> list[str]:
    """The options among ``names`` (their ``dest``) that the command line set, as typed."""
    given: list[str] = []
    for name in names:
        default = COMMON_DEFAULTS[name]
        if getattr(args, name, default) != default:
            given.append("--show-tools/--hide-tools" if name == "show_tools" else f"--{name}")
    return given
