"""An index over tool definitions: which tools a piece of text is about, ranked.

Tool search (``ToolSearch``) asks an index two things: the tools that match a
request, best first, and nothing else. The default index ranks with BM25
(the ``bm25s`` library, the ``search`` extra) over each tool's name, its
description and its parameters' names, descriptions and allowed values. It
is built once per tool set and never downloads anything: the words come from
the definitions themselves.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from springtail.tools import ToolDefinition

__all__ = [
    "Bm25ToolIndex",
    "ToolIndex",
    "ToolIndexFactory",
    "ToolSearchHit",
    "estimated_tool_tokens",
    "require_search_extra",
    "tool_words",
]

CHARS_PER_TOKEN = 3.5
"""Characters of JSON per token: what Qwen's and GPT's tokenizers give for tool definitions."""

_NAME_WEIGHT = 2
"""A word of a tool's name counts twice: names say what a tool is for most densely."""

_EXTRA = "search"


@dataclass(frozen=True, slots=True)
class ToolSearchHit:
    """One tool an index found for a query, and how well it matched (larger is better)."""

    name: str
    score: float


@runtime_checkable
class ToolIndex(Protocol):
    """Ranks the tools of one tool set for a query (Spring AI's ``ToolIndex``)."""

    def search(self, query: str, *, limit: int) -> Sequence[ToolSearchHit]:
        """The tools that match ``query``, best first, at most ``limit``; none match: empty."""
        ...


class ToolIndexFactory(Protocol):
    """Builds the index of one tool set; called once per set (again when the set changes)."""

    def __call__(self, definitions: Sequence[ToolDefinition]) -> ToolIndex: ...


def require_search_extra() -> None:
    """Fail now, with the fix, when the default index's library is not installed.

    Raises:
        ImportError: ``bm25s`` is missing.
    """
    if importlib.util.find_spec("bm25s") is None:
        raise ImportError(
            "Tool search ranks tools with the bm25s library, which is not installed: "
            f"pip install 'springtail[{_EXTRA}]' (or pass ToolSearch an index_factory of your own)."
        )


def estimated_tool_tokens(definition: ToolDefinition) -> int:
    """About how many prompt tokens the model spends on this tool's definition.

    The length of the definition as providers render it (JSON of the name,
    description and parameters) divided by 3.5 characters per token, rounded
    up. It needs no tokenizer, so it is the same for every model and costs a
    few microseconds; on support-bot's tools it is within 10 % of what the
    embedded model's tokenizer counts.
    """
    rendered = json.dumps(
        {
            "type": "function",
            "function": {
                "name": definition.name,
                "description": definition.description,
                "parameters": definition.input_schema,
            },
        },
        ensure_ascii=False,
        default=str,
    )
    return math.ceil(len(rendered) / CHARS_PER_TOKEN)


# -- words -----------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z]+|\d+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SYMBOLS = {"%": " percent ", "×": " times ", "÷": " divided "}

# Requests say "plus" and "times" where tools say "add" and "multiply"; BM25
# only matches words, so each of these words brings its tool-side word along.
# Arithmetic only: it is the one vocabulary nearly every tool set shares.
_ALSO = {
    "plus": "add",
    "sum": "add",
    "minus": "subtract",
    "times": "multiply",
    "multiplied": "multiply",
    "divided": "divide",
    "percentage": "percent",
}

# Words that say nothing about which tool fits. Kept short on purpose: "off",
# "up", "out" and the like carry meaning in requests ("15% off", "look up").
_STOPWORDS = frozenset(
    """a an the and or but if of for to in on at by with from as is are was were be been being am
    do does did doing have has had i me my we our you your he she it its they them their this
    that these those what which who whom whose when where why how can could would should will
    shall may might must please just so than then there here also any some each every very
    s t d ll re ve m""".split()  # noqa: SIM905 (a word list reads better as text)
)


