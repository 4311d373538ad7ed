"""What a plan line's references stand for once their results are in, when no model is needed.

A line that needs an earlier result is written out after that result is in
(``_planning.py``). When the result is one plain value (``O-1001``,
``5307.25``), the reference is that value, exactly: asked to copy
``O-1001`` into ``order_id=``, the 1.5B model wrote ``Oh-1001``. A result
that is prose or an object is read by the model, which writes the value;
a number it writes is one the conversation states (``stated_numbers``), and
an id or a date it writes is one the result or the request holds
(``shaped_tokens``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from springtail.models._llamacpp._plan import Ref, Result, Template
from springtail.models._llamacpp._plan_grammar import number_branch
from springtail.models._llamacpp._stubs import id_example, parameter_example
from springtail.models._llamacpp._values import ADDRESS

__all__ = [
    "UNBOUND",
    "bind",
    "keyed_values",
    "misread_day",
    "scalar",
    "shaped_tokens",
    "signature",
    "stated_numbers",
]

UNBOUND: Final = object()
"""``bind``'s answer when the model must write the value."""

_TOKEN = re.compile(r"[\w.@:/+#-]{1,64}")
_MAX_CHARS = 64
_MAX_CHOICES = 64
"""More numbers than this in a conversation and a number is left free: the choice says little."""
_WORD = re.compile(r"[A-Za-z0-9]+(?:[-_./:@#][A-Za-z0-9]+)*")
"""A token of a result's text: ``SKU-300`` in "SKU-300 RAG Practice Dataset: 4 in stock"."""
_AROUND = "\"'.,;:()[]{}<>"
"""What an address found in a text may carry around it (JSON's quotes, a full stop)."""
_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
"""A date as JSON writes it, also the day of a date and time (``2026-03-16T10:00``)."""


def scalar(data: str) -> str | int | float | None:
    """A result's one plain value: a JSON number or string, or a single token; else ``None``."""
    text = data.strip()
    if not text or len(text) > _MAX_CHARS:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return text if _TOKEN.fullmatch(text) else None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    return value


def bind(value: Ref | Template, results: Mapping[str, Result], schema: Any) -> Any:
    """The argument ``value`` stands for, or ``UNBOUND`` when a result is not one plain value.

    Args:
        value: A whole-argument variable or a text built from variables.
        results: Each answered variable's result.
        schema: The parameter's JSON schema, whose type the value must have.
    """
    plain: dict[str, str | int | float] = {}
    names = {value.variable} if isinstance(value, Ref) else value.variables
    for name in names:
        result = results.get(name)
        found = None if result is None or result.is_error else scalar(result.data)
        if found is None:
            return UNBOUND
        plain[name] = found
    if isinstance(value, Template):
        text = value.render({k: _text(v) for k, v in plain.items()})
        return text if _admits(schema, text) else UNBOUND
    found = plain[value.variable]
    if not _admits(schema, found):
        return _as_text(schema, found)
    if isinstance(found, float) and found.is_integer() and _kind(schema) == "integer":
        return int(found)
    return found


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _kind(schema: Any) -> Any:
    return schema.get("type") if isinstance(schema, Mapping) else None


def _text(value: str | int | float) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _as_text(schema: Any, value: str | int | float) -> Any:
    """A number where the parameter takes text is its text (``text=r2`` for ``5307.25``)."""
    if not isinstance(value, str) and _admits(schema, _text(value)):
        return _text(value)
    return UNBOUND


def _admits(schema: Any, value: str | int | float) -> bool:
    """Whether a plain value has the parameter's type (any, when the schema names none)."""
    if not isinstance(schema, Mapping):
        return True
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list):
        return any(_admits(o, value) for o in options)
    if "enum" in schema:
        return value in schema["enum"]
    kind = schema.get("type")
    if kind is None:
        return True
    if kind == "string":
        if not isinstance(value, str):
            return False
        pattern = schema.get("pattern")
        if isinstance(pattern, str) and re.search(pattern, value) is None:
            return False
        # A day is a date: "On the day of my project review, find two free hours and block
        # them" planned ``add_event(day=r2, start=r2)`` after the free-slot finder's "09:00",
        # and the event was added on the day "09:00" (twenty-first pass). The model writes
        # a day that does not fit, having read the results.
        return schema.get("format") != "date" or _DATE.fullmatch(value) is not None
    if kind == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if kind == "number":
        return isinstance(value, int | float)
    return False


def stated_numbers(schema: Any, numbers: Iterable[str]) -> Any:
    """A number parameter's schema narrowed to the numbers the conversation states.

    A value the model writes from a result it has read is in that result:
    told "insurance covers 70% of a visit", the 1.5B model wrote
    ``coverage_percent=0.7`` for a parameter "in percent, 0 to 100", and the
    share came out wrong. The choice is every number the conversation
    writes (``numbers``, normalised: the request, results, earlier turns)
    that the parameter's type and bounds admit; the schema as it is when
    none or too many are.

    A number that may also be given as text (a ``Decimal``: ``anyOf`` a
    number and a string) is written as a number: its text branch let the
    model copy the calculator's whole result, ``left="45 * 8 = 360"``, and
    the step failed (twenty-second pass).
    """
    schema = number_branch(schema)
    if not isinstance(schema, Mapping) or "enum" in schema:
        return schema
    kind = schema.get("type")
    if kind not in ("number", "integer"):
        return schema
    choices: set[int | float] = set()
    for text in numbers:
        try:
            number = float(text)
        except ValueError:
            continue
        value: int | float = int(number) if number.is_integer() else number
        if (kind == "integer" and not isinstance(value, int)) or not _within(schema, value):
            continue
        choices.add(value)
    if not choices or len(choices) > _MAX_CHOICES:
        return schema
    return {**schema, "enum": sorted(choices)}


