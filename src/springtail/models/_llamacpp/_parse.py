"""Reading the embedded model's output: prose, or tool calls in one of its shapes.

The grammar guarantees the shape, so parsing is exact rather than heuristic:
a reply that opens like a call is a call, anything else is prose. What the
grammar cannot guarantee is that generation ran to the end (``max_tokens``, a
stop sequence), so a call cut short is reported as such instead of guessed at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Container
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from springtail.models._llamacpp._grammar import FENCE_OPEN, TAGGED_CLOSE, TAGGED_OPEN

__all__ = ["ParsedCall", "ParsedOutput", "ReplyKind", "classify", "parse_output"]


class ReplyKind(Enum):
    """What a reply turns out to be, as far as its beginning tells."""

    UNDECIDED = "undecided"
    TEXT = "text"
    CALLS = "calls"


_CODE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\s*[=(]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\s*")


def classify(start: str, *, code: bool = False) -> ReplyKind:
    """Whether a reply beginning with ``start`` is prose or tool calls.

    A reply that opens with ``{``, ``<tool_call>`` or ````` ```json````` is a call
    in one of the model's shapes; streaming can show prose as soon as its first
    characters rule those out, and must hold back until then. With ``code``
    (the plan's prompt, where the tools are Python) code opens a call too: a
    tag (``<tools>``), any code fence, or a line that starts like Python
    (``r1 = ...``, ``weekday(...)``); prose is then held back until its first
    word is followed by something that is not ``=`` or ``(``.
    """
    if not start:
        return ReplyKind.UNDECIDED
    if start.startswith("{") or start.startswith(TAGGED_OPEN) or start.startswith(FENCE_OPEN):
        return ReplyKind.CALLS
    if code:
        text = start.lstrip()
        if not text:
            return ReplyKind.UNDECIDED
        if text.startswith(("<", "`", "{")) or _CODE.match(text):
            return ReplyKind.CALLS
        if _WORD.fullmatch(text):
            return ReplyKind.UNDECIDED
        return ReplyKind.TEXT
    for prefix in (TAGGED_OPEN, FENCE_OPEN):
        if prefix.startswith(start):
            return ReplyKind.UNDECIDED
    return ReplyKind.TEXT


@dataclass(frozen=True, slots=True)
class ParsedCall:
    """One call as the model wrote it; ``arguments`` is the decoded JSON object."""

    name: str
    arguments: dict[str, Any]

    def key(self) -> tuple[str, str]:
        """Identity of the call, for spotting a repeat of one already answered."""
        return self.name, json.dumps(self.arguments, sort_keys=True)


@dataclass(frozen=True, slots=True)
class ParsedOutput:
    """A reply split into prose, known calls and calls to tools that do not exist."""

    text: str = ""
    calls: tuple[ParsedCall, ...] = ()
    unknown: tuple[ParsedCall, ...] = ()
    truncated: bool = False
    kind: ReplyKind = field(default=ReplyKind.TEXT)


_TAGGED = re.compile(re.escape(TAGGED_OPEN) + r"(.*?)" + re.escape(TAGGED_CLOSE), re.DOTALL)


def parse_output(output: str, known: Container[str]) -> ParsedOutput:
    """Split the model's output into prose or calls.

    Args:
        output: The generated text, exactly as produced.
        known: The names of the tools offered; a call to another name came
            through the grammar's catch-all branch and is returned in
            ``unknown`` so the caller can treat the reply as "no tool".
    """
    kind = classify(output)
    if kind is not ReplyKind.CALLS:
        return ParsedOutput(text=output, kind=ReplyKind.TEXT)
    stripped = output.strip()
    bodies: list[str]
    if stripped.startswith(TAGGED_OPEN):
        bodies = _TAGGED.findall(stripped)
        complete = stripped.endswith(TAGGED_CLOSE) and bool(bodies)
    elif stripped.startswith(FENCE_OPEN):
        inner = stripped[len(FENCE_OPEN) :]
        complete = inner.rstrip().endswith("```")
        bodies = [inner.rstrip().removesuffix("```")] if complete else []
    else:
        bodies = [stripped]
        complete = True
    calls: list[ParsedCall] = []
    unknown: list[ParsedCall] = []
    for body in bodies:
        call = _decode(body)
        if call is None:
            complete = False
            break
        (calls if call.name in known else unknown).append(call)
    if not complete and not calls:
        return ParsedOutput(text=output, truncated=True, kind=ReplyKind.CALLS)
    # Calls that were written out in full stand even when a later one was cut short.
    return ParsedOutput(
        calls=tuple(calls), unknown=tuple(unknown), truncated=not complete, kind=ReplyKind.CALLS
    )


def _decode(body: str) -> ParsedCall | None:
    try:
        value = json.loads(body)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    arguments = value.get("arguments", {})
    if not isinstance(arguments, dict):
        return None
    return ParsedCall(name=value["name"], arguments=arguments)
