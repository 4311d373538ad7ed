"""The values a request carries, and where a call's argument values come from.

A call is only as good as its arguments, and a small model's arguments come
from two places: the conversation (a number the user typed, an id a tool
returned) or its own imagination. These helpers tell the two apart without
knowing anything about the tools: a *literal* is a value written in a message
(a number, a token with digits such as ``SKU-100`` or ``2026-07-14``, a
quoted phrase, an upper-case code such as ``EUR``), and a value is
*grounded* when it appears in the conversation's text. The small-model
rules use them to tell a plan line's read values from invented ones
(docs/embedded-model.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Any

from springtail.models._llamacpp._durations import spans_of_time
from springtail.models._llamacpp._number_words import NUMBER_WORDS, TIMES_WORDS
from springtail.models._llamacpp._stubs import id_example
from springtail.models._llamacpp._subjects import words
from springtail.models._llamacpp._worded_dates import ISO_DATE, dates_in_words, worded_dates

__all__ = [
    "ADDRESS",
    "Known",
    "Literals",
    "RequestValues",
    "carries",
    "enum_choices",
    "grounded",
    "invented",
    "leaves",
    "literals",
    "made_up",
    "names",
    "normal",
    "shape",
    "unlisted",
    "unnamed_filters",
    "uses",
]

_QUOTED = re.compile(r"(?:^|(?<=[\s(:]))[\"'“‘]([^\"'“”‘’\n]{1,80})[\"'”’](?=[\s.,;:!?)]|$)")
_TOKEN = re.compile(r"[\w@](?:[\w@.\-/:+]|,(?=\d{3}))*")
_CODE = re.compile(r"[A-Z]{2,}")
_MEASURE = re.compile(r"(\d[\d,]*(?:\.\d+)?)-[a-z]{3,}")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?|(?<![\w.])[-+]?\.\d+")

Literals = frozenset[str]
"""Normalised literal values (see ``normal``)."""


def normal(value: object) -> str:
    """A value as comparable text: numbers in plain decimal form, other text lower-cased."""
    if isinstance(value, bool):
        return str(value).lower()
    text = str(value).strip().strip(".,;:!?").lower()
    number = _as_number(text)
    return text if number is None else number


def _as_number(text: str) -> str | None:
    cleaned = text.replace(",", "")
    if not cleaned or not any(c.isdigit() for c in cleaned):
        return None
    try:
        number = Decimal(cleaned)
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    if number == number.to_integral_value():
        return str(number.to_integral_value())
    return format(number.normalize(), "f")


def _is_number(value: str) -> bool:
    """Whether a normalised value is a plain number (not a date or an id with digits)."""
    return _as_number(value) is not None and re.fullmatch(r"[-+]?[\d.]+", value) is not None


def shape(value: str) -> str:
    """What kind of value a normalised literal is: ``number``, or its letters and digits as runs.

    ``2026-07-14`` is ``9-9-9``, ``sku-100`` is ``a-9``, ``call bob`` is ``a a``.
    """
    if _is_number(value):
        return "number"
    return re.sub(r"\d+", "9", re.sub(r"[^\W\d_]+", "a", value))


def literals(text: str) -> Literals:
    """The values written in ``text``: numbers, tokens with digits, quoted phrases, codes.

    An upper-case word counts as a code only when the text is not shouting.
    A date in words is a date, not numbers: "March 16, 17 and 18, 2026"
    gives ``2026-03-16`` … ``2026-03-18`` (``03-16`` … without a year), so a
    call's ``day="2026-03-17"`` carries it; read as the numbers 16, 17, 18
    and 2026, no date argument carried them and the plan was asked for lines
    that would (``find_events(query="17")``).
    A number joined to a word ("a 90-minute slot", "a 3-day trip") is that
    number: read whole, ``minutes=90`` never carried ``90-minute``, and the
    plan was asked for lines that would.
    """
    found: set[str] = set()
    for match in _QUOTED.finditer(text):
        found.add(normal(match.group(1)))
    shouting = text.upper() == text
    lowered = text.lower()
    worded = worded_dates(lowered) if len(lowered) == len(text) else []
    for _, dates in worded:
        found.update(
            f"{year:04d}-{month:02d}-{day:02d}" if year else f"{month:02d}-{day:02d}"
            for month, day, year in dates
        )
    for match in _TOKEN.finditer(text):
        token = match.group().rstrip(".:/-+")
        if any(start <= match.start() < end for (start, end), _ in worded) and token.isdigit():
            continue  # a day or a year of a date in words
        measure = _MEASURE.fullmatch(token)
        if measure is not None:
            found.add(normal(measure.group(1)))  # "a 90-minute slot" gives 90
        elif any(c.isdigit() for c in token) or (not shouting and _CODE.fullmatch(token)):
            found.add(normal(token))
    return frozenset(v for v in found if v)


def leaves(value: object) -> Iterator[object]:
    """The plain values inside a JSON value (not ``None`` or booleans), depth first."""
    if isinstance(value, Mapping):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from leaves(item)
    elif value is not None and not isinstance(value, bool):
        yield value


def argument_values(arguments: Mapping[str, Any], schema: Mapping[str, Any] | None) -> list[str]:
    """The normalised leaf values of a call's arguments, leaving out the schema's defaults."""
    properties = (schema or {}).get("properties") or {}
    values: list[str] = []
    for name, value in arguments.items():
        spec = properties.get(name)
        if isinstance(spec, Mapping) and "default" in spec and spec["default"] == value:
            continue
        values.extend(normal(leaf) for leaf in leaves(value))
    return [v for v in values if v]


def _matches(literal: str, value: str) -> bool:
    if literal == value:
        return True
    if _as_number(literal) is not None or _as_number(value) is not None:
        return False  # numbers match by value only: 4 is not in 24
    return len(literal) >= 2 and literal in value


def uses(
    arguments: Mapping[str, Any],
    wanted: Iterable[str],
    schema: Mapping[str, Any] | None = None,
) -> set[str]:
    """The literals of ``wanted`` that a call's arguments carry."""
    values = argument_values(arguments, schema)
    return {w for w in wanted if any(_matches(w, v) for v in values)}


