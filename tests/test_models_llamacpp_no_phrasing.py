"""The embedded model's decision path reads structure, never the user's words.

Issue 54 removed every English word list and every regex over natural-language
text from ``springtail/models/_llamacpp``: a rule that reads phrasing holds for
the wording it was fitted on and fails for any other wording or language.
This test fails if one comes back. It reads the package's source (``ast``),
so it needs no model.

What it flags:

- a literal set, list, tuple or dict (keys) of three or more lowercase words
  that are not structural vocabulary (JSON Schema keywords and types, the
  message and template fields the package writes);
- a regular expression whose pattern spells a word of two or more letters
  outside its escapes, classes and group syntax (``\\b(?:then|after)\\b``).

Patterns over structure (digits, identifiers, quotes, an ``@``) pass.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "src" / "springtail" / "models" / "_llamacpp"

STRUCTURAL = frozenset(
    {
        # JSON Schema types and keywords the stubs and grammars read
        "string",
        "integer",
        "number",
        "boolean",
        "null",
        "array",
        "object",
        "enum",
        "const",
        "format",
        "pattern",
        "type",
        "properties",
        "items",
        "required",
        "default",
        "description",
        "minimum",
        "maximum",
        "examples",
        # the chat template's and the transcript's own fields
        "id",
        "function",
        "name",
        "arguments",
        "text",
        "calls",
        "metadata",
        # regex class letters (\d, \w, \s) named in a grammar table
        "d",
        "w",
        "s",
    }
)
_WORDS = re.compile(r"[a-z]+(?: [a-z]+)*")
_RE_CALLS = frozenset(
    {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}
)


def word_lists(source: str) -> list[tuple[int, list[str]]]:
    """The literal collections of ``source`` that list words (line, words)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Set | ast.List | ast.Tuple):
            elements = node.elts
        elif isinstance(node, ast.Dict):
            elements = [k for k in node.keys if k is not None]
        else:
            continue
        words = [
            e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        if (
            len(words) >= 3
            and all(_WORDS.fullmatch(w) for w in words)
            and not set(words) <= STRUCTURAL
        ):
            found.append((node.lineno, words))
    # "a an the".split(): a word list written as one string
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "split"
            and isinstance(node.func.value, ast.Constant)
            and isinstance(node.func.value.value, str)
            and len(node.func.value.value.split()) >= 3
        ):
            found.append((node.lineno, node.func.value.value.split()))
    return found


def spelled_words(pattern: str) -> list[str]:
    """The words a regex pattern spells outside its escapes, classes and group syntax."""
    bare = re.sub(r"\\.", " ", pattern)  # \d, \b, \. ...
    bare = re.sub(r"\[[^\]]*\]", " ", bare)  # [A-Za-z0-9_]
    bare = re.sub(r"\(\?P?<[^>]*>|\(\?[:=!<]*", " ", bare)  # (?P<name>, (?:, (?<=
    bare = re.sub(r"\{\d*,?\d*\}", " ", bare)  # {1,64}
    return re.findall(r"[A-Za-z]{2,}", bare)


def phrasing_patterns(source: str) -> list[tuple[int, str]]:
    """The regexes of ``source`` whose pattern spells words (line, pattern)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _RE_CALLS
            and node.args
        ):
            continue
        first = node.args[0]
        if (
            isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and spelled_words(first.value)
        ):
            found.append((node.lineno, first.value))
    return found


MODULES = sorted(PACKAGE.glob("*.py"))


def test_the_package_is_where_the_guard_looks() -> None:
    assert len(MODULES) > 20
    assert (PACKAGE / "_rules.py") in MODULES


@pytest.mark.parametrize("module", MODULES, ids=[m.name for m in MODULES])
def test_no_module_of_the_decision_path_lists_words(module: Path) -> None:
    assert word_lists(module.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("module", MODULES, ids=[m.name for m in MODULES])
def test_no_module_of_the_decision_path_matches_words_with_a_regex(module: Path) -> None:
    assert phrasing_patterns(module.read_text(encoding="utf-8")) == []


def test_the_guard_flags_the_rules_issue_54_removed() -> None:
    # Shapes of code that was in the package before: each must be caught.
    old = (
        '_THEN = {"then", "after that", "and then"}\n'
        '_UNITS = ("percent", "percentage", "per cent")\n'
        'STOP = "a an the of".split()\n'
        'NAMED = {"euros": "EUR", "pounds": "GBP", "dollars": "USD"}\n'
    )
    assert [line for line, _ in word_lists(old)] == [1, 2, 4, 3]
    regexes = (
        "import re\n"
        'STEP = re.compile(r"\\b(?:then|afterwards)\\b")\n'
        'DAYS = re.search(r"(?i)in (\\d+) days", text)\n'
    )
    assert [line for line, _ in phrasing_patterns(regexes)] == [2, 3]


def test_patterns_over_structure_pass_the_guard() -> None:
    structural = (
        "import re\n"
        'DATE = re.compile(r"(?<!\\d)\\d{4}-\\d{2}-\\d{2}(?!\\d)")\n'
        'NAME = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)\\s*\\(")\n'
        'EXAMPLE = re.compile(r"e\\.g\\.\\s*([^\\s,;)]+)")\n'
    )
    assert phrasing_patterns(structural) == []
    assert word_lists('TYPES = {"string": 1, "integer": 2, "number": 3}\n') == []
