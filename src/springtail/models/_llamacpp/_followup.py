"""Tools a request names but the turn has not called yet: the second half of "do A and B".

Asked for two things ("Reserve 2 units of SKU-100 and add that as a to-do"),
the 1.5B model makes the first call and, once its result is in, answers in
prose as if everything was done ("The to-do has been added."). Measured after
the first result of six two-tool requests, the model gave a call only
0.11-0.21 of the probability of its first token, against 0.02-0.12 for
single-tool requests whose work was done, so no threshold tells the two apart;
told to call "every tool a request needs" in the system prompt or after the
results, it did no better (docs/embedded-model.md).

What does tell them apart is the request itself: "add that as a to-do" names
``todo_add`` word for word. So when a turn already has tool results and the
request names a tool the turn has not called, the model is offered that tool
first: its next reply is a call to one of the named tools, under a grammar
with only those tools and no catch-all branch. With the catch-all left in, the
model used it to repeat its last call about half of the time, so the decision
is the request's words, and the model writes the arguments. Matching is on whole words
of the tool's name, every word required, so ``todo_add`` needs both "add" and
"to-do" (or "todo") in the request, and ``calculate`` is never named by "Add
1250 and 730".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from springtail.tools._definition import ToolDefinition

__all__ = ["named_tools", "partly_named_tools"]

_HYPHENATED = re.compile(r"(?<=[a-z])-(?=[a-z])")
_WORD = re.compile(r"[a-z0-9]+")
_NAME_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def named_tools(
    request: str, tools: Sequence[ToolDefinition], called: Collection[str]
) -> list[ToolDefinition]:
    """The tools not in ``called`` whose every name word appears in ``request``.

    A request word matches a name word when it starts with it ("products"
    names ``product``, "added" names ``add``); "to-do" and "todo" are one word.
    A tool whose name words all come from a called tool's name is left out:
    "date and time" named ``current_datetime``, not ``current_date`` too.
    """
    words = _WORD.findall(_HYPHENATED.sub("", request.lower()))
    if not words:
        return []
    called_parts = [p for name in called for p in _parts(name)]
    result = []
    for definition in tools:
        if definition.name in called:
            continue
        parts = _parts(definition.name)
        if not parts or all(any(c.startswith(p) for c in called_parts) for p in parts):
            continue
        if all(any(w.startswith(p) for w in words) for p in parts):
            result.append(definition)
    return result


def _parts(name: str) -> list[str]:
    return [p.lower() for p in _NAME_PART.findall(name)]


def partly_named_tools(
    request: str, tools: Sequence[ToolDefinition], called: Collection[str]
) -> list[ToolDefinition]:
    """The tools not in ``called`` with a name word in ``request`` that no called tool has.

    The weaker match behind "take the average of 12, 18 and 30, and convert
    that many km to miles": "convert" names ``convert_units`` though "units" is
    not said. A word the called tools share ("product" after
    ``product_lookup``, or "note" after ``search_notes``) tells nothing about
    what is left to do, so it does not count; nor do words of two letters or
    fewer.
    """
    words = _WORD.findall(_HYPHENATED.sub("", request.lower()))
    if not words or not called:
        return []
    called_parts = {p for name in called for p in _parts(name)}
    result = []
    for definition in tools:
        if definition.name in called:
            continue
        parts = [
            p
            for p in _parts(definition.name)
            if len(p) > 2 and not any(c.startswith(p) or p.startswith(c) for c in called_parts)
        ]
        if any(any(w.startswith(p) for w in words) for p in parts):
            result.append(definition)
    return result