class Known:
    """The values a conversation's text holds, for checking where an argument came from."""

    def __init__(self, text: str) -> None:
        lowered = text.lower()
        self.text = lowered
        numbers = {normal(m.group()) for m in _NUMBER.finditer(text)}
        numbers.update(n for w, n in NUMBER_WORDS.items() if re.search(rf"\b{w}\b", lowered))
        for word, times in TIMES_WORDS.items():
            if re.search(rf"\b{word}\b", lowered):
                numbers.update(times)
        numbers.update(spans_of_time(lowered))
        self.numbers = numbers
        self.dates = dates_in_words(lowered)
        self._source = text

    @cached_property
    def ids(self) -> frozenset[str]:
        """Tokens with letters or signs and digits (``p-103``, ``2026-04-01``): ids and dates.

        Read on first use: only ``made_up`` asks, and a conversation's text
        grows with every result.
        """
        return frozenset(
            v for v in literals(self._source) if len(v) >= 3 and _has_digit(v) and not _is_number(v)
        )

    def contains(self, value: str) -> bool:
        """Whether a normalised value holds an id of the text (``p-103@example.com``)."""
        return any(i in value for i in self.ids)

    def holds(self, value: str) -> bool:
        """Whether a normalised value appears in the text (a date also when written in words)."""
        if _is_number(value):
            return value in self.numbers or value.lstrip("-+") in self.numbers
        if value in self.text:
            return True
        iso = ISO_DATE.fullmatch(value)
        if iso is None:
            return False
        year, month, day = (int(part) for part in iso.groups())
        return (month, day, year) in self.dates or (month, day, None) in self.dates

    def times(self, value: str) -> int:
        """How many times the text writes a normalised date or id (once for a date in words)."""
        return max(self.text.count(value), 1 if self.holds(value) else 0)


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


