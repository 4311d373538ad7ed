"""The chat in a real pseudo-terminal: prompt_toolkit input, rich spinner/markdown, approval."""

from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import sys
from pathlib import Path

import pexpect
import pytest

from support_bot._store import DB_FILENAME

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

SCRIPT = [
    {
        "tool_calls": [
            {"name": "product_reserve", "arguments": {"sku": "SKU-100", "quantity": 2}},
            {"name": "todo_add", "arguments": {"title": "Ship 2 x SKU-100"}},
        ]
    },
    "Reserved **2 units** of SKU-100 and added the to-do.",
]


@pytest.fixture
def chat(tmp_path: Path) -> pexpect.spawn:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUPPORT_BOT_")}
    env.update(
        SUPPORT_BOT_SCRIPT=str(script),
        SUPPORT_BOT_DATA_DIR=str(tmp_path / "data"),
        TERM="xterm-256color",
        PROMPT_TOOLKIT_NO_CPR="1",  # pexpect does not answer cursor-position requests
    )
    child = pexpect.spawn(
        sys.executable,
        ["-m", "support_bot"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 120),
    )
    child.logfile_read = io.StringIO()
    yield child
    child.close(force=True)


def test_streamed_answer_approval_and_exit_in_a_terminal(
    chat: pexpect.spawn, tmp_path: Path
) -> None:
    chat.expect("support-bot")
    chat.expect("you>")
    chat.sendline("Reserve 2 units of SKU-100 and add that as a to-do")
    # The call that needs no approval runs first; the reservation waits for the answer.
    chat.expect("Added to-do #1")  # the live tool line
    chat.expect(re.escape('Allow product_reserve(sku="SKU-100", quantity=2)? [y/N]'))
    chat.sendline("y")
    chat.expect("and added the to-do.")
    chat.expect("you>")
    screen = ANSI.sub("", chat.logfile_read.getvalue())
    assert "Reserved 2 units of SKU-100 and added the to-do." in screen
    assert "**" not in screen  # rendered as markdown, not raw
    assert "✓ product_reserve" in screen
    chat.sendline("/exit")
    chat.expect(pexpect.EOF)
    chat.close()
    assert chat.exitstatus == 0
    with sqlite3.connect(tmp_path / "data" / DB_FILENAME) as conn:
        assert conn.execute("SELECT stock FROM products WHERE sku='SKU-100'").fetchone() == (10,)
        assert conn.execute("SELECT title FROM todos").fetchall() == [("Ship 2 x SKU-100",)]
    assert (tmp_path / "data" / "input-history").read_text().count("Reserve 2 units") == 1


def test_ctrl_d_leaves_the_chat(chat: pexpect.spawn) -> None:
    chat.expect("you>")
    chat.sendcontrol("d")
    chat.expect(pexpect.EOF)
    chat.close()
    assert chat.exitstatus == 0
