"""The suite's own hooks: a session leaves nothing for the interpreter's exit to report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


def test_a_session_that_imported_llama_cpp_ends_without_a_resource_warning(
    tmp_path: Path,
) -> None:
    # llama-cpp-python opens /dev/null twice at import; the warnings-as-errors
    # setting of pyproject.toml then reported both files at exit.
    pytest.importorskip("llama_cpp")
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nfilterwarnings = error\nasyncio_default_fixture_loop_scope = function\n"
    )
    (tmp_path / "test_imports_llama_cpp.py").write_text(
        "def test_import():\n    import llama_cpp  # noqa: F401\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    }
    finished = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "1 passed" in finished.stdout
    assert "ResourceWarning" not in finished.stdout + finished.stderr