ADDRESS = re.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+")
"""An e-mail address, as a text writes one."""


def _read_only(value: str) -> bool:
    """Whether a value can only be read, never guessed: it has digits, or it is an address.

    Told "Send Tom Becker a text", the model wrote ``to="tom.becker@example.com"``:
    an address is a record's, like an id, however plausible its spelling.
    """
    return _has_digit(value) or ADDRESS.fullmatch(value) is not None


def invented(
    arguments: Mapping[str, Any], known: Known, schema: Mapping[str, Any] | None = None
) -> frozenset[str]:
    """The arguments holding a value with digits that the conversation does not give them.

    A value appears nowhere in the conversation, or it is a date or an id the
    conversation writes once that an earlier argument of the same call
    already holds: ``days_between(start="2026-04-01", end="2026-04-01")`` for
    "from today until 2026-04-01" copied the one date into the slot "today"
    should fill. Plain numbers may repeat ("5 squared" is
    ``left=5, right=5``).
    """
    names = []
    taken: dict[str, int] = {}
    properties = (schema or {}).get("properties") or {}
    for name, value in arguments.items():
        if _unshaped_id(value, properties.get(name), known) or _placeholder(name, value, known):
            names.append(name)
            continue
        single = argument_values({name: value}, schema)
        copied = any(
            _has_digit(v) and not _is_number(v) and taken.get(v, 0) >= known.times(v)
            for v in single
        )
        if copied or any(_read_only(v) and not known.holds(v) for v in single):
            names.append(name)
        for v in single:
            taken[v] = taken.get(v, 0) + 1
    return frozenset(names)


def _unshaped_id(value: Any, spec: Any, known: Known) -> bool:
    """Whether an id parameter holds a text with no digits that the conversation does not give.

    A parameter whose example has digits (``P-101``) takes an id. Retried to look
    Tom Becker up by id, the model wrote ``patient_id="T-B"``: a name's initials
    in the id's shape, which no one gave.
    """
    if not isinstance(value, str) or _has_digit(value) or id_example(spec) is None:
        return False
    text = normal(value)
    return bool(text) and not known.holds(text)


def _placeholder(name: str, value: Any, known: Known) -> bool:
    """Whether an id parameter holds a blank that writes the parameter's own name.

    "Please drop the team sync from my calendar" was written as
    ``cancel_event(event_id="your_event_id")``: a blank to fill in, not an
    id (twenty-second pass). Only for ids (``id`` or ``…_id``): a ``text``
    may well hold the word "text".
    """
    key = name.lower()
    if not isinstance(value, str) or not (key == "id" or key.endswith("_id")):
        return False
    squeezed = re.sub(r"[^a-z0-9]", "", value.lower())
    return re.sub(r"[^a-z0-9]", "", key) in squeezed and not known.holds(normal(value))


def grounded(
    arguments: Mapping[str, Any], known: Known, schema: Mapping[str, Any] | None = None
) -> bool:
    """Whether every value with digits in a call's arguments appears in the conversation."""
    return all(known.holds(v) for v in argument_values(arguments, schema) if _read_only(v))


def carries(
    arguments: Mapping[str, Any],
    wanted: Iterable[str],
    known: Known,
    schema: Mapping[str, Any] | None = None,
) -> bool:
    """Whether a call asked for ``wanted`` values carries one, and nothing with digits invented."""
    return bool(uses(arguments, wanted, schema)) and grounded(arguments, known, schema)


