"""Step 5: every tool, ToolCallingAdvisor + SimpleLoggerAdvisor, streamed answer.

The logger sits inside the loop, so it records every model call of a turn;
its DEBUG lines go to ``support-bot.log`` in the data folder, keeping the
terminal for the conversation.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from springtail import ChatClient, SimpleLoggerAdvisor, ToolCallingAdvisor
from springtail.client import ChatClientRequestSpec
from support_bot._files import private_file
from support_bot.steps._base import SYSTEM_PROMPT, StepEnv, make_manager
from support_bot.steps._stateless import StatelessStep
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


class Step5(StatelessStep):
    """All tools, explicit advisors, streaming."""

    name = "step5"
    streams = True

    def __init__(self, env: StepEnv) -> None:
        tools = [*all_tools(env.store), *env.extra_tools]
        self._log_path = env.data_dir / LOG_FILENAME
        _log_to(self._log_path)
        manager = make_manager(env, report_tools=False)  # the stream reports tool calls
        client = ChatClient(
            env.model,
            system=SYSTEM_PROMPT,
            tools=tools,
            advisors=[ToolCallingAdvisor(tool_calling_manager=manager), SimpleLoggerAdvisor()],
        )
        super().__init__(env, tools, client)

    @property
    def intro(self) -> Sequence[str]:
        """What the step shows, and where the logger writes."""
        return [
            "Step 5 - all tools, ToolCallingAdvisor + SimpleLoggerAdvisor, streamed answer.",
            f"Every model call is logged to {self._log_path}",
        ]

    def _request(self, text: str) -> ChatClientRequestSpec:
        """The tool context travels with the request."""
        return self._client.prompt(text).tool_context(self._tool_context())
