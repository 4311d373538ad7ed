"""A case in another language: the user's turns translated, the expected calls kept.

A translation changes what the user writes, not what a right tool call is: the same
tools with the same values. Where a value is free text the model writes in the user's
language (a message, a title it was given in that language), or a place the user names
in it, the expected value also accepts the translation; where an answer must state a
word (``sent``, a weekday), the answer may state it in either language, since the
tools answer in English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bench.matrix._cases import Call, Case, Contains, Language, OneOf, Turn

__all__ = ["Translation", "translated"]


@dataclass(frozen=True)
class Translation:
    """One language's requests and the words that stand for English ones.

    ``requests`` maps each English request to its translation. ``words`` maps an English
    word of a ``contains(...)`` value or of an expected answer to the ways the language
    says it. ``values`` maps a plain expected text (a country) to its translations.
    """

    language: Language
    requests: Mapping[str, str]
    words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    values: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def translated(cases: tuple[Case, ...], translation: Translation) -> tuple[Case, ...]:
    """``cases`` in ``translation``'s language (a request it lacks raises ``KeyError``)."""
    return tuple(
        replace(
            case,
            language=translation.language,
            turns=tuple(_turn(t, translation) for t in case.turns),
        )
        for case in cases
    )


def _turn(turn: Turn, translation: Translation) -> Turn:
    calls = tuple(_call(c, translation) for c in turn.calls)
    answer = tuple(_group(g, translation) for g in turn.answer)
    return replace(turn, request=translation.requests[turn.request], calls=calls, answer=answer)


def _call(call: Call, translation: Translation) -> Call:
    arguments = {k: _value(v, translation) for k, v in call.arguments.items()}
    return replace(call, arguments=arguments)


def _value(value: Any, translation: Translation) -> Any:
    if isinstance(value, Contains):
        if not any(w.lower() in translation.words for w in value.words):
            return value
        alternatives = [value]
        for i, word in enumerate(value.words):
            for other in translation.words.get(word.lower(), ()):
                words = (*value.words[:i], other, *value.words[i + 1 :])
                alternatives.append(Contains(words))
        return OneOf(tuple(alternatives))
    if isinstance(value, OneOf):
        return OneOf(tuple(_value(v, translation) for v in value.options))
    if isinstance(value, str) and value in translation.values:
        return OneOf((value, *translation.values[value]))
    if isinstance(value, list):
        return [_value(v, translation) for v in value]
    if isinstance(value, dict):
        return {k: _value(v, translation) for k, v in value.items()}
    return value


def _group(group: tuple[str, ...], translation: Translation) -> tuple[str, ...]:
    more = [other for option in group for other in translation.words.get(option.lower(), ())]
    return group + tuple(o for o in more if o not in group)
