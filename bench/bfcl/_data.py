"""BFCL v4's vendored data: the categories, their entries and a fixed-seed sample of them.

The files under ``data/`` are BFCL's own (bfcl-eval 2026.3.23, Apache-2.0),
gzipped, one JSON object a line. An entry joins a question file's line with
its possible answer (AST categories) or ground truth (multi-turn); the
irrelevance categories have none. A multi-turn entry has no function docs of
its own: as BFCL does, they are the docs of its involved classes, in the
order the entry lists the classes.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "CATEGORIES",
    "DATA",
    "FINAL_ONLY",
    "TUNING",
    "Category",
    "Entry",
    "load",
    "sample",
]

DATA = Path(__file__).with_name("data")

Kind = Literal["ast", "irrelevance", "multi_turn"]


@dataclass(frozen=True)
class Category:
    """One BFCL test category as this package runs it."""

    name: str
    file: str
    """The file stem under ``data/question`` (``simple`` is BFCL's ``simple_python``)."""
    kind: Kind
    final_only: bool = False
    """A non-live AST category: run only for the final report (``--final``), never tuned on."""


CATEGORIES: dict[str, Category] = {
    c.name: c
    for c in (
        Category("live_simple", "BFCL_v4_live_simple", "ast"),
        Category("live_multiple", "BFCL_v4_live_multiple", "ast"),
        Category("live_parallel", "BFCL_v4_live_parallel", "ast"),
        Category("live_parallel_multiple", "BFCL_v4_live_parallel_multiple", "ast"),
        Category("irrelevance", "BFCL_v4_irrelevance", "irrelevance"),
        Category("live_irrelevance", "BFCL_v4_live_irrelevance", "irrelevance"),
        Category("multi_turn_base", "BFCL_v4_multi_turn_base", "multi_turn"),
        Category("simple", "BFCL_v4_simple_python", "ast", final_only=True),
        Category("multiple", "BFCL_v4_multiple", "ast", final_only=True),
        Category("parallel", "BFCL_v4_parallel", "ast", final_only=True),
        Category("parallel_multiple", "BFCL_v4_parallel_multiple", "ast", final_only=True),
    )
}
TUNING: tuple[str, ...] = tuple(n for n, c in CATEGORIES.items() if not c.final_only)
"""The categories one may tune on (the default selection)."""
FINAL_ONLY: tuple[str, ...] = tuple(n for n, c in CATEGORIES.items() if c.final_only)

# BFCL's MULTI_TURN_FUNC_DOC_FILE_MAPPING, for the classes multi_turn_base uses.
_CLASS_DOCS: dict[str, str] = {
    "GorillaFileSystem": "gorilla_file_system",
    "MathAPI": "math_api",
    "MessageAPI": "message_api",
    "TwitterAPI": "posting_api",
    "TicketAPI": "ticket_api",
    "TradingBot": "trading_bot",
    "TravelAPI": "travel_booking",
    "VehicleControlAPI": "vehicle_control",
}


@dataclass(frozen=True)
class Entry:
    """One test: its conversation, its function docs and what a right answer is."""

    id: str
    category: str
    turns: Sequence[Sequence[Mapping[str, Any]]]
    """The question: one list of chat messages (``role``, ``content``) per turn."""
    functions: Sequence[Mapping[str, Any]]
    """BFCL function docs (``name``, ``description``, ``parameters``)."""
    answer: Any = None
    """AST: BFCL's ``ground_truth`` list of ``{name: {param: [allowed values]}}``;
    multi-turn: one list of call strings per turn; irrelevance: ``None``."""
    initial_config: Mapping[str, Any] = field(default_factory=dict)
    involved_classes: Sequence[str] = ()


def _lines(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@cache
def _class_docs(class_name: str) -> tuple[dict[str, Any], ...]:
    return tuple(_lines(DATA / "multi_turn_func_doc" / f"{_CLASS_DOCS[class_name]}.json.gz"))


@cache
def load(category: str) -> tuple[Entry, ...]:
    """Every entry of ``category``, in the file's order.

    Raises:
        KeyError: ``category`` is not one of :data:`CATEGORIES`.
    """
    spec = CATEGORIES[category]
    questions = _lines(DATA / "question" / f"{spec.file}.json.gz")
    answers: dict[str, Any] = {}
    if spec.kind != "irrelevance":
        answers = {
            a["id"]: a["ground_truth"]
            for a in _lines(DATA / "possible_answer" / f"{spec.file}.json.gz")
        }
    entries = []
    for q in questions:
        classes = tuple(q.get("involved_classes") or ())
        functions = (
            [doc for c in classes for doc in _class_docs(c)]
            if spec.kind == "multi_turn"
            else q["function"]
        )
        entries.append(
            Entry(
                id=q["id"],
                category=category,
                turns=q["question"],
                functions=functions,
                answer=answers.get(q["id"]),
                initial_config=q.get("initial_config") or {},
                involved_classes=classes,
            )
        )
    return tuple(entries)


def sample(entries: Sequence[Entry], limit: int, seed: int) -> list[Entry]:
    """``limit`` entries drawn with ``seed`` (all when ``limit`` is 0 or more than there are).

    The draw depends only on the seed, the category and the ids, so one seed
    names one sample on every machine; the entries keep the file's order.
    """
    if limit <= 0 or limit >= len(entries):
        return list(entries)
    category = entries[0].category if entries else ""
    rng = random.Random(f"bfcl:{category}:{seed}")
    chosen = set(rng.sample(range(len(entries)), limit))
    return [e for i, e in enumerate(entries) if i in chosen]
