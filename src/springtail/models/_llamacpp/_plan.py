"""A request's calls as a short program: the plan the embedded model writes before it acts.

Asked for "the stock of SKU-300, and reserve all of it", a 1.5B coder model
that writes one JSON call at a time reads the first result and answers. Asked
to write the request's calls as Python, it writes the whole request::

    r1 = product_lookup(sku="SKU-300")
    r2 = product_reserve(sku="SKU-300", quantity=r1)

Each line is one call; a later call passes an earlier variable where it
needs that result. Lines that need no earlier result run at once, together,
as one reply's tool calls; a line that needs one is written out after that
result is in (the model fills in the value, ``quantity=4``, having read it).

The plan lives in the conversation, never in the provider: the assistant
message that opens it carries its lines in ``metadata["plan"]``, and each
assistant message of the plan names, in ``metadata["lines"]``, the variables
its tool calls stand for. Chat memory, a database or another process hand
the messages back, and ``PlanState.of`` reads from them what has run and
what comes next.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from springtail.messages import AssistantMessage, Message, ToolResponseMessage, UserMessage

__all__ = [
    "LINES_KEY",
    "PLAN_KEY",
    "Plan",
    "PlanLine",
    "PlanState",
    "Ref",
    "Reference",
    "Template",
    "call_line",
    "call_text",
    "python_value",
    "read_value",
    "variables",
]

PLAN_KEY = "plan"
"""``AssistantMessage.metadata`` key: the plan's source lines (on the message that opens it)."""
LINES_KEY = "lines"
"""``AssistantMessage.metadata`` key: the variables of the message's tool calls, in order."""


@dataclass(frozen=True, slots=True)
class Ref:
    """An argument that is an earlier line's result: ``quantity=r1``."""

    variable: str


@dataclass(frozen=True, slots=True)
class Template:
    """A text argument built from earlier results: ``f"Order {r1} is placed"``, ``"To " + r2``.

    A text often needs a result inside it (a message that states an order
    number); without a way to say so the model wrote the text's start and
    left the value out (``text="Order number: "``). ``source`` is the
    expression as written; ``variables`` the results it needs.
    """

    source: str
    variables: frozenset[str]

    def render(self, values: Mapping[str, str]) -> str:
        """The text, each variable replaced by its value's text in ``values``."""
        reader = _Reader(self.source)
        parts: list[str] = []
        while True:
            reader._space()
            if reader.text.startswith('f"', reader.pos):
                reader.pos += 1
                parts.append(_FIELD.sub(lambda m: values[m.group(1)], reader._string()))
            else:
                operand = reader.value(top=True)
                parts.append(values[operand.variable] if isinstance(operand, Ref) else operand)
            if not reader._take("+"):
                return "".join(str(p) for p in parts)


Reference = Ref | Template
"""An argument whose value needs earlier results."""


