"""Step 5: every tool, ToolCallingAdvisor + SimpleLoggerAdvisor, streamed answer.

The logger sits inside the loop, so it records every model call of a turn;
its DEBUG lines go to ``support-bot.log`` in the data folder, keeping the
terminal for the conversation.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from springtail import ChatClient, Message, SimpleLoggerAdvisor, ToolCallback, ToolCallingAdvisor
from support_bot._files import private_file
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, make_manager
from support_bot.steps._turns import Transcript, stream_turn
from support_bot.tools import all_tools

__all__ = ["LOG_FILENAME", "Step5"]

LOG_FILENAME = "support-bot.log"


def _log_to(path: Path) -> None:
    logger = logging.getLogger("springtail.advisors")
    logger.setLevel(logging.DEBUG)
    for handler in logger.handlers:
        if isinstance(handler, logging.FileHandler) and Path(handler.baseFilename) == path:
            return
    private_file(path)  # the log holds the chat: readable by its owner only
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False


class Step5:
    """All tools, explicit advisors, streaming."""

    name = "step5"

    def __init__(self, env: StepEnv) -> None:
        self._env = env
        self._tools = [*all_tools(env.store), *env.extra_tools]
        self._log_path = env.data_dir / LOG_FILENAME
        _log_to(self._log_path)
        manager = make_manager(env, report_tools=False)  # the stream reports tool calls
        self._client = ChatClient(
            env.model,
            system=SYSTEM_PROMPT,
            tools=self._tools,
            advisors=[ToolCallingAdvisor(tool_calling_manager=manager), SimpleLoggerAdvisor()],
        )
        self._transcript = Transcript()
        self._conversation_id = env.conversation_id

    @property
    def tools(self) -> Sequence[ToolCallback]:
        """All thirteen tools."""
        return self._tools

    @property
    def intro(self) -> Sequence[str]:
        """What the step shows, and where the logger writes."""
        return [
            "Step 5 - all tools, ToolCallingAdvisor + SimpleLoggerAdvisor, streamed answer.",
            f"Every model call is logged to {self._log_path}",
        ]

    @property
    def conversation_id(self) -> str:
        """Handed to tools through the tool context; this step has no memory."""
        return self._conversation_id

    def ask(self, text: str) -> str:
        """One streamed request."""
        spec = self._client.prompt(text).tool_context(
            {"user_name": self._env.user_name, "conversation_id": self._conversation_id}
        )
        answer = stream_turn(spec, self._env.reporter)
        self._transcript.add(text, answer)
        return answer

    def history(self) -> list[Message]:
        """This session's exchanges."""
        return list(self._transcript.messages)

    def new_conversation(self, conversation_id: str) -> None:
        """Start over."""
        self._conversation_id = conversation_id
        self._transcript.clear()
