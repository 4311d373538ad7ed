"""Every Python block of README.md and docs/*.md runs, in order, as a reader would paste it.

Sybil reads the Markdown: each document's blocks share one namespace, so a
block may use what an earlier one defined. Markers in HTML comments (which
the rendered page does not show) say what a block needs:

- ``<!-- skip: next "reason" -->``: the block needs a key or a server the
  tests do not have. It is still compiled, so a syntax error fails.
- ``<!-- skip: next if(not EMBEDDED, reason="...") -->``: the block needs the
  embedded model. It runs in ``test_blocks_on_the_embedded_model`` (marked
  ``model``); elsewhere it is compiled only.
- ``<!-- invisible-code-block: python ... -->``: set-up the reader does not
  need to see (a scripted model standing in for the embedded one).

The other blocks are checked, not run: a ``bash`` block must pass ``bash -n``
(its commands are the CLI tests' subject), a ``json`` block must parse with
``json.loads`` and a ``toml`` block with ``tomllib``; a skipped one is checked
too. ``console``, ``text`` and ``sql`` blocks show output or a table's layout
and are left as they are; a block in any other language fails, so a new
language gets a check (or a place in ``UNCHECKED``) when it first appears.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import shutil
import subprocess
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import SkipTest

import pytest

sybil = pytest.importorskip("sybil", reason="needs the test group (sybil)")

from sybil.parsers.markdown import (  # noqa: E402
    CodeBlockParser,
    PythonCodeBlockParser,
    SkipParser,
)

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
EMBEDDED_MARK = "if(not EMBEDDED"
TOP_LEVEL_AWAIT = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT  # a skipped block may `async with` as a REPL


UNCHECKED = frozenset({"", "console", "text", "sql"})
"""Block languages that show output or a layout: nothing to run or parse."""
_OPENING_FENCE = re.compile(r"^[ \t]*```[ \t]*([^`\s]*)", re.MULTILINE)


def _bash_syntax(source: str) -> None:
    """``bash -n``: the block parses as a shell script (nothing in it runs)."""
    bash = shutil.which("bash")
    if bash is None:  # pragma: no cover - every machine the tests run on has bash
        pytest.skip("bash is not installed")
    result = subprocess.run(
        [bash, "-n"], input=source, capture_output=True, text=True, timeout=10, check=False
    )
    if result.returncode != 0:
        raise SyntaxError(f"bash -n: {result.stderr.strip()}")


CHECKS: dict[str, Callable[[str], Any]] = {
    "bash": _bash_syntax,
    "json": json.loads,
    "toml": tomllib.loads,
}
"""How a block of each language that is not Python is checked, given its text."""


class _Check:
    """A sybil evaluator that checks a block's text with ``CHECKS[language]``."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __call__(self, example: Any) -> None:
        source = str(example.parsed)
        try:
            CHECKS[self.language](source)
        except (SyntaxError, ValueError) as exc:  # JSONDecodeError, TOMLDecodeError
            raise AssertionError(
                f"{example.path}, line {example.line}: this {self.language} block does not "
                f"parse: {exc}"
            ) from None


def _parsers() -> list[Any]:
    checked = [CodeBlockParser(language, _Check(language)) for language in CHECKS]
    return [PythonCodeBlockParser(), *checked, SkipParser()]


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    """Run the blocks in ``folder``: they may write files (``chat.db``) where they run."""
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def run_blocks(path: Path, *, embedded: bool, folder: Path) -> tuple[int, int]:
    """Evaluate the document's blocks in order; ``(run, compiled only)``."""
    document = sybil.Sybil(parsers=_parsers()).parse(path)
    document.namespace["EMBEDDED"] = embedded
    ran = compiled = 0
    with _inside(folder):
        for example in document:
            evaluator = example.region.evaluator
            if evaluator is None:
                continue
            try:
                example.evaluate()
            except SkipTest:
                if isinstance(evaluator, _Check):
                    evaluator(example)  # skipped or not, a bash/json/toml block is checked
                    continue
                source = str(example.parsed)
                compile(source, f"{path}:{example.line}", "exec", flags=TOP_LEVEL_AWAIT)
                compiled += 1
            else:
                ran += isinstance(example.parsed, str) and not isinstance(evaluator, _Check)
    return ran, compiled


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_blocks_run_as_written(path: Path, tmp_path: Path) -> None:
    run_blocks(path, embedded=False, folder=tmp_path)


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_every_block_is_in_a_language_the_tests_know(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fences = [match.group(1).lower() for match in _OPENING_FENCE.finditer(text)]
    openings = fences[::2]  # fences alternate: opening, closing
    known = UNCHECKED | set(CHECKS) | {"python"}
    assert [language for language in openings if language not in known] == []


@pytest.mark.model
@pytest.mark.parametrize(
    "path", [p for p in DOCUMENTS if EMBEDDED_MARK in p.read_text(encoding="utf-8")], ids=_name
)
def test_blocks_on_the_embedded_model(path: Path, tmp_path: Path) -> None:
    ran, _ = run_blocks(path, embedded=True, folder=tmp_path)
    assert ran > 0


def test_a_skipped_block_is_still_compiled(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        '<!-- skip: next "needs a server" -->\n```python\nprint(\n```\n', encoding="utf-8"
    )
    with pytest.raises(SyntaxError):
        run_blocks(page, embedded=False, folder=tmp_path)


def test_the_getting_started_page_runs_its_blocks(tmp_path: Path) -> None:
    page = ROOT / "docs" / "getting-started.md"
    ran, compiled = run_blocks(page, embedded=False, folder=tmp_path)
    assert ran >= 4  # the first tool, memory, the approval, the test
    assert compiled >= 3  # the embedded model's call, Ollama, the OpenAI-compatible server


@pytest.mark.parametrize(
    ("language", "block"),
    [
        ("bash", "if true; then\n  echo missing fi\n"),
        ("json", '{"role": "user", "text": ...}'),
        ("toml", "[project\nname = 1"),
    ],
)
def test_a_block_that_does_not_parse_fails(language: str, block: str, tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"```{language}\n{block}\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=f"this {language} block does not parse"):
        run_blocks(page, embedded=False, folder=tmp_path)


def test_a_skipped_bash_block_is_still_checked(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        '<!-- skip: next "needs a server" -->\n```bash\necho "unclosed\n```\n', encoding="utf-8"
    )
    with pytest.raises(AssertionError, match="bash -n"):
        run_blocks(page, embedded=False, folder=tmp_path)


def test_output_blocks_are_left_unchecked(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ echo {\n{\n```\n\n```text\n[not toml\n```\n", encoding="utf-8")
    assert run_blocks(page, embedded=False, folder=tmp_path) == (0, 0)
