"""The GBNF grammars that keep the embedded model's tool calls valid.

The model decides itself whether a reply is prose or a call: it opens a call
with its own ``<tool_call>`` token, which llama.cpp's grammar sampler cannot
emit (see ``_generation.Generator``). What a grammar does is make a call's body
right: it names a tool and carries arguments that match the tool's JSON
schema (enums, types, required fields, no extra fields, schema property
order). A call to a tool that does not exist is allowed by a catch-all branch
(forbidding it derails the model into garbage); the parser treats it as "no
tool". A grammar over the whole reply was measured and dropped: forcing a JSON
envelope for every reply made the model answer what it should have computed,
and with the tags inside the grammar the model had to spell them out of plain
pieces.

The argument rules come from llama-cpp-python's own JSON-schema converter, with
one fix: its string rule admits raw control characters (a literal newline
inside a JSON string), which makes the JSON invalid.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from springtail.models._wire import plain_json
from springtail.tools._definition import ToolDefinition

__all__ = [
    "CHAR_RULE",
    "COMMON_RULES",
    "FENCE_OPEN",
    "TAGGED_CLOSE",
    "TAGGED_OPEN",
    "answer_grammar",
    "build_grammar",
    "continuation_grammar",
    "sanitized_schema",
    "sentence_grammar",
    "text_only_grammar",
]

logger = logging.getLogger(__name__)

TAGGED_OPEN = "<tool_call>"
TAGGED_CLOSE = "</tool_call>"
FENCE_OPEN = "```json"

# JSON string characters: no quote, no backslash, no control character; escapes as JSON has them.
CHAR_RULE = r'[^"\\\x00-\x1F\x7F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})'
"""A JSON string's character: no quote, no backslash, no control character; escapes as JSON has."""

COMMON_RULES = rf"""
sp ::= [ ]?
nl ::= [\n]?
json-char ::= {CHAR_RULE}
json-string ::= "\"" json-char* "\""
any-char ::= [^\x00]
"""
"""Rules every grammar here shares."""

# After tool results the answer is prose: opening with a code fence or a tag,
# the model drifts into code or XML about the results instead of stating them.
# Nor may it open as a plan line or a result ("r5 = order_status(...)", "r = ...",
# "r-5 = ...", "r" and a new line, "r: book_appointment returned: ..."): a turn stopped
# from planning more wrote its next call, or echoed a result, as the answer. A word that
# starts with "r" goes on with a letter.
_TEXT_ONLY = (
    "root ::= prose-start any-char*\n"
    'prose-start ::= [^<{`r\\x00-\\x20] | "r" [a-z]\n' + COMMON_RULES
)


def continuation_grammar(keys: Sequence[str]) -> str:
    """More prose after an answer that ended, which must write one of ``keys`` before it ends.

    It opens with a space or a new line, then prose as above; the keys are
    values a result returned, so what the answer goes on to say is read, not
    made up (left free, it went on with "The order status for r1 is pending").
    No backtick, underscore or tag: made to state today's date, it quoted the
    call (```days_between(start=...)```, then ``<function-name>days-...``).
    """
    key = " | ".join(json.dumps(k) for k in keys)
    return (
        "root ::= [ \\n]+ prose-start lead* key lead*\n"
        "lead ::= [^\\x00`_<]\n"
        f"key ::= {key}\n" + _TEXT_ONLY.split("\n", 1)[1]
    )


_SENTENCE = 'root ::= sentence-start any-char*\nsentence-start ::= [A-Z0-9"(]\n' + COMMON_RULES


def sentence_grammar() -> str:
    """Prose that opens as a sentence does (a capital, a digit, a quote): no code at all.

    The last resort for an answer that opened as plan lines twice, with and
    without the tools in view (``rnew = add_event(...)``; thirteenth pass).
    Not the answers' grammar: barring every lower-case start cost a held-out
    request's answer in the tenth pass.
    """
    return _SENTENCE


