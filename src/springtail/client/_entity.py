"""Structured output: ask for JSON that fits a type, then parse and validate the answer.

The model is told the JSON Schema of the wanted type in the request; its
answer is parsed leniently (small models like to wrap JSON in a ```json
fence or a sentence) and validated strictly with pydantic, so the caller
gets a real instance or an error that says what did not fit.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

__all__ = ["format_instructions", "parse_entity"]

T = TypeVar("T")

_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\r?\n?(.*?)```", re.DOTALL)


@lru_cache(maxsize=256)
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def _adapter_for(target: Any) -> TypeAdapter[Any]:
    try:
        return _adapter(target)
    except TypeError:  # unhashable type expression: build it each time
        return TypeAdapter(target)


def format_instructions(target: Any) -> str:
    """What the model is told so that its answer parses as ``target``."""
    schema = json.dumps(_adapter_for(target).json_schema(), separators=(",", ":"))
    return (
        "Your response must be JSON only: a single RFC 8259 compliant JSON value that "
        "follows this JSON Schema, with no explanations and no markdown code fences.\n"
        f"JSON Schema: {schema}"
    )


def _candidates(text: str) -> list[str]:
    stripped = text.strip()
    found = [stripped]
    for match in _FENCE.finditer(text):
        found.append(match.group(1).strip())
    starts = [i for i in (stripped.find("{"), stripped.find("[")) if i >= 0]
    if starts:
        start = min(starts)
        end = max(stripped.rfind("}"), stripped.rfind("]"))
        if end > start:
            found.append(stripped[start : end + 1])
    return found


def parse_entity(text: str, target: type[T] | Any) -> T:
    """Parse the model's answer as ``target``.

    Tries, in order: the whole answer, the contents of each ```json fence,
    and the span from the first ``{``/``[`` to the last ``}``/``]``.

    Raises:
        ValueError: no candidate is valid JSON of the right shape; the
            message carries pydantic's account of what is wrong and the
            start of the answer.
    """
    adapter = _adapter_for(target)
    first_error: ValidationError | None = None
    for candidate in _candidates(text):
        if not candidate:
            continue
        try:
            value: T = adapter.validate_json(candidate)
        except ValidationError as error:
            if first_error is None or _is_json_error(first_error):
                first_error = error
            continue
        return value
    name = getattr(target, "__name__", repr(target))
    excerpt = text if len(text) <= 300 else text[:300] + "…"
    detail = str(first_error) if first_error is not None else "the answer is empty"
    raise ValueError(
        f"The model's answer is not a valid {name}: {detail}\nAnswer: {excerpt!r}\n"
        "Try a model that follows JSON instructions better, or simplify the type."
    ) from first_error


def _is_json_error(error: ValidationError) -> bool:
    return any(e.get("type") == "json_invalid" for e in error.errors())