def made_up(
    arguments: Mapping[str, Any], known: Known, schema: Mapping[str, Any] | None = None
) -> bool:
    """Whether a call has values only reading gives, and none of them is in the conversation.

    Text the model chose (an operation, a unit) may be its own; a call whose
    every value is new, dates and ids included, was invented rather than read.
    A value built around an id of the conversation (``p-103@example.com`` for
    patient P-103) was read in part: the call was a step taken too early,
    not made up.
    """
    values = argument_values(arguments, schema)
    properties = (schema or {}).get("properties") or {}
    unshaped = any(
        _unshaped_id(v, properties.get(n), known) or _placeholder(n, v, known)
        for n, v in arguments.items()
    )
    if not unshaped and not any(_read_only(v) for v in values):
        return False
    return not any(
        known.holds(v) or known.contains(v) for v in values if _read_only(v) or len(v) >= 3
    )


_VALUE = re.compile(
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"  # 35,000
    r"|[A-Za-z0-9][A-Za-z0-9_./:+@-]*[A-Za-z0-9]"  # SKU-100, 19.5, Asia/Seoul, ann@example.com
    r"|[A-Za-z0-9]"
)
_CLAUSE = re.compile(r"[.?!;:,]\s+|\s+and\s+|\n")
_JOINER = re.compile(r"^(?:and|or|then)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RequestValues:
    """A request's values, read once: normalised for comparing, and as a call would spell them."""

    literals: Literals
    """Numbers, tokens with digits, quoted phrases and codes, normalised (``literals``)."""
    spelled: frozenset[str]
    """Numbers (``35,000`` as ``35000``), codes, words and clauses as written, for guessing the
    rest of a value the model has begun to write."""
    names: Literals = frozenset()
    """Capitalised words inside a sentence (``Sam``, ``Dana Cruz``), lower-cased: the names a
    request gives its calls, which ``literals`` leaves out because they have no digits."""

    @property
    def wanted(self) -> Literals:
        """Every value the request gives its calls: ``literals`` and ``names``."""
        return self.literals | self.names

    @classmethod
    def of(cls, request: str) -> RequestValues:
        """The values of ``request``."""
        spelled = {w.replace(",", "") if w[0].isdigit() else w for w in value_tokens(request)}
        for clause in _CLAUSE.split(request):
            clause = _JOINER.sub("", clause.strip()).rstrip(".?!;:,")
            if clause:
                spelled.add(clause)
        return cls(literals(unlisted(request)), frozenset(spelled), names(request))


_LINE_MARKER = re.compile(r"^[ \t]*(\d{1,2})[.)](?=[ \t])", re.MULTILINE)
_INLINE_MARKER = re.compile(r"(?:^|(?<=\s))(\d{1,2})\)(?=\s)")


def unlisted(text: str) -> str:
    """``text`` with the numbers of a numbered list blanked out: they count items, not values.

    "1. Who is customer C-103?", "2. How many SKU-300 …", each on a line of
    its own, read 1 to 4 as values of the request, and the plan was asked
    for lines to carry them (it wrote
    ``product_reserve(quantity=2)``; tenth pass). Only a run 1, 2, 3 … in
    order, at the starts of lines ("1." or "1)") or inline ("1) … 2) …"),
    is a list: a lone "4." ends a sentence.
    """
    for pattern in (_LINE_MARKER, _INLINE_MARKER):
        found = list(pattern.finditer(text))
        if len(found) >= 2 and [int(m.group(1)) for m in found] == list(range(1, len(found) + 1)):
            for match in found:
                start, end = match.span(1)
                text = text[:start] + " " * (end - start + 1) + text[end + 1 :]
    return text


_NAME = re.compile(r"(?<=[A-Za-z0-9,;(] )[A-Z][a-z]+(?: [A-Z][a-z]+)*")
_NOT_NAMES = frozenset({"i", "i'm", "ok", "okay", "please", "thanks", "thank"})
_WEEKDAYS = frozenset(
    {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)


def names(text: str) -> Literals:
    """Capitalised words that follow a word or a comma inside a sentence: names, not openings.

    "Order 5 of SKU-9 for Dana Cruz and message Sam" gives ``dana cruz`` and
    ``sam``; the sentence's first word, and any word after a full stop, is
    capitalised for grammar and is left out, and so is the month of a date
    in words ("on March 16" is a date, not a name to carry). A weekday's
    name is no name either: "Monday 2026-03-16's events, then Wednesday
    2026-03-18's" names two dates, and reading "monday" and "wednesday" as
    values the plan must carry asked for four more lines (twenty-fourth pass).
    """
    lowered = text.lower()
    dates = [span for span, _ in worded_dates(lowered)] if len(lowered) == len(text) else []
    found = set()
    for match in _NAME.finditer(text):
        if any(start <= match.start() < end for start, end in dates):
            continue
        kept = [word for word in match.group().lower().split() if word not in _WEEKDAYS]
        if kept:
            found.add(" ".join(kept))
    return frozenset(n for n in found if len(n) >= 3 and n not in _NOT_NAMES)


def named_choices(request: str, schemas: Iterable[Mapping[str, Any]]) -> Literals:
    """The enum values of the tools' parameters that the request names, as words.

    "What a checkup and a consultation cost" names two values of a
    ``visit_type`` enum: the calls should carry both. A value is named as a
    whole word, case and hyphens aside ("e-mail" names ``email``); values
    shorter than three letters are left out. A parameter's default is named
    too: any call of its tool carries it (``defaults``).
    """
    text = " " + re.sub(r"[^a-z0-9]+", " ", request.lower().replace("-", "")) + " "
    found: set[str] = set()
    for schema in schemas:
        for spec in (schema.get("properties") or {}).values():
            for choice in enum_choices(spec):
                words = re.sub(r"[^a-z0-9]+", " ", choice.lower().replace("-", "")).strip()
                if len(words) >= 3 and f" {words} " in text:
                    found.add(normal(choice))
    return frozenset(found)


def enum_choices(spec: object) -> list[str]:
    """A parameter's enum values that are text, also under ``anyOf`` (an optional enum)."""
    if not isinstance(spec, Mapping):
        return []
    choices = [c for c in spec.get("enum") or () if isinstance(c, str)]
    for option in spec.get("anyOf") or ():
        choices.extend(enum_choices(option))
    return choices


def defaults(arguments: Mapping[str, Any], schema: Mapping[str, Any] | None) -> Literals:
    """The text defaults a call carries without writing them (or writing them as they are)."""
    carried = set()
    for name, spec in ((schema or {}).get("properties") or {}).items():
        if not isinstance(spec, Mapping) or not isinstance(spec.get("default"), str):
            continue
        if name not in arguments or arguments[name] == spec["default"]:
            carried.add(normal(spec["default"]))
    return frozenset(carried)


def value_tokens(text: str) -> list[str]:
    """The tokens of ``text`` that can be values, as written: ``SKU-100``, ``19.50``, ``35,000``."""
    return _VALUE.findall(text)


def unnamed_filters(
    arguments: Mapping[str, Any], schema: Mapping[str, Any] | None, text: str
) -> frozenset[str]:
    """The optional filters of a call set to a choice the conversation never names.

    A parameter whose default is ``None`` and whose values are an enum
    narrows what a tool returns ("List the clinic's doctors, optionally of
    one specialty"). Asked "When is Dr. Brandt free?", the 1.5B model wrote
    ``list_doctors(specialty="cardiology")``, and the doctor it needed was
    not in the list. A choice is named when each of its words starts as a
    word of ``text`` does (``_subjects.words``: "our cardiologist" names
    ``cardiology``).
    """
    if not schema:
        return frozenset()
    properties: Mapping[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    chosen = {
        name: value
        for name, value in arguments.items()
        if name not in required
        and isinstance(value, str)
        and isinstance(spec := properties.get(name), Mapping)
        and "default" in spec
        and spec["default"] is None
        and value in enum_choices(spec)
    }
    if not chosen:
        return frozenset()
    said = words(text)
    return frozenset(name for name, value in chosen.items() if not words(value) <= said)
