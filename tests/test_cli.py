"""The springtail command shows what a model sees for given tools."""

import dataclasses
import json
import socket
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


def test_tools_finds_a_module_in_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "here_tools.py").write_text(
        'from springtail import tool\n\n@tool\ndef ping() -> str:\n    """Answer pong."""\n'
        "    return 'pong'\n"
    )
    done = subprocess.run(
        [str(Path(sys.executable).with_name("springtail")), "tools", "here_tools:ping"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [d["name"] for d in json.loads(done.stdout)] == ["ping"]


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


def _models_line(scheme: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["models"]) == 0
    lines = capsys.readouterr().out.splitlines()
    return next(line for line in lines if line.split()[0] == scheme)


def test_models_says_openai_is_not_ready_without_a_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    line = _models_line("openai", capsys)
    assert "ready" not in line
    assert "set OPENAI_API_KEY" in line


def test_models_says_openai_is_ready_with_a_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert _models_line("openai", capsys).endswith(" ready")


def test_models_says_anthropic_needs_its_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    line = _models_line("anthropic", capsys)
    assert "ready" not in line
    assert "set ANTHROPIC_API_KEY" in line


def test_models_says_ollama_needs_a_running_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{port}")
    line = _models_line("ollama", capsys)
    assert "ready" not in line
    assert f"no server at http://127.0.0.1:{port}" in line
    assert "ollama serve" in line


def test_models_says_ollama_is_ready_when_its_server_listens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        monkeypatch.setenv("OLLAMA_HOST", f"http://127.0.0.1:{server.getsockname()[1]}")
        assert _models_line("ollama", capsys).endswith(" ready")


def test_models_names_missing_embedded_parts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from springtail.models._llamacpp import _files

    monkeypatch.setitem(
        _files.EMBEDDED_MODELS,
        "embedded",
        dataclasses.replace(_files.EMBEDDED_MODELS["embedded"], package_prefix="no-such-part"),
    )
    line = _models_line("llamacpp", capsys)
    assert "ready" not in line
    assert "model parts missing" in line


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    import springtail

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"springtail {version('springtail')}\n"
    assert springtail.__version__ == version("springtail")


@pytest.mark.parametrize("argv", [["--help"], ["mcp", "serve", "--help"], ["tools", "--help"]])
def test_help_is_plain_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    shown = capsys.readouterr().out
    assert shown.startswith("usage: springtail")
    assert "``" not in shown
    assert ":class:" not in shown


def test_mcp_serve_without_the_sdk_is_one_sentence(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['mcp'] = None; "
        "from springtail.cli import main; sys.exit(main(['mcp', 'serve', 'os:getcwd']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert "pip install 'springtail[mcp]'" in result.stderr
