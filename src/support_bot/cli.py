"""``support-bot``: the chat, ``support-bot ask "..."`` for one answer, and clear failures.

Exit codes: 0 done; 1 a model reply failed (``ask``); 2 the model is
unavailable, or the ``--model`` value or another argument is wrong; 3 the database cannot be used;
4 an ``--mcp`` server cannot be used; 130 interrupted. Every failure is one
sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.text import Text

import springtail
from springtail import ChatMemoryError, ModelError, ModelUnavailableError, ToolCallback
from support_bot._extras import MissingExtraError, extra_for
from support_bot._files import private_file
from support_bot._mcp_tools import McpSetupError, mcp_tools
from support_bot._model import DEFAULT_MODEL_URI, build_model
from support_bot._store import Store, StoreError
from support_bot._tool_search import plan_tool_search
from support_bot.steps import STEPS, SYSTEM_PROMPT, Step, StepEnv, build_step
from support_bot.tool_names import ALL_TOOL_NAMES
from support_bot.tools import all_tools
from support_bot.ui._input import PlainLineReader, PromptLineReader, TerminalLineReader
from support_bot.ui._repl import new_conversation_id, run_chat
from support_bot.ui._reporter import ConsoleReporter

__all__ = ["Subcommand", "main"]

HISTORY_FILENAME = "input-history"

EXIT_OK = 0
EXIT_MODEL_REPLY = 1
EXIT_MODEL_UNAVAILABLE = 2
EXIT_STORE = 3
EXIT_MCP = 4
EXIT_USAGE = 2  # argparse's code for a bad command line
EXIT_INTERRUPTED = 130


def _add_options(
    parser: argparse.ArgumentParser, *, defaults: bool, hidden: Collection[str] = ()
) -> None:
    """The options every command takes, before or after its subcommand.

    They are added twice: to the top parser with their defaults, and to each
    subcommand's parser with ``argparse.SUPPRESS`` defaults. argparse copies
    every value a subparser holds over the top parser's namespace, so a real
    default there would undo ``support-bot --yes ask ...``; a suppressed one
    is simply absent unless the option is given after the subcommand.

    ``hidden`` names (by ``dest``) the common options a subcommand refuses:
    its ``--help`` leaves them out, yet they are still parsed, so that the
    subcommand can refuse them in one sentence that says why.
    """

    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    def shown(dest: str, text: str) -> str:
        return argparse.SUPPRESS if dest in hidden else text

    parser.add_argument(
        "--model",
        default=default(DEFAULT_MODEL_URI),
        metavar="URI",
        help=shown(
            "model",
            "chat model: llamacpp:embedded (default), llamacpp:embedded-small, "
            "scripted:demo (rule-based, no model to load), ollama:qwen3.5:4b, "
            "openai:gpt-4o-mini, openai-compatible:http://127.0.0.1:8080/v1, anthropic:MODEL",
        ),
    )
    parser.add_argument(
        "--conversation",
        default=default(None),
        metavar="ID",
        help=shown("conversation", "conversation id to resume (final step)"),
    )
    parser.add_argument(
        "--step",
        choices=list(STEPS),
        default=default("final"),
        help=shown("step", "which way of running tools"),
    )
    parser.add_argument(
        "--yes",
        action="store_true",
        default=default(False),
        help=shown("yes", "approve every tool that asks (product_reserve)"),
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=default(None),
        metavar="DIR",
        help="folder of support-bot.db (default: $SUPPORT_BOT_DATA_DIR or the user data folder)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=default(None),
        metavar="N",
        help=shown("threads", "CPU threads for the embedded model"),
    )
    parser.add_argument(
        "--mcp",
        type=Path,
        default=default(None),
        metavar="FILE",
        help=shown(
            "mcp", 'add the tools of the MCP servers in FILE ({"mcpServers": {...}}) to the chat'
        ),
    )
    show_tools = parser.add_mutually_exclusive_group()
    show_tools.add_argument(
        "--show-tools",
        dest="show_tools",
        action="store_true",
        default=default(None),
        help=shown(
            "show_tools", "print a line per tool call (default in the chat; on stderr for ask)"
        ),
    )
    show_tools.add_argument(
        "--hide-tools",
        dest="show_tools",
        action="store_false",
        default=default(None),
        help=shown("show_tools", "print no line per tool call"),
    )


@dataclass(frozen=True, kw_only=True)
class Subcommand:
    """One ``support-bot NAME ...`` command.

    Attributes:
        name: The word after ``support-bot``.
        help: One line for ``support-bot --help``.
        add_arguments: Adds the command's own arguments to its parser; the
            common options (``--model``, ``--data-dir``, ...) are already there
            and are accepted before or after ``NAME`` alike.
        run: Runs the command with the parsed namespace and returns the exit
            code. It may raise the errors ``main`` turns into one sentence
            (``ModelUnavailableError``, ``StoreError``, ``ChatMemoryError``,
            ``ModelError``, ``KeyboardInterrupt``).
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    refuses: tuple[str, ...] = ()
    """Common options (by ``dest``) the command has no use for: its ``--help`` leaves them
    out, and ``run`` refuses them in one sentence, wherever they stand."""


