from __future__ import annotations

import io

from rich.console import Console

from support_bot.ui import ConsoleReporter
from support_bot.ui._reporter import short


def consoles(terminal: bool = False) -> tuple[Console, io.StringIO, Console, io.StringIO]:
    out_buf, err_buf = io.StringIO(), io.StringIO()
    out = Console(file=out_buf, force_terminal=terminal, width=100, highlight=False)
    err = Console(file=err_buf, force_terminal=False, width=200, highlight=False)
    return out, out_buf, err, err_buf


def test_short_keeps_one_line() -> None:
    assert short("a\n  b") == "a b"
    assert short("x" * 100, 10) == "x" * 9 + "…"


def test_plain_turn_writes_text_and_tool_lines() -> None:
    out, out_buf, err, err_buf = consoles()
    reporter = ConsoleReporter(
        out, err, interactive=False, approve_all=False, read_line=lambda p: None
    )
    reporter.begin_turn()
    reporter.thinking()
    reporter.text("Let me check.")
    reporter.tool_started("1", "product_lookup", '{"sku": "SKU-100"}')
    reporter.tool_finished("1", "product_lookup", "SKU-100 Workbook: 12 in stock", False, 0.25)
    reporter.text("There are 12.")
    reporter.end_turn()
    assert out_buf.getvalue() == "Let me check.\nThere are 12.\n"
    assert err_buf.getvalue() == (
        '  ✓ product_lookup(sku="SKU-100") 0.25s → SKU-100 Workbook: 12 in stock\n'
    )


def test_failed_calls_are_marked_and_hidden_tools_print_nothing() -> None:
    out, _, err, err_buf = consoles()
    reporter = ConsoleReporter(
        out, err, interactive=False, approve_all=False, read_line=lambda p: None
    )
    reporter.tool_started("1", "calculate", "not json")
    reporter.tool_finished("1", "calculate", "bad arguments", True, 0.0)
    assert err_buf.getvalue().startswith("  ✗ calculate(not json)")
    out2, out2_buf, _, _ = consoles()
    quiet = ConsoleReporter(
        out2, None, interactive=False, approve_all=False, read_line=lambda p: None
    )
    quiet.tool_started("1", "calculate", "{}")
    quiet.tool_finished("1", "calculate", "x", False, 0.0)
    assert out2_buf.getvalue() == ""  # --hide-tools: the answer console stays clean


def test_approval_asks_and_accepts_only_yes() -> None:
    out, _, err, err_buf = consoles()
    asked: list[str] = []
    answers = iter(["y", "YES", "n", "", None])

    def read(prompt: str) -> str | None:
        asked.append(prompt)
        return next(answers)

    reporter = ConsoleReporter(out, err, interactive=False, approve_all=False, read_line=read)
    verdicts = [
        reporter.approve("product_reserve", '{"sku": "SKU-100", "quantity": 2}') for _ in range(5)
    ]
    assert verdicts == [True, True, False, False, False]
    assert asked[0] == 'Allow product_reserve(sku="SKU-100", quantity=2)? [y/N] '
    assert "use --yes to approve" in err_buf.getvalue()


def test_yes_approves_without_asking_and_says_so() -> None:
    out, _, err, err_buf = consoles()

    def never(prompt: str) -> str | None:
        raise AssertionError("must not ask")

    reporter = ConsoleReporter(out, err, interactive=False, approve_all=True, read_line=never)
    assert reporter.approve("product_reserve", "{}")
    assert "approved product_reserve() (--yes)" in err_buf.getvalue()


def test_terminal_turn_renders_markdown() -> None:
    out, out_buf, _, _ = consoles(terminal=True)
    reporter = ConsoleReporter(
        out, out, interactive=True, approve_all=True, read_line=lambda p: None
    )
    reporter.begin_turn()
    reporter.thinking()
    reporter.tool_started("1", "todo_list", "{}")
    reporter.tool_finished("1", "todo_list", "empty", False, 0.01)
    for piece in ("Your ", "list is ", "**empty**."):
        reporter.text(piece)
    reporter.end_turn()
    screen = out_buf.getvalue()
    assert "todo_list()" in screen
    assert "**" not in screen
    assert "empty" in screen


def test_the_approval_wait_is_shown_apart_from_the_run_time() -> None:
    out, _, err, err_buf = consoles()
    reporter = ConsoleReporter(
        out, err, interactive=False, approve_all=True, read_line=lambda p: None
    )
    reporter.tool_started("1", "product_reserve", '{"sku": "SKU-100"}')
    reporter.tool_finished("1", "product_reserve", "reserved", False, 0.01, 24.51)
    assert err_buf.getvalue() == (
        '  ✓ product_reserve(sku="SKU-100") approved in 24.51s, ran 0.01s → reserved\n'
    )
