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

Shell, console, JSON and other blocks are not Python and are not run here;
the commands they show are the CLI tests' subject.
"""

from __future__ import annotations

import ast
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from unittest import SkipTest

import pytest

sybil = pytest.importorskip("sybil", reason="needs the test group (sybil)")

from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
EMBEDDED_MARK = "if(not EMBEDDED"
TOP_LEVEL_AWAIT = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT  # a skipped block may `async with` as a REPL


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
    document = sybil.Sybil(parsers=[PythonCodeBlockParser(), SkipParser()]).parse(path)
    document.namespace["EMBEDDED"] = embedded
    ran = compiled = 0
    with _inside(folder):
        for example in document:
            if example.region.evaluator is None:
                continue
            try:
                example.evaluate()
            except SkipTest:
                source = str(example.parsed)
                compile(source, f"{path}:{example.line}", "exec", flags=TOP_LEVEL_AWAIT)
                compiled += 1
            else:
                ran += isinstance(example.parsed, str)
    return ran, compiled


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_blocks_run_as_written(path: Path, tmp_path: Path) -> None:
    run_blocks(path, embedded=False, folder=tmp_path)


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
