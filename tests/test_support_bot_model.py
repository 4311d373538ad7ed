from __future__ import annotations

import json
from pathlib import Path

import pytest

from springtail import ModelUnavailableError, Prompt, ScriptedChatModel
from support_bot._model import SCRIPT_ENV, build_model, scripted_model_from_file


def write(tmp_path: Path, items: object) -> Path:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(items))
    return path


def test_script_replies_with_text_tool_calls_and_errors(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [
            {"tool_calls": [{"name": "calculate", "arguments": {"operation": "add"}}]},
            {"text": "ok", "tool_calls": [{"id": "x", "name": "todo_list", "arguments": "{}"}]},
            "plain answer",
            {"error": "unavailable", "message": "server down; start it"},
        ],
    )
    model = scripted_model_from_file(path)
    first = model.call(Prompt("a"))
    assert first.result is not None
    [call] = first.result.output.tool_calls
    assert (call.name, json.loads(call.arguments)) == ("calculate", {"operation": "add"})
    second = model.call(Prompt("b"))
    assert second.text == "ok"
    assert second.result is not None
    assert second.result.output.tool_calls[0].id == "x"
    assert model.call(Prompt("c")).text == "plain answer"
    with pytest.raises(ModelUnavailableError, match="server down"):
        model.call(Prompt("d"))


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "Cannot read the model script"), ('{"a": 1}', "JSON list"), ("[3]", "Reply 0")],
)
def test_bad_scripts_say_what_is_wrong(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        scripted_model_from_file(path)


def test_the_environment_script_wins_over_the_uri(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SCRIPT_ENV, str(write(tmp_path, ["hi"])))
    model, label = build_model("llamacpp:embedded")
    assert isinstance(model, ScriptedChatModel)
    assert label.startswith("scripted (")


def test_a_malformed_uri_is_a_value_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SCRIPT_ENV, raising=False)
    with pytest.raises(ValueError, match="Unknown model URI"):
        build_model("nonsense")


def test_the_label_masks_a_password_in_the_uri(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chat's banner and serve's line print this label (issue 22)."""
    monkeypatch.delenv(SCRIPT_ENV, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    _, label = build_model("openai-compatible:http://shop:s3cret@127.0.0.1:9/v1")
    assert label == "openai-compatible:http://shop:***@127.0.0.1:9/v1"
