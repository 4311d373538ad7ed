"""Which tools speak of what a parameter holds: where a value the model made up is looked up.

A 1.5B model that needs a value it has not got writes one: asked to book
"our cardiologist", it wrote ``doctor_id="D-1"`` (the schema's own example)
instead of first calling the tool that lists the doctors with their ids.
The parameter's words (its name and description: ``doctor_id``, "The doctor
id") and each tool's words (its name and description: "List the clinic's
doctors with their ids") say which tool gives that value: the tools that
share the most of them. Every word comes from the application's schemas;
none is written here but the few that say nothing of a subject.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from springtail.tools._definition import ToolDefinition

__all__ = [
    "named_families",
    "named_tools",
    "parameter_words",
    "providers",
    "speaks_of",
    "tool_words",
    "unit_takers",
    "words",
]

_PLAIN = frozenset(
    {
        *("a", "all", "an", "and", "any", "are", "as", "at", "be", "before", "by", "can"),
        *("each", "eg", "every", "for", "from", "get", "given", "has", "have", "how", "in"),
        *("is", "it", "its", "many", "more", "much", "no", "not", "of", "on", "one"),
        *("optionally", "or", "some", "than", "that", "the", "their", "them", "there"),
        *("this", "to", "up", "use", "what", "when", "which", "who", "with"),
    }
)
"""Words that name no subject."""

_STEM = 5
"""Words are compared by their first letters: "coverage" and "covers", "doctor" and "doctors"."""


def words(text: str) -> frozenset[str]:
    """The subject words of a text, each cut to its stem."""
    split = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    found = set()
    for word in re.findall(r"[a-z]+", split.lower()):
        if word in _PLAIN or len(word) < 2:
            continue
        if word.endswith("ies") and len(word) > 4:
            word = word[:-3] + "y"
        elif word.endswith("s") and not word.endswith("ss") and len(word) > 2:
            word = word[:-1]
        found.add(word[:_STEM])
    return frozenset(found)


def parameter_words(name: str, spec: Any) -> frozenset[str]:
    """The subject words of a parameter's name and description, without its example."""
    described = spec.get("description", "") if isinstance(spec, Mapping) else ""
    # The example ("e.g. D-1") shows a value's shape, not what the value is about.
    described = re.split(r"\be\.g\.", described, maxsplit=1)[0] if described else ""
    return words(name.replace("_", " ")) | words(described)


def providers(
    parameter: str, spec: Any, tools: Sequence[ToolDefinition], *, besides: str
) -> frozenset[str]:
    """The tools (other than ``besides``) whose name and description best match a parameter.

    Those sharing the most subject words with the parameter's name and
    description; none when no tool shares one. "id" only breaks ties: most
    tools speak of ids, and ``customer_id`` is about a customer.
    """
    wanted = parameter_words(parameter, spec)
    scores: dict[str, tuple[int, bool]] = {}
    for d in tools:
        if d.name == besides:
            continue
        shared = wanted & tool_words(d)
        if shared - {"id"}:
            scores[d.name] = (len(shared - {"id"}), "id" in shared)
    best = max(scores.values(), default=None)
    return frozenset(name for name, score in scores.items() if score == best)


def speaks_of(tool: ToolDefinition, parameter: str) -> bool:
    """Whether a tool's name or description holds a word, besides "id", of a parameter's name.

    ``read_note`` ("The full text of a note by its id") speaks of a
    ``text`` parameter; ``patient_lookup`` does not speak of a ``to``, nor
    ``product_find`` ("Find a product by name") of a ``sku`` whose
    description says "The product SKU".
    """
    return bool((words(parameter.replace("_", " ")) & tool_words(tool)) - {"id"})


def named_families(request: str, tools: Sequence[ToolDefinition]) -> dict[str, frozenset[str]]:
    """The tools the request names, by each word it shares with tool names.

    "Send patient P-103 an e-mail" names ``send_message`` by "send" and the
    ``patient_*`` tools by "patient". A word that every tool's name holds
    names none of them, and a word between a number and "of" is a measure
    ("2 units of SKU-7" does not name ``convert_units``: twenty-second pass).
    """
    said = words(_MEASURES.sub(" ", request))
    named: dict[str, set[str]] = {}
    for d in tools:
        for word in _name_words(d) & said:
            named.setdefault(word, set()).add(d.name)
    return {word: frozenset(group) for word, group in named.items() if len(group) < len(tools)}


_MEASURES = re.compile(r"(?<=\d)\s*[A-Za-z]+(?=\s+of\b)")
"""The word after a number that a measure's "of" follows: "2 units of", "3 kg of"."""


def tool_words(tool: ToolDefinition) -> frozenset[str]:
    """The subject words of a tool's name and description."""
    return _name_words(tool) | words(tool.description)


def _name_words(tool: ToolDefinition) -> frozenset[str]:
    return words(tool.name.replace("_", " "))


def named_tools(request: str, tools: Sequence[ToolDefinition]) -> frozenset[str]:
    """Every tool the request names by a word of its name (``named_families``, together)."""
    return frozenset().union(*named_families(request, tools).values())


def unit_takers(
    request: str, wanted: frozenset[str], tools: Sequence[ToolDefinition]
) -> frozenset[str]:
    """The tools with a parameter that speaks of the unit a wanted number is written with.

    "… with 10% off the total": asked for a line that carries the 10, the
    1.5B model wrote ``calculate(operation="subtract", …)`` and then
    ``percentage(part=r3, total=r2)``, neither with the 10. The number's
    unit ("%" reads as "percent", or the word after it: "3 kg") is a word
    of the parameter that takes it (``rate_percent``); none when the
    numbers have no unit, or no parameter speaks of it.
    """
    units: set[str] = set()
    for value in wanted:
        if not _NUMBER.fullmatch(value):
            continue
        pattern = rf"(?<![\w.,]){re.escape(value)}(?![\d.,]\d)\s*(%|[A-Za-z]+)"
        for match in re.finditer(pattern, request.replace(",", "")):
            unit = match.group(1)
            units |= words("percent" if unit == "%" else unit)
    if not units:
        return frozenset()
    takers = set()
    for d in tools:
        properties: Mapping[str, Any] = d.input_schema.get("properties") or {}
        if any(units & parameter_words(name, spec) for name, spec in properties.items()):
            takers.add(d.name)
    return frozenset(takers)


_NUMBER = re.compile(r"\d+(?:\.\d+)?")