@dataclass(frozen=True, slots=True)
class PlanLine:
    """One call of a plan: ``variable = tool(name=value, ...)``."""

    variable: str
    tool: str
    arguments: tuple[tuple[str, Any], ...]
    """``(name, value)`` in the order written; a value is JSON data, a ``Ref`` or a
    ``Template``."""
    comment: str = ""
    """A comment above the line in a stored plan (``# Step 2: Get its weekday``), if any.

    The planner writes none since issue 54; plans that releases before it
    stored still carry them, and read back they render as they were written,
    so a resumed conversation keeps its cached prefix."""

    @property
    def refs(self) -> frozenset[str]:
        """The variables this line needs."""
        found: set[str] = set()
        for _, value in self.arguments:
            if isinstance(value, Ref):
                found.add(value.variable)
            elif isinstance(value, Template):
                found |= value.variables
        return frozenset(found)

    def source(self) -> str:
        """The line as Python, as the model wrote it."""
        return call_line(self.variable, self.tool, self.arguments)

    def bound(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The call's JSON arguments, each reference replaced by its value in ``values``."""
        return {
            name: values[value.variable]
            if isinstance(value, Ref)
            else value.source
            if isinstance(value, Template)
            else value
            for name, value in self.arguments
        }

    @classmethod
    def parse(cls, source: str) -> PlanLine | None:
        """The line ``source`` (``r2 = tool(a=1, b=r1)``), or ``None`` when it is not one.

        Read by hand rather than with ``ast``: a JSON schema's property may be
        called ``from`` or ``first-name``, which the plan grammar writes and
        Python would refuse. Values are JSON with Python's ``True``,
        ``False`` and ``None``, or a variable.
        """
        try:
            reader = _Reader(source.strip())
            line = reader.line()
        except ValueError:
            return None
        return line if reader.at_end() else None


_JSON = json.JSONDecoder()


class _Reader:
    """A reader of exactly what the plan grammar writes (and the Python it resembles)."""

    _NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
    _NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
    _CONSTANTS: Mapping[str, Any] = {"True": True, "False": False, "None": None}

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def at_end(self) -> bool:
        self._space()
        return self.pos == len(self.text)

    def line(self) -> PlanLine:
        variable = self._name()
        self._expect("=")
        tool = self._name()
        self._expect("(")
        arguments: list[tuple[str, Any]] = []
        if not self._take(")"):
            while True:
                name = self._name()
                self._expect("=")
                arguments.append((name, self.argument()))
                if self._take(")"):
                    break
                self._expect(",")
        if len({name for name, _ in arguments}) < len(arguments):
            raise ValueError("an argument is given twice")
        return PlanLine(variable, tool, tuple(arguments))

    def argument(self) -> Any:
        """A whole argument: a literal, a variable, or a text built from variables."""
        self._space()
        start = self.pos
        operands = [self._operand()]
        while self._take("+"):
            operands.append(self._operand())
        if len(operands) == 1 and not isinstance(operands[0], _FString):
            return operands[0]
        variables: set[str] = set()
        for operand in operands:
            if isinstance(operand, Ref):
                variables.add(operand.variable)
            elif isinstance(operand, _FString):
                variables |= operand.variables
            elif not isinstance(operand, str):
                raise ValueError("only texts and variables are joined with +")
        if not variables:
            raise ValueError("a text built from no variable is a plain string")
        return Template(self.text[start : self.pos].strip(), frozenset(variables))

    def _operand(self) -> Any:
        self._space()
        if self.text.startswith('f"', self.pos):
            self.pos += 1
            text = self._string()
            if _BRACES.search(_FIELD.sub("", text)):
                raise ValueError("an f-string's fields are variables only")
            return _FString(frozenset(_FIELD.findall(text)))
        return self.value(top=True)

    def value(self, *, top: bool = False) -> Any:
        """A literal, or at the top of an argument a variable (the grammar writes no others)."""
        self._space()
        text, pos = self.text, self.pos
        if pos >= len(text):
            raise ValueError("a value is missing")
        char = text[pos]
        if char == '"':
            return self._string()
        if char == "[":
            self.pos += 1
            items: list[Any] = []
            if self._take("]"):
                return items
            while True:
                items.append(self.value())
                if self._take("]"):
                    return items
                self._expect(",")
        if char == "{":
            self.pos += 1
            pairs: dict[str, Any] = {}
            if self._take("}"):
                return pairs
            while True:
                self._space()
                if not self.text.startswith('"', self.pos):
                    raise ValueError("a key must be a string")
                key = self._string()
                self._expect(":")
                pairs[key] = self.value()
                if self._take("}"):
                    return pairs
                self._expect(",")
        number = self._NUMBER.match(text, pos)
        if number:
            self.pos = number.end()
            digits = number.group()
            return float(digits) if any(c in digits for c in ".eE") else int(digits)
        name = self._name()
        if name in self._CONSTANTS:
            return self._CONSTANTS[name]
        if not top:
            raise ValueError("a variable may only be a whole argument")
        return Ref(name)

    def _string(self) -> str:
        value, self.pos = _JSON.raw_decode(self.text, self.pos)
        if not isinstance(value, str):
            raise ValueError("a string is expected")
        return value

    def _name(self) -> str:
        self._space()
        match = self._NAME.match(self.text, self.pos)
        if not match:
            raise ValueError(f"a name is expected at {self.pos}")
        self.pos = match.end()
        return match.group()

    def _space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def _take(self, token: str) -> bool:
        self._space()
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def _expect(self, token: str) -> None:
        if not self._take(token):
            raise ValueError(f"{token!r} is expected at {self.pos}")


_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_BRACES = re.compile(r"[{}]")


@dataclass(frozen=True, slots=True)
class _FString:
    """An f-string read inside a template (its text is kept in the template's source)."""

    variables: frozenset[str]


def read_value(source: str) -> Any:
    """The literal ``source`` (a value as a plan line writes it) as JSON data.

    Raises:
        ValueError: ``source`` is not one whole literal.
    """
    reader = _Reader(source.strip())
    value = reader.value()
    if not reader.at_end():
        raise ValueError(f"more than one value in {source!r}")
    return value


def python_value(value: Any) -> str:
    """JSON data as a Python literal, the way the plan grammar writes it."""
    if isinstance(value, Ref):
        return value.variable
    if isinstance(value, Template):
        return value.source
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(python_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (
            f"{json.dumps(str(k), ensure_ascii=False)}: {python_value(v)}" for k, v in value.items()
        )
        return "{" + ", ".join(items) + "}"
    return json.dumps(str(value), ensure_ascii=False)


def call_line(variable: str, tool: str, arguments: Sequence[tuple[str, Any]]) -> str:
    """``variable = tool(name=value, ...)`` in Python."""
    return f"{variable} = {call_text(tool, arguments)}"


def call_text(tool: str, arguments: Sequence[tuple[str, Any]]) -> str:
    """``tool(name=value, ...)`` in Python: a call without the variable it fills."""
    written = ", ".join(f"{name}={python_value(value)}" for name, value in arguments)
    return f"{tool}({written})"


@dataclass(frozen=True, slots=True)
class Plan:
    """A request's calls, in the order the model wrote them."""

    lines: tuple[PlanLine, ...]

    def source(self) -> list[str]:
        """The lines as Python source, each step comment above its line, for the metadata."""
        return [text for line in self.lines for text in (line.comment, line.source()) if text]

    @classmethod
    def of(cls, sources: object) -> Plan | None:
        """The plan stored as ``sources`` (a list of lines), or ``None`` when it is not one."""
        if not isinstance(sources, list) or not sources:
            return None
        lines: list[PlanLine] = []
        comment = ""
        for source in sources:
            if not isinstance(source, str):
                return None
            if source.startswith("#"):
                comment = source
                continue
            line = PlanLine.parse(source)
            if line is None:
                return None
            lines.append(replace(line, comment=comment) if comment else line)
            comment = ""
        return cls(tuple(lines)) if lines else None


@dataclass(frozen=True, slots=True)
class Result:
    """What one line's call returned."""

    tool: str
    data: str
    is_error: bool


@dataclass(frozen=True, slots=True)
class PlanState:
    """Where a turn's plan stands, read from the conversation alone."""

    plan: Plan | None = None
    results: Mapping[str, Result] = field(default_factory=dict)
    """Each variable of this turn whose call has answered, with its result."""
    variables: Mapping[str, str] = field(default_factory=dict)
    """Tool call id → the variable it stands for, for every call of this turn."""
    plans: int = 0
    """How many plans this turn's replies wrote (a plan's later lines are not new plans)."""
    earlier: Mapping[str, Result] = field(default_factory=dict)
    """Each variable of an earlier turn with its result: values a new plan may pass on."""

    @property
    def readable(self) -> Mapping[str, Result]:
        """Every result of the conversation a line may take, earlier turns' first."""
        return {**self.earlier, **self.results}

    @property
    def pending(self) -> tuple[PlanLine, ...]:
        """The plan's lines whose call has not been made yet."""
        if self.plan is None:
            return ()
        made = set(self.variables.values())
        return tuple(line for line in self.plan.lines if line.variable not in made)

    def ready(self) -> tuple[PlanLine, ...]:
        """The pending lines whose every reference has a result that is not an error."""
        readable = self.readable
        return tuple(
            line
            for line in self.pending
            if all(r in readable and not readable[r].is_error for r in line.refs)
        )

    def next_variable(self) -> str:
        """The name of the next new variable of the conversation (``r1`` when nothing ran)."""
        taken = (
            set(self.variables.values())
            | set(self.earlier)
            | {line.variable for line in (self.plan.lines if self.plan else ())}
        )
        n = 1
        while f"r{n}" in taken:
            n += 1
        return f"r{n}"

    @classmethod
    def of(cls, messages: Sequence[Message]) -> PlanState:
        """The state of the last turn (the messages after the last user message)."""
        start = 0
        for index in range(len(messages) - 1, -1, -1):
            if isinstance(messages[index], UserMessage):
                start = index + 1
                break
        names = variables(messages)
        earlier: dict[str, Result] = {}
        for message in messages[:start]:
            if isinstance(message, ToolResponseMessage):
                for response in message.responses:
                    if response.id in names:
                        earlier[names[response.id]] = Result(
                            response.name, response.response_data, response.is_error
                        )
        plan: Plan | None = None
        turn_variables: dict[str, str] = {}
        results: dict[str, Result] = {}
        plans = 0
        for message in messages[start:]:
            if isinstance(message, AssistantMessage):
                opened = Plan.of(message.metadata.get(PLAN_KEY))
                if opened is not None:
                    plan = opened
                    plans += 1
                for call in message.tool_calls:
                    turn_variables[call.id] = names[call.id]
            elif isinstance(message, ToolResponseMessage):
                for response in message.responses:
                    variable = turn_variables.get(response.id)
                    if variable is not None:
                        results[variable] = Result(
                            response.name, response.response_data, response.is_error
                        )
        return cls(plan, results, turn_variables, plans, earlier)


def _line_names(message: AssistantMessage, taken: set[str]) -> list[str]:
    """The variables of a message's calls: as stored, else the next free names in order."""
    stored = message.metadata.get(LINES_KEY)
    calls = message.tool_calls
    if (
        isinstance(stored, list)
        and len(stored) == len(calls)
        and all(isinstance(s, str) and s.isidentifier() for s in stored)
    ):
        return list(stored)
    names: list[str] = []
    n = 1
    while len(names) < len(calls):
        if f"r{n}" not in taken:
            names.append(f"r{n}")
        n += 1
    return names


def variables(messages: Sequence[Message]) -> dict[str, str]:
    """Tool call id → its variable, for every call of the conversation.

    Variables are numbered across the whole conversation, as a notebook's
    cells share one namespace: a later turn's plan may pass an earlier
    turn's result on ("What's that in euros?" after a quote) by its variable.
    Calls written by another provider, or stored before plans existed, are
    numbered after the calls before them.
    """
    names: dict[str, str] = {}
    taken: set[str] = set()
    for message in messages:
        if isinstance(message, AssistantMessage) and message.tool_calls:
            for call, name in zip(message.tool_calls, _line_names(message, taken), strict=True):
                names[call.id] = name
                taken.add(name)
    return names
