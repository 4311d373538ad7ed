"""The GBNF grammars of a plan: lines that call offered tools with valid arguments.

A plan line (``_plan.py``) is ``rK = tool(name=value, ...)``. The generator
writes ``rK = `` itself; the grammar makes the rest a call to one of the
offered tools, with its parameters in schema order (required ones always,
optional ones when the model writes them), each value valid for the
parameter's schema (the JSON-schema converter's rules, with Python's
``True``, ``False`` and ``None``) or one of the earlier lines' variables.
A catch-all branch lets the model call a name that is not offered (forbidding
it derailed the JSON calls); the policy decides what such a line means.

Arithmetic (``r2 = r1 * 24``) and calls that are not assignments are not
lines; a variable stands for a whole argument, or a free-text argument is a
text built from variables (an f-string, or texts and variables joined with
``+``: ``_plan.Template``).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import logging
import string
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from springtail.models._llamacpp._grammar import CHAR_RULE, COMMON_RULES, sanitized_schema
from springtail.models._wire import plain_json
from springtail.tools._definition import ToolDefinition

__all__ = ["held_texts", "line_grammar", "takes_free_text", "value_grammar"]

logger = logging.getLogger(__name__)

# Python's spellings of JSON's constants, for the converter's rules of those names.
_PYTHON_CONSTANTS = {"boolean": '("True" | "False") space', "null": '"None" space'}

_PY_VALUE = r"""
py-value ::= ( py-object | py-array | json-string | json-number | "True" | "False" | "None" ) sp
py-object ::= "{" sp ( py-pair ( "," sp py-pair )* )? "}"
py-pair ::= json-string sp ":" sp py-value
py-array ::= "[" sp ( py-value ( "," sp py-value )* )? "]"
json-number ::= "-"? [0-9]+ ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?
py-name ::= [A-Za-z_] [A-Za-z0-9_]*
"""


def line_grammar(
    definitions: Sequence[ToolDefinition],
    variables: Sequence[str],
    *,
    catch_all: bool = True,
    not_offered: Sequence[str] = (),
) -> str:
    """The grammar of the rest of one plan line, after ``rK =``, up to its newline.

    The line's space after ``=`` is the grammar's, so the model writes it in
    its own token (`` today``) rather than after a space it was given.

    Args:
        definitions: The tools the line may call.
        variables: The earlier lines' variables, which an argument may be.
        catch_all: Allow a call to a name that is none of ``definitions``.
        not_offered: Names the catch-all may not write either (tools left out
            of ``definitions`` on purpose).
    """
    key = tuple((d.name, json.dumps(plain_json(d.input_schema))) for d in definitions)
    return _line_cached(key, tuple(variables), catch_all, tuple(sorted(not_offered)))


def held_texts(
    definition: ToolDefinition, texts: Sequence[str], names: Collection[str] | None = None
) -> ToolDefinition:
    """The tool with its required free texts, or the required texts ``names``, held to ``texts``.

    A line retried as a search for what the request names (``Retry.texts``)
    is written under this schema: left free, the model searched for the
    quoted title the request gives the new event ("Prep"), not for the
    event it names ("the team sync"). A parameter named in ``names`` is held
    even where its schema has a pattern (an id's, such as ``E-1``).
    """
    schema = dict(definition.input_schema)
    properties = dict(schema.get("properties") or {})
    required = set(schema.get("required") or ())
    held = sorted(set(texts))
    for name, spec in properties.items():
        if name not in required or not isinstance(spec, Mapping):
            continue
        named = names is not None and name in names and spec.get("type") == "string"
        if named or (names is None and takes_free_text(spec)):
            properties[name] = {**spec, "enum": held}
    schema["properties"] = properties
    return dataclasses.replace(definition, input_schema=schema)


def value_grammar(schema: Mapping[str, Any], ends: str = ",)") -> str:
    """The grammar of one argument's value (no variable), then one of the characters ``ends``.

    For a line written once its references have results: the model writes
    the value it read, and the character after it says where the call goes
    on. A string may not hold ``{``: asked to write ``text=`` for a plan
    line's ``text=r2``, the model wrote the template ``"{r2} yen"`` instead
    of the value it had read (``"5307.25 yen"``), and a value is never a
    template of a variable.
    """
    return _value_cached(json.dumps(plain_json(dict(schema))), ends)


def _converter() -> Any:
    from llama_cpp import llama_grammar

    converter_type: Any = llama_grammar.SchemaConverter  # untyped upstream
    return converter_type(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)


def _rules(converter: Any, char: str = CHAR_RULE) -> str:
    rules = dict(converter._rules)
    rules["char"] = char  # llama.cpp's converter lets raw newlines into strings; JSON does not
    rules.update({k: v for k, v in _PYTHON_CONSTANTS.items() if k in rules})
    return "\n".join(f"{name} ::= {rule}" for name, rule in sorted(rules.items()))


def _value_rule(converter: Any, schema: Any, name: str, tool: str) -> str:
    """The converter's rule for one parameter's schema, or any Python literal if it has none."""
    try:
        return str(converter.visit(schema, name))
    except Exception as exc:  # the converter asserts on schemas it cannot express
        logger.warning(
            "Tool %r: a parameter's schema cannot be expressed as a grammar (%s); "
            "the model may write any literal for it.",
            tool,
            exc,
        )
        return "py-value"


@functools.lru_cache(maxsize=64)
def _line_cached(
    tools: tuple[tuple[str, str], ...],
    variables: tuple[str, ...],
    catch_all: bool,
    not_offered: tuple[str, ...],
) -> str:
    converter = _converter()
    lines: list[str] = []
    branches: list[str] = []
    var = " | var" if variables else ""
    for index, (name, schema_json) in enumerate(tools):
        prefix = f"t{index}"
        schema = sanitized_schema(json.loads(schema_json))
        try:
            schema = converter.resolve_refs(copy.deepcopy(schema), f"tool{index}")
        except Exception as exc:  # a $ref the converter cannot follow
            logger.warning("Tool %r: its schema's references cannot be resolved (%s).", name, exc)
        properties: Mapping[str, Any] = schema.get("properties") or {}
        required = set(schema.get("required") or ())
        params = list(properties.items())
        for j, (param, spec) in enumerate(params):
            rule = _value_rule(converter, spec, f"{prefix}-v{j}", name)
            text = " | tmpl" if variables and takes_free_text(spec) else ""
            lines.append(f"{prefix}-a{j} ::= {_literal(param + '=')} ( {rule}{var}{text} )")
        lines.extend(_argument_rules(prefix, [p in required for p, _ in params]))
        arguments = f" {prefix}-b0" if params else ""
        lines.append(f'{prefix} ::= {_literal(name + "(")}{arguments} ")"')
        branches.append(prefix)
    if catch_all or not branches:
        branches.append("unknown-call")
        names = [name for name, _ in tools] + list(not_offered)
        lines.append(f'unknown-call ::= {_not_any_of(names)} ( py-arg ( "," sp py-arg )* )? ")"')
        lines.append(f'py-arg ::= ( py-name sp "=" sp )? ( py-value{var} )')
    if variables:
        lines.append("var ::= " + " | ".join(_literal(v) for v in variables))
        lines.append(_TEMPLATE)
    comment = [f"# not offered here: {', '.join(not_offered)}"] if not_offered else []
    return "\n".join(
        [
            'root ::= " " ( ' + " | ".join(branches) + ' ) "\\n"',
            *comment,
            *lines,
            COMMON_RULES,
            _PY_VALUE,
            _rules(converter),
        ]
    )


_TEMPLATE = r"""tmpl ::= fstr | t-operand ( sp "+" sp t-operand )+
t-operand ::= json-string | var | fstr
fstr ::= "f\"" f-char* "{" var "}" ( f-char | "{" var "}" )* "\""
f-char ::= [^"\\{}\x00-\x1F\x7F] | "\\" (["\\/bfnrt])"""
"""A text built from earlier results (``_plan.Template``): an f-string whose fields are
variables, or texts and variables joined with ``+``."""


def number_branch(schema: Any) -> Any:
    """A parameter that takes a number or its text, as its number branch; others as they are.

    Pydantic writes a ``Decimal`` as ``anyOf: [{"type": "number"}, {"type":
    "string"}]``: the text is another spelling of the number, not free text.
    Taken as text, the calculator's ``left`` was given its whole earlier
    result, "45 * 8 = 360", and a value read from a result goes in as the
    number (twenty-second pass). A ``null`` branch (an optional number) is
    no spelling either.
    """
    if not isinstance(schema, Mapping):
        return schema
    options = schema.get("anyOf") or schema.get("oneOf")
    if not isinstance(options, list):
        return schema
    numbers = [o for o in options if isinstance(o, Mapping) and o.get("type") in _NUMBERS]
    spellings = [
        o
        for o in options
        if isinstance(o, Mapping)
        and (o.get("type") == "null" or (o.get("type") == "string" and not _CHOICE_KEYS & o.keys()))
    ]
    if not numbers or len(numbers) + len(spellings) != len(options):
        return schema
    rest = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
    return {**rest, **numbers[0]}


_NUMBERS = ("number", "integer")
_CHOICE_KEYS = frozenset({"enum", "const", "format"})


def takes_free_text(spec: Any) -> bool:
    """Whether a parameter takes free text (a string with no enum, pattern or format).

    A number that may be written as text (``number_branch``) is a number.
    """
    if not isinstance(spec, Mapping) or number_branch(spec) is not spec:
        return False
    options = spec.get("anyOf") or spec.get("oneOf")
    if isinstance(options, list):
        return any(takes_free_text(o) for o in options)
    return spec.get("type") == "string" and not ({"enum", "const", "pattern", "format"} & set(spec))


def _argument_rules(prefix: str, required: Sequence[bool]) -> list[str]:
    """The rules of an argument list in schema order, optional arguments left out or not.

    ``{prefix}-bJ`` is the list from parameter J on when nothing is written
    yet, ``{prefix}-cJ`` the same after an argument (so a comma comes first).
    """
    n = len(required)
    rules: list[str] = []
    for j in range(n):
        after = f" {prefix}-c{j + 1}" if j + 1 < n else ""
        arg = f"{prefix}-a{j}"
        if required[j]:
            rules.append(f"{prefix}-b{j} ::= {arg}{after}")
            rules.append(f'{prefix}-c{j} ::= ", " {arg}{after}')
        else:
            rest = f" | {prefix}-b{j + 1}" if j + 1 < n else ' | ""'
            rules.append(f"{prefix}-b{j} ::= {arg}{after}{rest}")
            rules.append(f'{prefix}-c{j} ::= ( ", " {arg} )?{after}')
    return rules


@functools.lru_cache(maxsize=64)
def _value_cached(schema_json: str, ends: str) -> str:
    converter = _converter()
    schema = sanitized_schema(json.loads(schema_json))
    try:
        schema = converter.resolve_refs(schema, "value")
    except Exception as exc:
        logger.warning("A parameter's schema references cannot be resolved (%s).", exc)
    rule = _value_rule(converter, schema, "value", "?")
    end = " | ".join(_literal(c) for c in ends)
    rules = _rules(converter, _VALUE_CHAR_RULE)
    return "\n".join([f"root ::= {rule} ( {end} )", COMMON_RULES, _PY_VALUE, rules])


_VALUE_CHAR_RULE = CHAR_RULE.replace(r"\x7F]", r"\x7F{]", 1)
"""A written-out string's character: as JSON's, and no ``{`` (``value_grammar``)."""


def _literal(text: str) -> str:
    return json.dumps(text)


_FIRST_CHARS = string.ascii_letters + "_"
# No "." in a name the catch-all writes: given it, the model wrote a nested call,
# ``days_between.today()``, where a line of its own (``r1 = today()``) was meant.
_NAME_CHARS = string.ascii_letters + string.digits + "_-"


def _not_any_of(names: Sequence[str]) -> str:
    """A rule for a function name and its ``(`` where the name is none of ``names``.

    GBNF has no negation, so this walks a trie of the names: at each step the
    name may diverge to another name character (and then go on freely), or
    end, unless ending there would spell one of ``names``.
    """
    trie: dict[str, Any] = {}
    for name in names:
        node = trie
        for ch in name:
            node = node.setdefault(ch, {})
        node[""] = {}
    return "( " + _trie_rule(trie, first=True) + " )"


def _trie_rule(node: dict[str, Any], *, first: bool) -> str:
    children = sorted(ch for ch in node if ch)
    allowed = [c for c in (_FIRST_CHARS if first else _NAME_CHARS) if c not in children]
    alternatives: list[str] = []
    if allowed:
        alternatives.append(f'[{_char_class(allowed)}] [{_char_class(_NAME_CHARS)}]* "("')
    for ch in children:
        alternatives.append(f"{_literal(ch)} ( {_trie_rule(node[ch], first=False)} )")
    if "" not in node and not first:
        alternatives.append('"("')
    return " | ".join(alternatives)


def _char_class(chars: Sequence[str]) -> str:
    return "".join("\\" + c if c in "]^-\\" else c for c in chars)
