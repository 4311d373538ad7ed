"""Free guesses of what the embedded model writes next, for ``decode`` to check in one batch.

Two sources, both costing microseconds against a 100 ms decoding step:

* ``PromptLookup``: text is often copied — a SKU from the request, a figure
  from a tool result, a phrase of an earlier answer. When the last tokens
  written occurred before in the prompt, the tokens that followed them there
  are the guess.
* ``CallDraft``: a call's body is mostly fixed text (``{"name": "``,
  ``", "arguments": {``, the property names in schema order), and a tool's
  name is settled by its first piece. Only the values are the model's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from springtail.models._llamacpp._decoding import common_prefix
from springtail.tools._definition import ToolDefinition

__all__ = ["CallDraft", "LineDraft", "PromptLookup"]

Tokenize = Callable[[str], list[int]]
Detokenize = Callable[[Sequence[int]], str]

_CALL_START = '\n{"name": "'
_ARGUMENTS = '", "arguments": {'
_CALL_END = "}}\n"


class PromptLookup:
    """Guesses by finding the last few tokens earlier in the context (prompt lookup decoding).

    Args:
        context: The prompt (and anything before this generation).
        longest: The longest run of last tokens looked up.
        shortest: The shortest run worth trusting; one token matches too often.
        length: Tokens guessed per lookup. Measured on support-bot's replies, two
            beat longer guesses: a copied phrase rarely runs on for long, and a
            batch's cost grows with each guessed token.
    """

    def __init__(
        self,
        context: Sequence[int],
        *,
        longest: int = 4,
        shortest: int = 2,
        length: int = 2,
    ) -> None:
        self._context = list(context)
        self._longest = longest
        self._shortest = shortest
        self._length = length
        # For each run of tokens, the position after where it last occurred in the
        # context: the guess starts there. Built on the first lookup, so that a
        # generation that stops at its first token never pays for it.
        self._ends: dict[tuple[int, ...], int] | None = None

    def _index(self) -> dict[tuple[int, ...], int]:
        tokens = self._context
        return {
            tuple(tokens[end - n : end]): end
            for n in range(self._shortest, self._longest + 1)
            for end in range(n, len(tokens))
        }

    def __call__(self, produced: Sequence[int], room: int) -> Sequence[int]:
        if not produced:
            # The first token decides between a call and prose: an opening's guesses,
            # extra rows of logits, were measured to cost more than they saved.
            return ()
        if self._ends is None:
            self._ends = self._index()
        tail = [*self._context[-self._longest :], *produced][-self._longest :]
        for n in range(min(self._longest, len(tail)), self._shortest - 1, -1):
            end = self._ends.get(tuple(tail[-n:]))
            if end is not None:
                return self._context[end : end + min(self._length, room)]
        return ()


class _StructureDraft:
    """A call's fixed text, else a request value begun, else the fallback's guess.

    The JSON call's and the plan line's drafters differ only in what they
    call fixed text (``continuation``) and where a value begins (``value``).
    """

    _tokenize: Tokenize
    _detokenize: Detokenize
    _fallback: PromptLookup | None

    def continuation(self, text: str) -> str:
        raise NotImplementedError

    def value(self, text: str) -> str:
        raise NotImplementedError

    def __call__(self, produced: Sequence[int], room: int) -> Sequence[int]:
        text = self._detokenize(produced)
        guess = self.continuation(text) or self.value(text)
        if guess:
            return self._tokenize(guess)[:room]
        if self._fallback is not None:
            return self._fallback(produced, room)
        return ()


class CallDraft(_StructureDraft):
    """Guesses the fixed text of a call body from the offered tools' names and schemas.

    Args:
        tools: The tools the grammar allows.
        tokenize: Text to tokens, as the model's tokenizer splits it.
        detokenize: Tokens to text.
        fallback: Asked when the structure gives no guess.
        values: The request's values as spelled (``RequestValues.spelled``): a
            value the model has begun to write is often one of its numbers,
            codes or phrases, which the model copies one piece (a digit, for
            Qwen) at a time.
    """

    def __init__(
        self,
        tools: Sequence[ToolDefinition],
        tokenize: Tokenize,
        detokenize: Detokenize,
        fallback: PromptLookup | None = None,
        values: frozenset[str] = frozenset(),
    ) -> None:
        self._tools = {d.name: _properties(d.input_schema) for d in tools}
        self._tokenize = tokenize
        self._detokenize = detokenize
        self._fallback = fallback
        self._values = values

    def value(self, text: str) -> str:
        """The rest of a request value that the value being written begins, or ``""``."""
        return _rest_of_value(text.rsplit('": ', 1)[-1] if '": ' in text else "", self._values)

    def continuation(self, text: str) -> str:
        """The fixed text that follows ``text`` in any valid call, or ``""``."""
        if len(text) < len(_CALL_START):
            return _CALL_START[len(text) :] if _CALL_START.startswith(text) else ""
        if not text.startswith(_CALL_START):
            return ""
        rest = text[len(_CALL_START) :]
        name, quote, after = rest.partition('"')
        if not quote:
            return self._name(name)
        properties = self._tools.get(name)
        if properties is None:
            return ""
        if len(after) < len(_ARGUMENTS) - 1:
            fixed = _ARGUMENTS[1:]
            return fixed[len(after) :] if fixed.startswith(after) else ""
        if not after.startswith(_ARGUMENTS[1:]):
            return ""
        return _arguments(after[len(_ARGUMENTS) - 1 :], properties)

    def _name(self, start: str) -> str:
        if not start:
            return ""  # the model's choice
        matches = [(n, p) for n, p in self._tools.items() if n.startswith(start)]
        if len(matches) != 1:
            return ""
        name, properties = matches[0]
        return name[len(start) :] + _ARGUMENTS + _first_key(properties)


def _properties(schema: Any) -> tuple[str, ...]:
    """The property names in the order the grammar asks for them: required ones first."""
    properties = schema.get("properties") if hasattr(schema, "get") else None
    if not properties:
        return ()
    required = set(schema.get("required") or ())
    return tuple(sorted(properties, key=lambda p: p not in required))  # stable: schema order


def _first_key(properties: tuple[str, ...]) -> str:
    return f'"{properties[0]}": ' if properties else _CALL_END


def _arguments(text: str, properties: tuple[str, ...]) -> str:
    """What follows ``text``, the arguments object written so far (after its ``{``)."""
    if not text:
        return _first_key(properties)
    used = {p for p in properties if f'"{p}": ' in text}
    remaining = [p for p in properties if p not in used] or [""]
    opener = text.rfind(', "')
    key = text[opener + 3 :] if opener >= 0 else text[1:] if text.startswith('"') else None
    if key is not None and '": ' not in key:
        # In a key or just after it: finish it with the first property that fits.
        for name in (*remaining, *properties):
            fixed = f'{name}": '
            if name and fixed.startswith(key):
                return fixed[len(key) :]
        return ""
    if text.endswith(", "):
        return f'"{remaining[0]}": ' if remaining[0] else ""
    if text.endswith(","):
        return f' "{remaining[0]}": ' if remaining[0] else ""
    value = text.rsplit('": ', 1)[-1]
    if len(value) > 1 and value.startswith('"') and value.endswith('"'):
        # A string value just closed: the next property, or the end of the call.
        return f', "{remaining[0]}": ' if remaining[0] else _CALL_END
    if value.endswith('"}'):
        return _CALL_END[1:]
    return ""  # inside a value: the model's


_NUMBER = re.compile(r"\d+(?:\.\d*)?")


def _rest_of_value(begun: str, values: frozenset[str]) -> str:
    """The rest of the one request value that ``begun`` (a value being written) starts.

    A string's opening quote is left out of the match and its closing quote
    guessed too; when several values fit, the guess goes as far as they agree.
    """
    quoted = begun.startswith('"')
    begun = begun[1:] if quoted else begun
    if not begun or '"' in begun:
        return ""
    numeric = _NUMBER.fullmatch(begun) is not None
    rests = [
        v[len(begun) :]
        for v in values
        if v.startswith(begun) and v != begun and (not numeric or _NUMBER.fullmatch(v))
    ]
    if not rests:
        return ""
    if len(rests) == 1:
        return rests[0] + '"' if quoted else rests[0]
    return rests[0][: min(common_prefix(rests[0], r) for r in rests[1:])]


class LineDraft(_StructureDraft):
    """Guesses the fixed text of a plan line (``_plan.py``) after its ``rK = ``.

    ``tool(`` once the name's first piece leaves one tool possible, each
    parameter's ``name=`` in schema order, ``, `` between arguments and the
    closing ``)`` and newline once every parameter is written; a value the
    model has begun is guessed from the request's values, as in a JSON call.

    Args:
        tools: The tools the line may call.
        tokenize: Text to tokens, as the model's tokenizer splits it.
        detokenize: Tokens to text.
        values: The request's values as spelled (``RequestValues.spelled``).
        fallback: Asked when the structure gives no guess.
    """

    def __init__(
        self,
        tools: Sequence[ToolDefinition],
        tokenize: Tokenize,
        detokenize: Detokenize,
        values: frozenset[str] = frozenset(),
        fallback: PromptLookup | None = None,
    ) -> None:
        self._params = {d.name: tuple(d.input_schema.get("properties") or {}) for d in tools}
        self._tokenize = tokenize
        self._detokenize = detokenize
        self._values = values
        self._fallback = fallback

    def continuation(self, text: str) -> str:
        """The fixed text that follows ``text`` (the line after ``rK =``), or ``""``."""
        if not text.startswith(" "):
            return ""  # the space, and the tool's name, are the model's
        name, paren, arguments = text[1:].partition("(")
        if not paren:
            matches = [n for n in self._params if n.startswith(name)] if name else []
            if len(matches) != 1:
                return ""
            first = self._params[matches[0]]
            return matches[0][len(name) :] + "(" + (f"{first[0]}=" if first else ")\n")
        params = self._params.get(name)
        if params is None:
            return ""
        if not arguments:
            return f"{params[0]}=" if params else ")\n"
        written = _written(arguments)
        left = [p for p in params if p not in written]
        if arguments.endswith(", "):
            return f"{left[0]}=" if left else ""
        if arguments.endswith(","):
            return f" {left[0]}=" if left else ""
        value = arguments.rsplit("=", 1)[-1]
        if (
            len(value) > 1
            and value.startswith('"')
            and value.endswith('"')
            and '"' not in value[1:-1]
        ):
            # A string value just closed: the next argument, or the end of the line.
            return f", {left[0]}=" if left else ")\n"
        if value.endswith(")"):
            return "\n"
        return ""

    def value(self, text: str) -> str:
        """The rest of a request value that the value being written begins, or ``""``."""
        begun = text.rsplit("=", 1)[-1] if "=" in text else ""
        return "" if "," in begun else _rest_of_value(begun, self._values)


_ARGUMENT_NAME = re.compile(r"(?:^|, )([A-Za-z_][A-Za-z0-9_.\-]*)=")


def _written(arguments: str) -> set[str]:
    """The parameter names an argument list written so far has used (outside strings)."""
    outside = re.sub(r'"(?:[^"\\]|\\.)*"', '""', arguments)
    return set(_ARGUMENT_NAME.findall(outside))