class _Stems:
    """Snowball's English stemmer (PyStemmer, in the ``search`` extra), or words as they are."""

    def __init__(self) -> None:
        self._stemmer: Any = None
        if importlib.util.find_spec("Stemmer") is not None:
            import Stemmer  # lazily: only tool search needs it

            self._stemmer = Stemmer.Stemmer("english")

    def __call__(self, words: list[str]) -> list[str]:
        if self._stemmer is None or not words:
            return words
        return list(self._stemmer.stemWords(words))


_stems: _Stems | None = None


def _stem(words: list[str]) -> list[str]:
    global _stems
    if _stems is None:
        _stems = _Stems()
    return _stems(words)


def tool_words(text: str) -> list[str]:
    """The words of ``text`` as the index compares them: split, lower-case, stemmed.

    ``order_lookup``, ``orderLookup`` and ``order-lookup`` all give
    ``order``, ``lookup``; ``%`` reads as "percent", "times" also as
    "multiply"; filler words go.
    """
    for symbol, word in _SYMBOLS.items():
        if symbol in text:
            text = text.replace(symbol, word)
    words: list[str] = []
    for chunk in _WORD.findall(text):
        for word in _CAMEL.split(chunk) if not chunk.islower() else (chunk,):
            word = word.lower()
            if word in _STOPWORDS:
                continue
            words.append(word)
            also = _ALSO.get(word)
            if also is not None:
                words.append(also)
    return _stem(words)


def _schema_text(schema: Mapping[str, Any]) -> Iterable[str]:
    """Parameter names, descriptions and allowed values, nested objects included."""
    description = schema.get("description")
    if isinstance(description, str):
        yield description
    for value in schema.get("enum", ()) or ():
        if isinstance(value, str):
            yield value
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for name, sub in properties.items():
            yield str(name)
            if isinstance(sub, Mapping):
                yield from _schema_text(sub)
    for key in ("items", "additionalProperties"):
        sub = schema.get(key)
        if isinstance(sub, Mapping):
            yield from _schema_text(sub)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, ()) or ():
            if isinstance(sub, Mapping):
                yield from _schema_text(sub)
    defs = schema.get("$defs")
    if isinstance(defs, Mapping):
        for sub in defs.values():
            if isinstance(sub, Mapping):
                yield from _schema_text(sub)


def definition_words(definition: ToolDefinition) -> list[str]:
    """What the index knows of one tool: its name (counted twice), description and parameters."""
    words = tool_words(definition.name) * _NAME_WEIGHT
    words += tool_words(definition.description)
    for text in _schema_text(definition.input_schema):
        words += tool_words(text)
    return words


# -- the BM25 index ----------------------------------------------------------------


class Bm25ToolIndex:
    """BM25 ranking (``bm25s``) over a tool set's names, descriptions and parameters.

    Args:
        definitions: The tools to index; their order is kept for ties.

    Raises:
        ImportError: ``bm25s`` is not installed (the ``search`` extra).

    Building takes about a millisecond per 100 tools; a search scores every
    tool at once (one sparse product) and takes tens of microseconds.
    """

    __slots__ = ("_names", "_retriever")

    def __init__(self, definitions: Sequence[ToolDefinition]) -> None:
        require_search_extra()
        import bm25s  # lazily: the search extra

        self._names = tuple(d.name for d in definitions)
        corpus = [definition_words(d) or [d.name.lower()] for d in definitions]
        retriever = bm25s.BM25()
        if corpus:
            retriever.index(corpus, show_progress=False)
        self._retriever = retriever if corpus else None

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"Bm25ToolIndex({len(self._names)} tools)"

    def search(self, query: str, *, limit: int) -> list[ToolSearchHit]:
        """The tools that share words with ``query``, best first (ties in tool-set order)."""
        retriever = self._retriever
        words = tool_words(query)
        if retriever is None or not words or limit < 1:
            return []
        ids = retriever.get_tokens_ids(words)
        if not ids:
            return []
        scores = retriever.get_scores(ids)
        ranked = sorted(
            (i for i in range(len(self._names)) if scores[i] > 0),
            key=lambda i: (-float(scores[i]), i),
        )
        return [ToolSearchHit(self._names[i], float(scores[i])) for i in ranked[:limit]]
