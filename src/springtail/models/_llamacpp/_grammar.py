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

import copy
import functools
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from springtail.models._wire import plain_json
from springtail.tools._definition import ToolDefinition

__all__ = [
    "FENCE_OPEN",
    "TAGGED_CLOSE",
    "TAGGED_OPEN",
    "answer_grammar",
    "build_grammar",
    "text_only_grammar",
]

logger = logging.getLogger(__name__)

TAGGED_OPEN = "<tool_call>"
TAGGED_CLOSE = "</tool_call>"
FENCE_OPEN = "```json"

# JSON string characters: no quote, no backslash, no control character; escapes as JSON has them.
_CHAR = r'[^"\\\x00-\x1F\x7F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})'

_COMMON = rf"""
sp ::= [ ]?
nl ::= [\n]?
json-char ::= {_CHAR}
json-string ::= "\"" json-char* "\""
any-char ::= [^\x00]
"""

# After tool results the answer is prose: opening with a code fence or a tag,
# the model drifts into code or XML about the results instead of stating them.
_TEXT_ONLY = "root ::= prose-start any-char*\nprose-start ::= [^<{`\\x00-\\x20]\n" + _COMMON


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
    rules["char"] = _CHAR
    schema_rules = "\n".join(f"{name} ::= {rule}" for name, rule in sorted(rules.items()))
    return "\n".join(
        [
            "root ::= nl call nl",
            'call ::= "{" sp "\\"name\\"" sp ":" sp ( ' + " | ".join(branches) + ' ) sp "}"',
            *lines,
            _COMMON,
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
        schema = converter.resolve_refs(json.loads(schema_json), "answer")
        converter.visit(schema, "")
    except Exception as exc:  # the converter asserts on schemas it cannot express
        logger.warning("The answer's schema cannot be expressed as a grammar (%s).", exc)
        return None
    rules = dict(converter._rules)
    rules["char"] = _CHAR  # llama.cpp's converter lets raw newlines into strings; JSON does not
    return "\n".join(f"{name} ::= {rule}" for name, rule in sorted(rules.items()))


def _arguments_rule(converter: Any, index: int, name: str, schema: dict[str, Any]) -> str:
    """Add the rules for one tool's arguments and return the name of the top rule."""
    try:
        schema = converter.resolve_refs(copy.deepcopy(schema), f"tool{index}")
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
