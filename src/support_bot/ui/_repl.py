"""The chat loop and its slash commands."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from springtail import (
    AssistantMessage,
    Message,
    ModelError,
    ModelUnavailableError,
    SystemMessage,
    ToolResponseMessage,
    UserMessage,
)
from support_bot.steps import Step
from support_bot.steps.final import FinalStep
from support_bot.ui._reporter import ConsoleReporter, short

__all__ = ["COMMANDS", "new_conversation_id", "run_chat"]

COMMANDS: dict[str, str] = {
    "/help": "show these commands",
    "/tools": "list the tools the model may call",
    "/history": "show this conversation",
    "/new": "start a new conversation",
    "/exit": "leave (also /quit, Ctrl-D)",
}

PROMPT = "you> "


def new_conversation_id() -> str:
    """A short id that is easy to type back with ``--conversation``."""
    return f"c-{secrets.token_hex(3)}"


def _describe(message: Message) -> str:
    if isinstance(message, UserMessage):
        return f"you: {message.text}"
    if isinstance(message, AssistantMessage):
        calls = ", ".join(f"{c.name}({c.arguments})" for c in message.tool_calls)
        text = message.text.strip()
        if calls and text:
            return f"bot: {text} [calls {calls}]"
        return f"bot: calls {calls}" if calls else f"bot: {text}"
    if isinstance(message, ToolResponseMessage):
        return "\n".join(f"tool {r.name}: {short(r.response_data)}" for r in message.responses)
    if isinstance(message, SystemMessage):
        return f"system: {short(message.text)}"
    return str(message)


def _show_tools(step: Step, console: Console) -> None:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("tool")
    table.add_column("what it does")
    for callback in step.tools:
        definition = callback.tool_definition
        name = definition.name
        if getattr(callback, "requires_approval", False):
            name += " (asks first)"
        server = getattr(callback, "server", None)  # a tool of an MCP server (--mcp)
        if isinstance(server, str):
            name += f" (MCP server {server})"
        table.add_row(name, definition.description)
    console.print(table)


def _command(line: str, step: Step, console: Console) -> bool:
    """Run a slash command; ``False`` means leave the chat."""
    word = line.split()[0].lower()
    if word in ("/exit", "/quit"):
        return False
    if word == "/help":
        for name, text in COMMANDS.items():
            console.print(f"  {name:<9} {text}", highlight=False)
    elif word == "/tools":
        _show_tools(step, console)
    elif word == "/history":
        messages = step.history()
        if not messages:
            console.print("  (no messages yet)")
        for message in messages:
            console.print(f"  {_describe(message)}", highlight=False, markup=False)
    elif word == "/new":
        conversation_id = new_conversation_id()
        step.new_conversation(conversation_id)
        console.print(f"  New conversation {conversation_id}.", highlight=False)
    else:
        console.print(f"  Unknown command {word}; type /help for the list.", highlight=False)
    return True


def run_chat(
    step: Step,
    reporter: ConsoleReporter,
    read_line: Callable[[str], str | None],
    console: Console,
    *,
    prompt: str = PROMPT,
) -> int:
    """Read requests until ``/exit`` or end of input; returns the exit code (0).

    A model failure that leaves the model usable (a bad reply) is reported
    and the chat goes on; an unavailable model or a store failure ends it,
    in the caller, with one sentence.
    """
    # The model evaluates the prompt's start while the user types; leaving the
    # chat stops that instead of waiting for it.
    warming = step.warm_up() if isinstance(step, FinalStep) else None
    try:
        return _answer_lines(step, reporter, read_line, console, prompt)
    finally:
        if warming is not None:
            warming.cancel()


def _answer_lines(
    step: Step,
    reporter: ConsoleReporter,
    read_line: Callable[[str], str | None],
    console: Console,
    prompt: str,
) -> int:
    if isinstance(step, FinalStep):
        # A conversation resumed with --conversation may wait for a decision: ask it first.
        _turn(step.resume_pending, reporter, console)
    while True:
        line = read_line(prompt)
        if line is None:
            return 0
        line = line.strip()
        if not line:
            continue
        if line.startswith("/"):
            if not _command(line, step, console):
                return 0
            continue
        _turn(functools.partial(step.ask, line), reporter, console)


def _turn(run: Callable[[], object], reporter: ConsoleReporter, console: Console) -> None:
    """One turn on screen; a model's bad reply or Ctrl-C ends it, not the chat."""
    reporter.begin_turn()
    try:
        run()
    except ModelUnavailableError:
        raise
    except ModelError as exc:
        reporter.end_turn()
        console.print(f"  The model failed: {exc} Try again or rephrase.", highlight=False)
        return
    except KeyboardInterrupt:
        reporter.end_turn()
        console.print("  (interrupted)")
        return
    reporter.end_turn()