def text_only_grammar() -> str:
    """A grammar that allows prose only, for when a tool call must not be the answer."""
    return _TEXT_ONLY


def build_grammar(definitions: Sequence[ToolDefinition], *, catch_all: bool = True) -> str:
    """The grammar for the body of one ``<tool_call>`` block: a valid call to one of these tools.

    The generator places the ``<tool_call>`` and ``</tool_call>`` tokens
    itself, so the body is the call's JSON object only, with the newlines the
    chat template puts around it.

    Args:
        definitions: The tools the call may name.
        catch_all: Allow a call to a name that is none of them (forbidding it
            derails the model into garbage; the caller decides what such a
            call means). Off when the model must call one of ``definitions``.

    Built once per tool set (the schemas are frozen with their definitions).
    """
    # Property order is kept: the grammar asks for the arguments in schema order.
    key = tuple((d.name, json.dumps(plain_json(d.input_schema))) for d in definitions)
    return _build_cached(key, catch_all)


@functools.lru_cache(maxsize=64)
def _build_cached(tools: tuple[tuple[str, str], ...], catch_all: bool) -> str:
    from llama_cpp import llama_grammar

    converter_type: Any = llama_grammar.SchemaConverter  # untyped upstream
    converter = converter_type(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    branches: list[str] = []
    lines: list[str] = []
    for index, (name, schema_json) in enumerate(tools):
        args_rule = _arguments_rule(converter, index, name, json.loads(schema_json))
        branch = f"tool-{index}"
        lines.append(
            f'{branch} ::= "\\"" {_literal(name)} "\\"" sp "," sp "\\"arguments\\"" sp ":" sp '
            f"{args_rule}"
        )
        branches.append(branch)
    if catch_all or not branches:
        branches.append("unknown-tool")
    lines.append(
        'unknown-tool ::= "\\"" unknown-name sp "," sp "\\"arguments\\"" sp ":" sp json-object'
    )
    lines.append(f"unknown-name ::= {_not_any_of([name for name, _ in tools])}")
    # The converter's generic value rules, for the catch-all branch's arguments.
    lines.append(
        'json-object ::= "{" sp ( json-string sp ":" sp json-value '
        '( "," sp json-string sp ":" sp json-value )* )? sp "}"'
    )
    lines.append(
        'json-array ::= "[" sp ( json-value ( "," sp json-value )* )? sp "]"\n'
        "json-value ::= ( json-object | json-array | json-string | json-number "
        '| "true" | "false" | "null" ) sp\n'
        'json-number ::= "-"? [0-9]+ ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?'
    )
    # llama.cpp's converter lets raw newlines into strings; JSON does not.
    rules = dict(converter._rules)
    rules["char"] = CHAR_RULE
    schema_rules = "\n".join(f"{name} ::= {rule}" for name, rule in sorted(rules.items()))
    return "\n".join(
        [
            "root ::= nl call nl",
            'call ::= "{" sp "\\"name\\"" sp ":" sp ( ' + " | ".join(branches) + ' ) sp "}"',
            *lines,
            COMMON_RULES,
            schema_rules,
        ]
    )


def answer_grammar(schema: Mapping[str, Any]) -> str | None:
    """A grammar for an answer that is JSON matching ``schema`` (structured output).

    ``None`` when llama.cpp's converter cannot express the schema: the answer
    is then generated freely and validated by the client.
    """
    return _answer_cached(json.dumps(plain_json(dict(schema))))  # key order is the grammar's


@functools.lru_cache(maxsize=32)
def _answer_cached(schema_json: str) -> str | None:
    from llama_cpp import llama_grammar

    converter_type: Any = llama_grammar.SchemaConverter  # untyped upstream
    converter = converter_type(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    try:
        schema = converter.resolve_refs(sanitized_schema(json.loads(schema_json)), "answer")
        converter.visit(schema, "")
    except Exception as exc:  # the converter asserts on schemas it cannot express
        logger.warning("The answer's schema cannot be expressed as a grammar (%s).", exc)
        return None
    rules = dict(converter._rules)
    rules["char"] = CHAR_RULE  # llama.cpp's converter lets raw newlines into strings; JSON does not
    return "\n".join(f"{name} ::= {rule}" for name, rule in sorted(rules.items()))


_CLASSES = {"d": "0-9", "w": "A-Za-z0-9_", "s": " \\t"}
_NEGATED = {"D": "^0-9", "W": "^A-Za-z0-9_", "S": "^ \\t"}


def sanitized_schema(schema: Any) -> Any:
    r"""``schema`` with each ``pattern`` in a form llama.cpp's grammar can take.

    The converter copies a pattern's escapes into the grammar as they are,
    and llama.cpp, reading ``\\d``, reports an unknown escape and then crashes
    the process. ``\\d``, ``\\w``, ``\\s`` and their negations become character
    classes; a pattern with any other letter escape is left out of the
    grammar (the tool still validates the value) with a warning.
    """
    if isinstance(schema, list):
        return [sanitized_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "pattern" and isinstance(value, str):
            pattern = _grammar_pattern(value)
            if pattern is None:
                logger.warning(
                    "The pattern %r cannot be expressed as a grammar; the model may write "
                    "any string there (the tool checks it).",
                    value,
                )
                continue
            result[key] = pattern
        elif key in ("properties", "$defs", "definitions", "patternProperties"):
            result[key] = (
                {k: sanitized_schema(v) for k, v in value.items()}
                if isinstance(value, dict)
                else value
            )
        else:
            result[key] = sanitized_schema(value)
    return result


def _grammar_pattern(pattern: str) -> str | None:
    """``pattern`` with its class escapes spelled out, or ``None`` when one cannot be."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt in _CLASSES:
                out.append(_CLASSES[nxt] if in_class else f"[{_CLASSES[nxt]}]")
            elif nxt in _NEGATED and not in_class:
                out.append(f"[{_NEGATED[nxt]}]")
            elif nxt.isalnum():
                return None
            else:
                out.append(ch + nxt)
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def _arguments_rule(converter: Any, index: int, name: str, schema: dict[str, Any]) -> str:
    """Add the rules for one tool's arguments and return the name of the top rule."""
    try:
        schema = converter.resolve_refs(sanitized_schema(schema), f"tool{index}")
        return str(converter.visit(schema, f"tool-{index}-args"))
    except Exception as exc:  # the converter asserts on schemas it cannot express
        logger.warning(
            "Tool %r: its input schema cannot be expressed as a grammar (%s); "
            "the model may send any JSON object as its arguments.",
            name,
            exc,
        )
        return "json-object"


def _literal(text: str) -> str:
    return json.dumps(text)


def _not_any_of(names: Sequence[str]) -> str:
    """A rule for a JSON string's body plus closing quote that equals none of ``names``.

    GBNF has no negation, so this walks a trie of the names: at each step the
    string may diverge to any other character (and then continue freely), or
    end, unless ending there would spell one of the names.
    """
    trie: dict[str, Any] = {}
    for name in names:
        node = trie
        for ch in name:
            node = node.setdefault(ch, {})
        node[""] = {}
    return _trie_rule(trie) or '"\\""'


def _trie_rule(node: dict[str, Any]) -> str | None:
    children = sorted(ch for ch in node if ch)
    excluded = "".join(_class_char(ch) for ch in children)
    alternatives = [f'[^"\\\\\\x00-\\x1F\\x7F{excluded}] json-char* "\\""']
    alternatives.append('"\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4}) json-char* "\\""')
    for ch in children:
        sub = _trie_rule(node[ch])
        if sub is not None:
            alternatives.append(f"{_literal(ch)} ({sub})")
    if "" not in node:
        alternatives.append('"\\""')
    return " | ".join(alternatives)


def _class_char(ch: str) -> str:
    return "\\" + ch if ch in "]^-\\" else ch
