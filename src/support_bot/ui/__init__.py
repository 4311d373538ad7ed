"""The terminal front end: input, drawing a turn, the chat loop."""

from support_bot.ui._input import PlainLineReader, PromptLineReader, TerminalLineReader
from support_bot.ui._repl import COMMANDS, new_conversation_id, run_chat
from support_bot.ui._reporter import ConsoleReporter

__all__ = [
    "COMMANDS",
    "ConsoleReporter",
    "PlainLineReader",
    "PromptLineReader",
    "TerminalLineReader",
    "new_conversation_id",
    "run_chat",
]