def _within(schema: Mapping[str, Any], value: float) -> bool:
    """Whether ``value`` keeps the schema's bounds (those it sets)."""

    def bound(key: str) -> float | None:
        found = schema.get(key)
        return found if isinstance(found, int | float) else None

    low, high = bound("minimum"), bound("maximum")
    above, below = bound("exclusiveMinimum"), bound("exclusiveMaximum")
    return (
        (low is None or value >= low)
        and (high is None or value <= high)
        and (above is None or value > above)
        and (below is None or value < below)
    )


def signature(value: str) -> str:
    """An id's letters as written and its digits as runs: ``P-101`` is ``P-9``, not ``D-9``."""
    return re.sub(r"\d+", "9", value.strip().upper())


def shaped_tokens(schema: Any, texts: Iterable[str]) -> Any:
    """A text parameter's schema narrowed to the tokens of ``texts`` with its example's shape.

    A reference's value is in the result it names. Asked to write the
    ``sku`` (e.g. ``SKU-100``) of a product it had looked up, the 1.5B model
    wrote ``sku="context"``, a word of the product's description, while the
    result began with ``SKU-300``. When the parameter's example has digits
    (an id's shape: ``SKU-9``, ``P-9``), the choice is the tokens of
    ``texts`` (the results and the request) with that shape, and ``None``
    when they hold none: the id is not there to read ("No patient matches
    'Haddad'" holds no doctor id, and the model had copied the sentence into
    ``doctor_id``). A date (``format: date``) is read the same way: a day
    read from an empty search (``[]``) had been written as ``2023-04-01``.
    The schema as it is when the example has no digits or the texts hold
    too many such tokens to say which. A parameter whose description speaks
    of an e-mail address takes one of the addresses (and, when it speaks of
    a phone, the phone numbers) the texts hold: asked to "Send patient
    P-103 an e-mail", the model wrote the patient's id as ``to`` from a
    record that gave her address (twenty-third pass).
    """
    if not isinstance(schema, Mapping) or "enum" in schema or schema.get("type") != "string":
        return schema
    contacts = _contacts(schema, texts)
    if schema.get("format") == "date":
        choices = {d for text in texts for d in _DATE.findall(text)}
    elif contacts is not None:
        choices = contacts
    else:
        example = id_example(schema)
        if example is None:
            return schema
        wanted = signature(example)
        choices = {t for text in texts for t in _WORD.findall(text) if signature(t) == wanted}
    if not choices:
        return None
    return schema if len(choices) > _MAX_CHOICES else {**schema, "enum": sorted(choices)}


def _contacts(schema: Mapping[str, Any], texts: Iterable[str]) -> set[str] | None:
    """The addresses in ``texts`` for a parameter that takes one (``format: email``); else None.

    Read from the schema's structure (its format, or an example that is an
    address), not from the words of its description.
    """
    example = parameter_example(schema) or ""
    if schema.get("format") not in ("email", "idn-email") and not ADDRESS.fullmatch(example):
        return None
    return {a.strip(_AROUND) for text in texts for a in ADDRESS.findall(text)}


def misread_day(schema: Any, result: Result) -> bool:
    """Whether a day (``format: date``) was given a plain result that is no date.

    "Put a 30-minute 'Prep' at the first free time on the day of the team
    sync" planned ``add_event(title="Prep", day=r2, start=r2)`` after the
    free-slot finder (r2, "09:30"), whose result holds no day: the model
    named the wrong line, and the day is one the turn's other results give
    (the search's ``2026-03-16``). An empty search or a record is no such
    slip: a day it does not hold is not there to read.
    """
    if not isinstance(schema, Mapping) or schema.get("format") != "date" or result.is_error:
        return False
    value = scalar(result.data)
    return value is not None and not _DATE.fullmatch(str(value))


def keyed_values(schema: Any, name: str, data: str) -> Any:
    """A text parameter's schema narrowed to the values a JSON result gives under its name.

    A search answered ``[{"id": "E-2", "title": "Dentist", "start": "15:00"}]``;
    asked then for ``add_event(…, start=`` and ``cancel_event(event_id=``,
    the 1.5B model wrote ``"time from r1"`` for both (thirteenth pass). The
    values under a key that is the parameter's name, or the last word of it
    (``id`` for ``event_id``), are what it reads, where they fit the
    parameter (a date's ``start`` is not an event's start time). The schema
    as it is when the result is not JSON or has no such key.
    """
    if not isinstance(schema, Mapping) or "enum" in schema or schema.get("type") != "string":
        return schema
    try:
        parsed = json.loads(data)
    except ValueError:
        return schema
    records = parsed if isinstance(parsed, list) else [parsed]
    keys = (name, name.rsplit("_", 1)[-1])
    found: set[str] = set()
    for record in records:
        if not isinstance(record, Mapping):
            continue
        key = next((k for k in keys if k in record), None)
        value = record.get(key) if key is not None else None
        # A value of another kind under the name is not the one meant: a date's ``start``
        # took the event's start time, "11:00" (twenty-second pass).
        fits = isinstance(value, str | int) and not isinstance(value, bool)
        if fits and _admits(schema, str(value)):
            found.add(str(value))
    if not found or len(found) > _MAX_CHOICES:
        return schema
    return {**schema, "enum": sorted(found)}
