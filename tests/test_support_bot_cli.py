"""The ``support-bot`` command as users and CI run it: a real process, real pipes, a real file."""

from __future__ import annotations

import json
import os
import select
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from support_bot._store import DB_FILENAME
from support_bot.cli import main


def run_bot(
    args: list[str],
    data_dir: Path,
    *,
    script: Sequence[object] | None = None,
    stdin: str = "",
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUPPORT_BOT_")}
    if script is not None:
        path = data_dir.parent / f"script-{len(list(data_dir.parent.iterdir()))}.json"
        path.write_text(json.dumps(script))
        env["SUPPORT_BOT_SCRIPT"] = str(path)
    env["SUPPORT_BOT_DATA_DIR"] = str(data_dir)
    return subprocess.run(
        [sys.executable, "-m", "support_bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def stock(data_dir: Path, sku: str) -> int:
    with sqlite3.connect(data_dir / DB_FILENAME) as conn:
        return int(conn.execute("SELECT stock FROM products WHERE sku = ?", (sku,)).fetchone()[0])


def todos(data_dir: Path) -> list[str]:
    with sqlite3.connect(data_dir / DB_FILENAME) as conn:
        return [r[0] for r in conn.execute("SELECT title FROM todos ORDER BY id")]


RESERVE_SCRIPT: list[object] = [
    {
        "tool_calls": [
            {"name": "product_reserve", "arguments": {"sku": "SKU-100", "quantity": 2}},
            {"name": "todo_add", "arguments": {"title": "Ship 2 x SKU-100"}},
        ]
    },
    "Reserved 2 units of SKU-100 and added the to-do.",
]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def test_ask_answers_on_stdout_and_tool_lines_on_stderr(data_dir: Path) -> None:
    script = [
        {
            "tool_calls": [
                {
                    "name": "calculate",
                    "arguments": {"operation": "multiply", "left": 128, "right": 32},
                }
            ]
        },
        "128 times 32 is 4096.",
    ]
    result = run_bot(["ask", "What is 128 times 32?", "--show-tools"], data_dir, script=script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "128 times 32 is 4096."
    assert 'calculate(operation="multiply", left=128, right=32)' in result.stderr
    assert "128 * 32 = 4096" in result.stderr


def test_ask_hides_tool_lines_by_default(data_dir: Path) -> None:
    script = [{"tool_calls": [{"name": "product_list", "arguments": {}}]}, "Three products."]
    result = run_bot(["ask", "list products"], data_dir, script=script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Three products."
    assert result.stderr == ""


def test_ask_with_yes_reserves_and_adds_the_todo(data_dir: Path) -> None:
    result = run_bot(
        ["ask", "Reserve 2 units of SKU-100 and add that as a to-do", "--yes", "--show-tools"],
        data_dir,
        script=RESERVE_SCRIPT,
    )
    assert result.returncode == 0, result.stderr
    assert "approved product_reserve" in result.stderr
    assert stock(data_dir, "SKU-100") == 10
    assert todos(data_dir) == ["Ship 2 x SKU-100"]


def test_piped_chat_reads_the_approval_from_the_next_line(data_dir: Path) -> None:
    stdin = "Reserve 2 units of SKU-100 and add that as a to-do\ny\n/exit\n"
    result = run_bot([], data_dir, script=RESERVE_SCRIPT, stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert 'Allow product_reserve(sku="SKU-100", quantity=2)? [y/N] y' in result.stderr
    assert "Reserved 2 units of SKU-100 and added the to-do." in result.stdout
    assert stock(data_dir, "SKU-100") == 10


def test_a_refused_approval_reserves_nothing(data_dir: Path) -> None:
    stdin = "Reserve 2 units of SKU-100 and add that as a to-do\nn\n"
    result = run_bot([], data_dir, script=RESERVE_SCRIPT, stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert "product_reserve not approved" in result.stderr
    assert stock(data_dir, "SKU-100") == 12
    assert todos(data_dir) == ["Ship 2 x SKU-100"]  # the other call still ran


def test_empty_stdin_exits_cleanly(data_dir: Path) -> None:
    result = run_bot([], data_dir, script=[])
    assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert "support-bot · step final" in result.stderr
    assert (data_dir / DB_FILENAME).exists()


def test_slash_commands_in_a_pipe(data_dir: Path) -> None:
    stdin = "/help\n/tools\n/nope\n/history\n/new\n/quit\nnever read\n"
    result = run_bot(["--step", "step1"], data_dir, script=[], stdin=stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for command in ("/tools", "/history", "/new", "/exit"):
        assert command in out
    assert "current_datetime" in out
    assert "Unknown command /nope" in out
    assert "(no messages yet)" in out
    assert "New conversation c-" in out
    assert "Step 1" in result.stderr


def test_tools_marks_the_one_that_asks_first(data_dir: Path) -> None:
    result = run_bot([], data_dir, script=[], stdin="/tools\n")
    assert "product_reserve (asks first)" in result.stdout
    assert result.stdout.count("(asks first)") == 1


@pytest.mark.parametrize("step", ["step1", "step2", "step3", "step4", "step5", "final"])
def test_every_step_runs_from_the_command_line(data_dir: Path, step: str) -> None:
    result = run_bot(["ask", "hello", "--step", step], data_dir, script=["Hello! How can I help?"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Hello! How can I help?"


def test_conversation_is_resumed_by_id(data_dir: Path) -> None:
    run_bot(["ask", "remember SKU-200", "--conversation", "c-1"], data_dir, script=["Noted."])
    result = run_bot(
        [],
        data_dir,
        script=[],
        stdin="/history\n",
    )
    assert "remember SKU-200" not in result.stdout  # a new conversation by default
    result = run_bot(["--conversation", "c-1"], data_dir, script=[], stdin="/history\n")
    assert "you: remember SKU-200" in result.stdout
    assert "bot: Noted." in result.stdout


def test_unavailable_model_is_one_sentence_and_exit_2(data_dir: Path) -> None:
    script = [{"error": "unavailable", "message": "The model server is down; start it."}]
    result = run_bot(["ask", "hi"], data_dir, script=script)
    assert result.returncode == 2
    assert result.stderr.strip() == "support-bot: The model server is down; start it."


def test_unreachable_server_names_what_to_start(data_dir: Path) -> None:
    result = run_bot(["ask", "hi", "--model", "openai-compatible:http://127.0.0.1:9/v1"], data_dir)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "127.0.0.1:9" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unknown_model_uri_is_explained(data_dir: Path) -> None:
    result = run_bot(["ask", "hi", "--model", "nonsense"], data_dir)
    assert result.returncode == 2
    assert "check --model" in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_model_file_is_explained(data_dir: Path, tmp_path: Path) -> None:
    result = run_bot(["ask", "hi", "--model", f"llamacpp:{tmp_path / 'missing.gguf'}"], data_dir)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "missing.gguf" in result.stderr


def test_a_damaged_database_is_explained_and_kept(data_dir: Path) -> None:
    data_dir.mkdir()
    db = data_dir / DB_FILENAME
    db.write_bytes(b"not a database" * 64)
    result = run_bot(["ask", "hi"], data_dir, script=["never"])
    assert result.returncode == 3
    assert str(db) in result.stderr
    assert "damaged" in result.stderr
    assert "Traceback" not in result.stderr
    assert db.read_bytes() == b"not a database" * 64


def test_data_dir_option_wins_over_the_environment(data_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    result = run_bot(["ask", "hi", "--data-dir", str(other)], data_dir, script=["hi"])
    assert result.returncode == 0, result.stderr
    assert (other / DB_FILENAME).exists()
    assert not (data_dir / DB_FILENAME).exists()


def test_bad_threads_value_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--threads", "0"])
    assert info.value.code == 2
    assert "--threads must be at least 1" in capsys.readouterr().err


def test_a_broken_memory_table_is_explained(data_dir: Path) -> None:
    assert run_bot(["ask", "hi"], data_dir, script=["hi"]).returncode == 0
    with sqlite3.connect(data_dir / DB_FILENAME) as conn:
        conn.execute("DROP TABLE springtail_chat_memory")
        conn.execute("CREATE TABLE springtail_chat_memory (x)")
    result = run_bot(["ask", "hi"], data_dir, script=["hi"])
    assert result.returncode == 3
    assert str(data_dir / DB_FILENAME) in result.stderr
    assert "Traceback" not in result.stderr


# -- options before or after the subcommand, as git and pip take them ----------


def test_options_before_the_subcommand_work(data_dir: Path) -> None:
    result = run_bot(
        ["--yes", "--show-tools", "ask", "Reserve 2 units of SKU-100 and add that as a to-do"],
        data_dir,
        script=RESERVE_SCRIPT,
    )
    assert result.returncode == 0, result.stderr
    assert "approved product_reserve" in result.stderr
    assert stock(data_dir, "SKU-100") == 10


@pytest.mark.parametrize(
    "argv",
    [
        ["--yes", "--step", "step2", "--threads", "3", "ask", "hi"],
        ["ask", "hi", "--yes", "--step", "step2", "--threads", "3"],
        ["--yes", "ask", "--step", "step2", "hi", "--threads", "3"],
        ["--step", "step1", "--threads", "9", "ask", "hi", "--yes", "--step", "step2"],
    ],
)
def test_parsed_options_are_the_same_wherever_they_stand(argv: list[str]) -> None:
    from support_bot.cli import _parser

    args = _parser().parse_args(argv)
    assert (args.request, args.yes, args.step) == ("hi", True, "step2")
    assert args.threads in (3, 9)


def test_an_option_before_the_subcommand_is_not_reset_by_its_defaults() -> None:
    from support_bot.cli import _parser

    args = _parser().parse_args(
        ["--model", "ollama:x", "--hide-tools", "--data-dir", "d", "ask", "q"]
    )
    assert (args.model, args.show_tools, args.data_dir) == ("ollama:x", False, Path("d"))
    defaults = _parser().parse_args(["ask", "q"])
    assert (defaults.model, defaults.show_tools, defaults.yes) == ("llamacpp:embedded", None, False)
    assert (defaults.step, defaults.conversation, defaults.data_dir) == ("final", None, None)


def test_every_subcommand_takes_the_common_options() -> None:
    from support_bot.cli import _parser, _subcommands

    names = [command.name for command in _subcommands()]
    assert "ask" in names
    for name in names:
        parser = _parser()
        extra = ["q"] if name == "ask" else []
        args, _ = parser.parse_known_args(["--yes", name, *extra, "--threads", "2"])
        assert (args.yes, args.threads) == (True, 2)


def test_the_chat_takes_the_options_without_a_subcommand() -> None:
    from support_bot.cli import _parser, _run_chat

    args = _parser().parse_args(["--yes", "--conversation", "c-7"])
    assert args.handler is _run_chat
    assert (args.yes, args.conversation) == (True, "c-7")


def test_bad_threads_after_the_subcommand_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["ask", "hi", "--threads", "0"])
    assert info.value.code == 2
    assert "--threads must be at least 1" in capsys.readouterr().err


# -- the data folder holds customer data: owner-only modes ---------------------


def file_mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_data_folder_is_0700_and_the_database_0600(data_dir: Path) -> None:
    old = os.umask(0o022)
    try:
        result = run_bot(["ask", "hi"], data_dir, script=["hi"])
    finally:
        os.umask(old)
    assert result.returncode == 0, result.stderr
    assert file_mode(data_dir) == 0o700
    files = [p for p in data_dir.iterdir() if p.name.startswith(DB_FILENAME)]
    assert files
    assert all(file_mode(p) == 0o600 for p in files), [(p.name, oct(file_mode(p))) for p in files]


def test_the_step5_log_is_0600(data_dir: Path) -> None:
    old = os.umask(0o022)
    try:
        result = run_bot(["--step", "step5", "ask", "hi"], data_dir, script=["hi"])
    finally:
        os.umask(old)
    assert result.returncode == 0, result.stderr
    log = data_dir / "support-bot.log"
    assert "hi" in log.read_text()
    assert file_mode(log) == 0o600


# -- arguments that are not UTF-8 ----------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--conversation", "c-\udcff", "ask", "hi"],
        ["ask", "hi", "--conversation", "c-\udcff"],
        ["--conversation", "c-\udcff"],
    ],
)
def test_a_conversation_id_that_is_not_utf8_is_one_sentence(
    data_dir: Path, args: list[str]
) -> None:
    result = run_bot(args, data_dir, script=["never"], stdin="hello\n")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        "support-bot: --conversation 'c-\\xff' is not valid UTF-8 text; give it again in "
        "UTF-8 (a conversation id such as c-1a2b3c)."
    )


def test_a_request_that_is_not_utf8_is_one_sentence(data_dir: Path) -> None:
    result = run_bot(["ask", "hi \udcfe there"], data_dir, script=["never"])
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "The request 'hi \\xfe there' is not valid UTF-8 text" in result.stderr


def test_a_resumed_conversation_asks_again_for_its_pending_reservation(data_dir: Path) -> None:
    """The chat killed at the approval question; ``--conversation ID`` asks it again."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUPPORT_BOT_")}
    script = data_dir.parent / "script-pause.json"
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(json.dumps(RESERVE_SCRIPT[:1]))
    env |= {"SUPPORT_BOT_SCRIPT": str(script), "SUPPORT_BOT_DATA_DIR": str(data_dir)}
    command = [sys.executable, "-m", "support_bot", "--conversation", "c-kept"]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env
    ) as chat:
        assert chat.stdin is not None
        assert chat.stderr is not None
        chat.stdin.write(b"Reserve 2 units of SKU-100 and add that as a to-do\n")
        chat.stdin.flush()
        seen = b""
        deadline = time.monotonic() + 60
        while b"Allow product_reserve" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([chat.stderr], [], [], 1)
            if ready:
                seen += os.read(chat.stderr.fileno(), 4096)
        assert b"Allow product_reserve" in seen, seen
        chat.send_signal(signal.SIGKILL)
        chat.wait(timeout=30)
    assert stock(data_dir, "SKU-100") == 12
    assert todos(data_dir) == ["Ship 2 x SKU-100"]

    stdin = "y\n/exit\n"
    result = run_bot(["--conversation", "c-kept"], data_dir, script=RESERVE_SCRIPT[1:], stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert 'Allow product_reserve(sku="SKU-100", quantity=2)? [y/N] y' in result.stderr
    assert "Reserved 2 units of SKU-100 and added the to-do." in result.stdout
    assert stock(data_dir, "SKU-100") == 10
    assert todos(data_dir) == ["Ship 2 x SKU-100"]  # the to-do was added once


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"support-bot {version('springtail')}\n"


def test_each_help_lists_only_the_options_its_command_accepts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from support_bot.cli import _subcommands

    for command in _subcommands():
        with pytest.raises(SystemExit):
            main([command.name, "--help"])
        shown = capsys.readouterr().out
        assert "``" not in shown
        assert "--data-dir" in shown
        for dest in command.refuses:
            option = "--show-tools" if dest == "show_tools" else f"--{dest}"
            assert option not in shown, (command.name, option)
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--hide-tools" in capsys.readouterr().out  # the chat takes them all


def run_without(
    modules: Sequence[str], args: Sequence[str], data_dir: Path
) -> subprocess.CompletedProcess[str]:
    """``support-bot ARGS`` in a process where ``modules`` cannot be imported: an extra left out."""
    code = (
        "import sys\n"
        f"for name in {list(modules)!r}:\n"
        "    sys.modules[name] = None\n"
        "from support_bot.cli import main\n"
        f"sys.exit(main({list(args)!r}))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SUPPORT_BOT_")}
    env["SUPPORT_BOT_DATA_DIR"] = str(data_dir)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("modules", "args", "extra"),
    [
        (["starlette", "sse_starlette", "uvicorn"], ["serve", "--model", "scripted:demo"], "serve"),
        (["mcp"], ["mcp"], "mcp"),
        (
            ["psycopg", "psycopg_pool"],
            ["serve", "--model", "scripted:demo", "--database", "postgresql://u@127.0.0.1:1/db"],
            "postgres",
        ),
    ],
)
def test_a_missing_extra_is_one_sentence_with_its_install_command(
    data_dir: Path, modules: list[str], args: list[str], extra: str
) -> None:
    result = run_without(modules, args, data_dir)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("support-bot: ")
    assert f"pip install 'springtail[{extra}]'" in result.stderr
    assert result.stdout == ""


def test_the_demo_model_answers_ask_without_any_model(data_dir: Path) -> None:
    result = run_bot(["--model", "scripted:demo", "ask", "What is 128 times 32?"], data_dir)
    assert result.returncode == 0, result.stderr
    assert "4096" in result.stdout
    after = run_bot(["ask", "--model", "scripted:demo", "hello"], data_dir)
    assert (after.returncode, after.stdout) == (0, "You said: hello\n")


def test_the_demo_model_runs_the_chat(data_dir: Path) -> None:
    result = run_bot(["--model", "scripted:demo"], data_dir, stdin="reserve 1 of SKU-100\ny\n")
    assert result.returncode == 0, result.stderr
    assert "Done: Reserved 1 unit(s) of SKU-100" in result.stdout