def _add_ask_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("request", help="what to ask, in quotes")


def _run_ask(args: argparse.Namespace) -> int:
    with mcp_tools(args.mcp, taken=ALL_TOOL_NAMES) as extra_tools:
        return _run(args, request=args.request, extra_tools=extra_tools)


ASK = Subcommand(
    name="ask",
    help="answer one request on stdout and exit",
    add_arguments=_add_ask_arguments,
    run=_run_ask,
)


def _subcommands() -> list[Subcommand]:
    """Every subcommand, in ``--help`` order.

    To add one (``mcp``, ``serve``): define a ``Subcommand`` in its own module
    and add it to this list, importing it here, inside the function, so that a
    plain ``support-bot`` does not import it. Keep that module's top-level
    imports light: its parser is built on every start.
    """
    from support_bot._mcp import (
        CHAT_ONLY as MCP_REFUSES,
        add_arguments as add_mcp_arguments,
        run as run_mcp,
    )
    from support_bot.serve._command import (
        CHAT_ONLY as SERVE_REFUSES,
        add_arguments as add_serve_arguments,
        run as run_serve,
    )

    serve = Subcommand(
        name="serve",
        help="run the chatbot as a web service (page, JSON API, streamed answers)",
        add_arguments=add_serve_arguments,
        run=run_serve,
        refuses=SERVE_REFUSES,
    )
    mcp = Subcommand(
        name="mcp",
        help="serve the bot's tools to MCP clients (stdio, or --http)",
        add_arguments=add_mcp_arguments,
        run=run_mcp,
        refuses=MCP_REFUSES,
    )
    return [ASK, serve, mcp]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="support-bot",
        description="A business-support chatbot that calls tools, on springtail.",
        epilog='One answer and exit: support-bot ask "What is 128 times 32?" [options]. '
        "Options go before or after the subcommand. In the chat, type /help for commands.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {springtail.__version__}")
    _add_options(parser, defaults=True)
    parser.set_defaults(handler=_run_chat)
    commands = parser.add_subparsers(
        title="commands",
        dest="command",
        metavar="COMMAND",
        help="without one, support-bot opens the chat",
    )
    for command in _subcommands():
        sub = commands.add_parser(
            command.name,
            help=command.help,
            description=command.help[:1].upper() + command.help[1:] + ".",
        )
        command.add_arguments(sub)
        _add_options(sub, defaults=False, hidden=command.refuses)
        sub.set_defaults(handler=command.run)
    return parser


