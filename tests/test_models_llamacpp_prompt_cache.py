"""The embedded model's prompt cache on disk: a new process skips a prompt it has evaluated before.

These tests load fresh instances of the 0.5B model (each instance stands for
a new process) against one cache folder.
"""

from __future__ import annotations

import logging
import struct
from pathlib import Path
from typing import cast

import pytest

from described_tool import DescribedTool
from springtail.messages import AssistantMessage, ChatOptions, Prompt, SystemMessage, UserMessage
from springtail.models._llamacpp import LlamaCppChatModel
from springtail.tools._definition import ToolDefinition

pytestmark = pytest.mark.model

POLICY = " ".join(
    f"Rule {n}: be polite, give exact figures from the tools, and never guess stock or prices."
    for n in range(1, 16)
)
SYSTEM = SystemMessage(f"You are the support assistant of a small shop. {POLICY}")


OPTIONS = ChatOptions(
    tool_callbacks=(
        DescribedTool(
            ToolDefinition(
                "calculate",
                "Apply add, subtract, multiply or divide to two numbers.",
                {
                    "type": "object",
                    "properties": {
                        "operation": {
                            "type": "string",
                            "enum": ["add", "subtract", "multiply", "divide"],
                        },
                        "left": {"type": "number"},
                        "right": {"type": "number"},
                    },
                    "required": ["operation", "left", "right"],
                },
            )
        ),
    ),
    temperature=0.0,
    max_tokens=60,
)


def ask(folder: Path, question: str = "What is 128 times 32?") -> AssistantMessage:
    """One request in a new model instance (a new process) using ``folder``."""
    model = LlamaCppChatModel("embedded-small", prompt_cache=folder)
    try:
        return model.call(Prompt([SYSTEM, UserMessage(question)], OPTIONS)).results[0].output
    finally:
        model.close()


def calls(message: AssistantMessage) -> list[tuple[str, str]]:
    return [(c.name, c.arguments) for c in message.tool_calls]


@pytest.fixture(scope="module")
def cold(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, AssistantMessage]:
    """A cache folder after one request, and that request's reply, evaluated from scratch."""
    folder = tmp_path_factory.mktemp("prompt-cache")
    return folder, ask(folder)


def cached_tokens(caplog: pytest.LogCaptureFixture) -> tuple[int, int]:
    for record in caplog.records:
        if record.getMessage().startswith("prompt: "):
            total, held = cast(tuple[int, int], record.args)
            return int(total), int(held)
    raise AssertionError("the model logged no prompt")


def test_the_first_long_prompt_is_saved(cold: tuple[Path, AssistantMessage]) -> None:
    folder, reply = cold
    assert calls(reply)[0][0] == "calculate"
    assert len(list(folder.glob("*.kv"))) == 1


def test_a_new_process_loads_the_prompt_and_answers_the_same(
    cold: tuple[Path, AssistantMessage], caplog: pytest.LogCaptureFixture
) -> None:
    folder, reply = cold
    with caplog.at_level(logging.DEBUG, logger="springtail.models.llamacpp"):
        again = ask(folder)
    total, held = cached_tokens(caplog)
    assert held == total  # nothing of the prompt was evaluated again but its last token
    assert calls(again) == calls(reply)


def test_a_prompt_sharing_only_the_system_part_still_gains(
    cold: tuple[Path, AssistantMessage], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder, _ = cold
    with caplog.at_level(logging.DEBUG, logger="springtail.models.llamacpp"):
        reply = ask(folder, "Divide 84 by 4.")
    total, held = cached_tokens(caplog)
    assert 256 <= held < total  # the system prompt and tools, not the new question
    scratch = ask(tmp_path, "Divide 84 by 4.")  # evaluated from scratch
    assert (reply.text, calls(reply)) == (scratch.text, calls(scratch))


@pytest.mark.parametrize(
    "damage", ["flipped bytes", "cut short", "not a cache file", "an absurd token count"]
)
def test_a_damaged_file_is_deleted_and_the_prompt_evaluated(
    cold: tuple[Path, AssistantMessage],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    damage: str,
) -> None:
    source, reply = cold
    (original,) = source.glob("*.kv")
    data = bytearray(original.read_bytes())
    if damage == "flipped bytes":
        data[len(data) // 2 : len(data) // 2 + 64] = bytes(64)
    elif damage == "cut short":
        del data[len(data) // 3 :]
    elif damage == "an absurd token count":
        data[8:12] = struct.pack("<I", 1 << 30)
    else:
        data = bytearray(b"This is a note, not a cache file.")
    broken = tmp_path / original.name
    broken.write_bytes(bytes(data))
    with caplog.at_level(logging.DEBUG, logger="springtail.models.llamacpp"):
        again = ask(tmp_path)
    assert calls(again) == calls(reply)
    assert any("ignoring and deleting" in r.getMessage() for r in caplog.records)
    assert cached_tokens(caplog)[1] == 0
    # Evaluated from scratch, so saved anew: a good file replaces the damaged one.
    (fresh,) = tmp_path.glob("*.kv")
    assert fresh.read_bytes() == original.read_bytes()


def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPRINGTAIL_PROMPT_CACHE", "0")
    ask(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_default_folder_can_be_moved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPRINGTAIL_PROMPT_CACHE_DIR", str(tmp_path / "moved"))
    model = LlamaCppChatModel("embedded-small")  # prompt_cache=True: the default folder
    try:
        model.call(Prompt([SYSTEM, UserMessage("Add 1250 and 730.")], OPTIONS))
    finally:
        model.close()
    assert len(list((tmp_path / "moved").glob("*.kv"))) == 1
