"""The springtail command shows what a model sees for given tools."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from springtail.cli import main


@pytest.fixture
def tool_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "shop_tools.py").write_text(
        textwrap.dedent(
            '''
            from typing import Annotated
            from springtail import Param, tool

            class Shop:
                @tool(description="Look up a product by SKU.")
                def lookup(self, sku: Annotated[str, Param("The product SKU")]) -> str:
                    return sku

            @tool
            def ping() -> str:
                """Answer pong."""
                return "pong"
            '''
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "shop_tools"


def test_tools_prints_the_definitions_a_model_sees(
    tool_module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", f"{tool_module}:Shop", f"{tool_module}:ping"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in printed] == ["lookup", "ping"]
    lookup = printed[0]
    assert lookup["description"] == "Look up a product by SKU."
    assert lookup["input_schema"]["properties"]["sku"]["description"] == "The product SKU"
    assert lookup["input_schema"]["required"] == ["sku"]
    assert printed[1]["description"] == "Answer pong."


def test_tools_with_an_unknown_module_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "no_such_module_here:thing"]) == 2
    assert "no_such_module_here" in capsys.readouterr().err


def test_tools_with_an_object_without_tools_says_so(
    tool_module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", "json:JSONDecoder"]) == 2
    assert "JSONDecoder" in capsys.readouterr().err


def test_models_lists_every_provider(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    for scheme in ("llamacpp", "openai", "openai-compatible", "ollama", "anthropic"):
        assert f"\n{scheme} " in "\n" + out


def test_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "springtail.cli", "models"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert "llamacpp:embedded" in done.stdout
