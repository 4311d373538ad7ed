"""Structured output: ask for JSON that fits a type, then parse and validate the answer.

The model is told the JSON Schema of the wanted type in the request; its
answer is parsed leniently (small models like to wrap JSON in a ```json
fence or a sentence) and validated strictly with pydantic, so the caller
gets a real instance or an error that says what did not fit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

__all__ = ["format_instructions", "json_schema", "parse_entity", "reask_entity"]

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


def json_schema(target: Any) -> dict[str, Any]:
    """The JSON Schema of ``target``, as pydantic writes it."""
    return _adapter_for(target).json_schema()


def format_instructions(target: Any) -> str:
    """What the model is told so that its answer parses as ``target``."""
    schema = json.dumps(json_schema(target), separators=(",", ":"))
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


Reask = Callable[[str, str, Mapping[str, Any]], Awaitable[str]]
"""``(previous answer, feedback, schema) -> new answer``: asks the model once more."""


async def reask_entity(ask: Reask, text: str, target: Any, max_retries: int) -> Any:
    """Parse ``text`` as ``target``; on failure ask again with the error, ``max_retries`` times.

    Spring AI's structured-output validation works the same way: the model
    reads what did not fit and gets another try.

    Raises:
        ValueError: ``max_retries`` is negative, or no answer validates.
    """
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
        raise ValueError(f"max_retries must be an int of at least 0, got {max_retries!r}")
    try:
        return parse_entity(text, target)
    except ValueError as error:
        last = error
    schema = json_schema(target)
    for _ in range(max_retries):
        detail = str(last.__cause__) if last.__cause__ is not None else str(last)
        feedback = (
            f"Your answer is not valid: {detail}\nAnswer again with JSON only: a single "
            "JSON value that follows this JSON Schema, with no explanations and no "
            f"markdown code fences.\nJSON Schema: {json.dumps(schema, separators=(',', ':'))}"
        )
        text = await ask(text, feedback, schema)
        try:
            return parse_entity(text, target)
        except ValueError as error:
            last = error
    raise last
