"""A number of the request in one unit where a parameter takes another: it is converted first.

Every unit word comes from the request and the tools' own schemas (a
parameter's name, ``weight_kg``; a converter's choices, ``from_unit``); none
is written here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from springtail.models._llamacpp._subjects import parameter_words, words
from springtail.models._llamacpp._values import enum_choices
from springtail.tools._definition import ToolDefinition

__all__ = ["converters"]


def converters(
    request: str, name: str, value: object, spec: Any, tools: Sequence[ToolDefinition]
) -> frozenset[str]:
    """The tools that convert a number of the request from its unit to the parameter's.

    "A parcel weighs 10 lb. Quote economy shipping to Canada for it." was
    planned as ``shipping_quote(weight_kg=10, …)``: the 10 is in pounds, and
    the parameter's name says kilograms. A number the request writes with a
    unit ("10 lb") that no word of the parameter speaks of, where the
    parameter speaks of another unit, goes first through a tool whose choices
    (an enum: ``from_unit``) hold both units. None when the units agree, the
    request writes no unit after the number, or no tool converts.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return frozenset()
    number = f"{value:g}"
    pattern = rf"(?<![\w.,]){re.escape(number)}(?:\.0+)?\s*([A-Za-z]+)\b"
    units = {m.group(1).lower() for m in re.finditer(pattern, request.replace(",", ""))}
    speaks = parameter_words(name, spec)
    found: set[str] = set()
    for d in tools:
        properties: Mapping[str, Any] = d.input_schema.get("properties") or {}
        choices = {c.lower() for s in properties.values() for c in enum_choices(s)}
        given = {u for u in units if u in choices and not words(u) & speaks}
        wanted = {c for c in choices if words(c) & speaks}
        if given and wanted:
            found.add(d.name)
    return frozenset(found)
