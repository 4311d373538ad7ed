"""The three control modes, as documented: each example runs and does what it says."""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(name: str, *args: str, stdin: str = "") -> str:
    completed = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def test_framework_controlled_runs_the_tool_and_streams_events() -> None:
    out = run("framework_controlled.py")
    assert "call(): 128 times 32 is 4096." in out
    assert '[tool] calculate({"operation": "multiply", "left": 128, "right": 32}) -> 4096' in out
    assert out.rstrip().endswith("128 times 32 is 4096.")


def test_advisor_controlled_memory_outside_and_inside_the_loop() -> None:
    out = run("advisor_controlled.py")
    outside, inside = out.split("2. Memory inside the loop")
    assert "There are 12 units of SKU-100 in stock." in outside
    assert "So far you asked: How many SKU-100 are left?" in outside
    assert "ToolResponseMessage" not in outside  # outside the loop: question and answer only
    assert "There are 0 units of SKU-200 in stock." in inside
    assert "So far you asked: How many SKU-200 are left?" in inside
    assert "ToolResponseMessage" in inside  # inside the loop: tool calls remembered too


@pytest.mark.parametrize(
    ("args", "stdin", "expected"),
    [
        (("--approve", "yes"), "", "Result: Reserved 2 of SKU-100"),
        (("--approve", "no"), "", "Result: The user did not approve this call."),
        (("--approve", "ask"), "y\n", "Result: Reserved 2 of SKU-100"),
        (("--approve", "ask"), "n\n", "Result: The user did not approve this call."),
    ],
)
def test_user_controlled_loop_with_approval(
    args: tuple[str, ...], stdin: str, expected: str
) -> None:
    out = run("user_controlled.py", *args, stdin=stdin)
    assert out.rstrip().endswith(expected)
