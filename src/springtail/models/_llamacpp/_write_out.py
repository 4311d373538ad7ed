"""Writing out a plan's lines whose results are in: the model writes only the missing values.

A line's fixed text is given (``r3 = cancel_appointment(appointment_id=``)
and the model writes each argument that was a variable, having read the
result it names, under that parameter's grammar: a value the result holds
in one plain piece is bound without the model (``_binding.bind``), an id
is chosen among the result's tokens of its shape (``shaped_tokens``), and a
line whose value is not there to read is not called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from springtail.models._llamacpp._binding import (
    UNBOUND,
    bind,
    keyed_values,
    misread_day,
    shaped_tokens,
    stated_numbers,
)
from springtail.models._llamacpp._decoder import Decoder
from springtail.models._llamacpp._drafts import PromptLookup
from springtail.models._llamacpp._parse import ParsedCall
from springtail.models._llamacpp._plan import (
    PlanLine,
    Ref,
    Result,
    Template,
    python_value,
    read_value,
)
from springtail.models._llamacpp._plan_grammar import value_grammar
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["write_out"]


def write_out(
    gen: Decoder, view: TurnView, lines: Sequence[PlanLine], tools: Sequence[ToolDefinition]
) -> list[tuple[PlanLine, ParsedCall]]:
    """The calls of ``lines``, each reference's value written by the model from its result.

    A line whose value is not there to read is left out.
    """
    schemas = {d.name: d.input_schema for d in tools}
    tokens = gen.tokens + gen.open_tag + gen.newline
    calls: list[tuple[PlanLine, ParsedCall]] = []
    for line in lines:
        if line.comment:
            tokens = tokens + gen.tokenize(line.comment + "\n")
        if not line.refs:
            calls.append((line, ParsedCall(line.tool, line.bound({}))))
            tokens = tokens + gen.tokenize(line.source() + "\n")
            continue
        schema = schemas.get(line.tool)
        written = None if schema is None else _written(gen, view, tokens, line, schema, tools)
        if written is None:
            continue
        text, arguments = written
        tokens = tokens + gen.tokenize(text)
        calls.append((line, ParsedCall(line.tool, arguments)))
    return calls


def _written(
    gen: Decoder,
    view: TurnView,
    tokens: list[int],
    line: PlanLine,
    schema: Any,
    tools: Sequence[ToolDefinition],
) -> tuple[str, dict[str, Any]] | None:
    """The line as written now (``rK = tool(...)`` and its newline) and its arguments."""
    properties = schema.get("properties") or {}
    text = f"{line.variable} = {line.tool}("
    arguments: dict[str, Any] = {}
    last = len(line.arguments) - 1
    results = view.plan.readable
    for index, (name, value) in enumerate(line.arguments):
        text += f"{', ' if index else ''}{name}="
        read_from: list[str] = []
        result: Result | None = None
        if isinstance(value, Ref | Template):
            if isinstance(value, Ref):
                result = results.get(value.variable)
                if result is not None and not result.is_error:
                    read_from = [result.data, view.request]
            value = bind(value, results, properties.get(name))
        if value is not UNBOUND:
            arguments[name] = value
            text += python_value(value)
            continue
        end = ")" if index == last else ","
        context = tokens + gen.tokenize(text)
        spec = stated_numbers(properties.get(name, {}), view.known.numbers)
        if read_from and gen.profile.keyed_values:
            spec = keyed_values(spec, name, read_from[0])  # the result, when it is JSON
        if read_from and "enum" not in spec:
            shaped = shaped_tokens(spec, read_from)
            if shaped is None and result is not None and misread_day(spec, result):
                # ``day=r2`` where r2 is the free slot's "09:30": the day is one another
                # result of the turn gives (twenty-first pass).
                shaped = shaped_tokens(spec, [*view.answered, view.request])
            if shaped is None:
                return None  # the id is not in the result: there is nothing to read
            spec = shaped
        attempt = gen.generate(
            value_grammar(spec, end),
            tokens=context,
            stream=False,
            drafter=PromptLookup(context, shortest=3),
            done=_value_done(end),
        )
        if attempt.finish_reason != "stop" or not attempt.text.endswith(end):
            return None
        source = attempt.text[: -len(end)]
        try:
            arguments[name] = read_value(source)
        except ValueError:
            return None
        text += source
    return text + ")\n", arguments


def _value_done(end: str) -> Callable[[str], bool]:
    """Whether a value's text is complete: one whole literal, then ``end``."""

    def done(text: str) -> bool:
        if not text.endswith(end):
            return False
        try:
            read_value(text[: -len(end)])
        except ValueError:
            return False
        return True

    return done
