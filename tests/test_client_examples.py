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


def run_status(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_approvals_pause_in_one_run_and_resume_in_the_next(tmp_path: Path) -> None:
    db = str(tmp_path / "approvals.db")
    asked = run("approvals.py", "ask", "Check SKU-100 and reserve 2 units", "--db", db)
    assert (
        'Waiting for approval: call-reserve reserve_stock({"sku": "SKU-100", "quantity": 2})'
        in asked
    )
    assert "call-reserve: reserve_stock" in run("approvals.py", "pending", "--db", db)
    refused = run_status("approvals.py", "ask", "hello", "--db", db)
    assert refused.returncode == 1
    assert "waits for a decision on reserve_stock" in refused.stderr
    approved = run("approvals.py", "approve", "call-reserve", "--db", db)
    assert approved.strip() == "Done: SKU-100: 12 in stock; Reserved 2 of SKU-100 (reservation #1)"
    again = run_status("approvals.py", "approve", "call-reserve", "--db", db)
    assert again.returncode == 1
    assert "Nothing waits for approval" in again.stderr
    assert "Nothing waits" in run("approvals.py", "pending", "--db", db)


def test_approvals_a_denial_is_answered_in_words(tmp_path: Path) -> None:
    db = str(tmp_path / "approvals.db")
    run("approvals.py", "ask", "reserve 3 of SKU-200", "--db", db)
    denied = run("approvals.py", "deny", "call-reserve", "--reason", "not today", "--db", db)
    assert "was not approved (not today)" in denied