def _fail(message: str, code: int) -> int:
    err = Console(stderr=True, highlight=False)
    err.print(f"support-bot: {message}", markup=False, soft_wrap=True)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chat or a subcommand (``ask``, ...); returns the exit code."""
    parser = _parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.threads is not None and args.threads < 1:
        parser.error("--threads must be at least 1")
    problem = _not_text(args)
    if problem is not None:
        return _fail(problem, EXIT_USAGE)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        return _fail("interrupted; nothing was lost.", EXIT_INTERRUPTED)
    except ModelUnavailableError as exc:
        return _fail(str(exc), EXIT_MODEL_UNAVAILABLE)
    except (StoreError, ChatMemoryError) as exc:
        return _fail(str(exc), EXIT_STORE)
    except ModelError as exc:
        return _fail(f"The model failed: {exc}", EXIT_MODEL_REPLY)
    except McpSetupError as exc:
        return _fail(str(exc), EXIT_MCP)
    except MissingExtraError as exc:
        return _fail(f"{exc}.", EXIT_USAGE)
    except ImportError as exc:
        extra = extra_for(exc)
        if extra is None:
            raise
        return _fail(f"{MissingExtraError(extra, _feature(args))}.", EXIT_USAGE)


def _feature(args: argparse.Namespace) -> str:
    """What the command line asked for, to start a sentence about what it needs."""
    command = getattr(args, "command", None)
    return f"support-bot {command}" if command else "The chat"


def _not_text(args: argparse.Namespace) -> str | None:
    """Say which argument is not valid UTF-8, if one is.

    On POSIX, argv bytes that are not UTF-8 arrive as lone surrogates (the
    byte 0xff as U+DCFF), which every store and model rejects later with a
    raw ``UnicodeEncodeError``.
    """
    for dest, value in vars(args).items():
        if not isinstance(value, str):
            continue
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(value).decode("utf-8", "backslashreplace")
            name = "The request" if dest == "request" else f"--{dest.replace('_', '-')}"
            hint = " (a conversation id such as c-1a2b3c)" if dest == "conversation" else ""
            return f"{name} '{shown}' is not valid UTF-8 text; give it again in UTF-8{hint}."
    return None


def _run_chat(args: argparse.Namespace) -> int:
    with mcp_tools(args.mcp, taken=ALL_TOOL_NAMES) as extra_tools:
        return _run(args, request=None, extra_tools=extra_tools)


def _run(
    args: argparse.Namespace, *, request: str | None, extra_tools: Sequence[ToolCallback] = ()
) -> int:
    asking = request is not None
    interactive = not asking and sys.stdin.isatty() and sys.stdout.isatty()
    out = Console(highlight=False) if interactive else Console(highlight=False, no_color=True)
    err = Console(stderr=True, highlight=False)
    show_tools = args.show_tools if args.show_tools is not None else not asking
    tools_out = (err if asking or not interactive else out) if show_tools else None

    store = Store.in_data_dir(args.data_dir)
    try:
        if interactive:
            with out.status("Loading the model…", spinner="dots"):
                model, label = build_model(args.model, threads=args.threads)
        else:
            model, label = build_model(args.model, threads=args.threads)
    except ValueError as exc:
        return _fail(f"{exc} (check --model)", EXIT_MODEL_UNAVAILABLE)

    # Too many tools for the model (a large --mcp server): the final step searches them.
    plan = None
    if extra_tools and args.step == "final":
        tools = [*all_tools(store), *extra_tools]
        plan = plan_tool_search(model, tools, system_prompt=SYSTEM_PROMPT)
    ask_user = TerminalLineReader() if sys.stdin.isatty() else PlainLineReader(echo=sys.stderr)
    reporter = ConsoleReporter(
        out, tools_out, interactive=interactive, approve_all=args.yes, read_line=ask_user
    )
    env = StepEnv(
        model=model,
        store=store,
        reporter=reporter,
        user_name=_user_name(),
        conversation_id=args.conversation or new_conversation_id(),
        data_dir=store.path.parent,
        extra_tools=tuple(extra_tools),
        tool_search=plan.search if plan is not None else None,
    )
    step = build_step(args.step, env)
    if request is not None:
        if plan is not None:
            err.print(Text(plan.notice), soft_wrap=True)
        return _ask(step, reporter, request)
    _banner(step, label, store, out if interactive else err)
    if plan is not None:
        (out if interactive else err).print(Text(plan.notice, style="dim"), soft_wrap=True)
    if interactive:
        history = store.path.parent / HISTORY_FILENAME
        private_file(history)  # what was typed, customers' details included
        read_line: Callable[[str], str | None] = PromptLineReader(history)
    else:
        read_line = PlainLineReader()
    return run_chat(step, reporter, read_line, out, prompt="you> ")


def _ask(step: Step, reporter: ConsoleReporter, request: str) -> int:
    reporter.begin_turn()
    try:
        step.ask(request)
    finally:
        reporter.end_turn()
    return EXIT_OK


def _banner(step: Step, label: str, store: Store, console: Console) -> None:
    title = Text("support-bot", style="bold")
    title.append(f" · step {step.name} · model {label} · data {store.path}", style="")
    console.print(title, soft_wrap=True)
    for line in [*step.intro, "Type a request, /help for commands, /exit to leave."]:
        console.print(Text(line, style="dim"), soft_wrap=True)


def _user_name() -> str:
    try:
        return os.environ.get("SUPPORT_BOT_USER") or getpass.getuser()
    except (KeyError, OSError):
        return "user"


if __name__ == "__main__":
    sys.exit(main())
