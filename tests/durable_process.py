"""A process that runs one durable one-tool turn, for test_durable_crash.py to kill -9.

``python durable_process.py SYSTEM_DB CHAT STATE_DIR BARRIER [FLAGS]`` (``--idempotent``,
``--approval``, ``--stream``)

- SYSTEM_DB: DBOS's system database URL (``sqlite:///…`` or ``postgresql://…``).
- CHAT: where the conversation is stored: a SQLite file path, or a
  ``postgresql://`` URL.
- STATE_DIR: the ``counts`` file gets a line per model call and tool run;
  ``at-BARRIER`` is written when the process reaches its barrier, and it then
  sleeps until it is killed.
- BARRIER: ``during_model1``, ``after_model1``, ``during_tool``, ``after_tool``,
  ``during_model2``; ``recover`` starts no turn: DBOS's launch recovers the
  unfinished one and the process prints its outcome as JSON; ``wait`` starts
  the turn and lets it wait (with ``--approval`` the tool needs a person's
  approval, which the turn waits for in the workflow). ``--stream`` streams the
  turn; the recovering process then also prints the kinds of its events.

The model is scripted by what it is asked (a prompt ending in the tool's
answer gets the final answer), so a recovered process that skips a replayed
model call still gets the right reply.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from dbos import DBOS, WorkflowHandle

from springtail import (
    ChatClient,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    PostgresChatMemoryRepository,
    SqliteChatMemoryRepository,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolContext,
    defer_approval,
    tool,
)
from springtail.durable import DurableChatClient, sqlite_system_database
from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    Prompt,
    ToolCall,
    ToolResponseMessage,
)
from springtail.models import ScriptedChatModel

CONVERSATION = "c1"
TURN = 1
ANSWER = "Milk is on the list."


def main(argv: list[str]) -> int:
    system_db, chat, state_dir, barrier = argv[:4]
    idempotent = "--idempotent" in argv
    approval = "--approval" in argv
    stream = "--stream" in argv
    state = Path(state_dir)

    def count(event: str) -> None:
        with open(state / "counts", "a") as out:
            out.write(event + "\n")
            out.flush()
            os.fsync(out.fileno())

    def wait_here(point: str) -> None:
        if barrier == point:
            (state / f"at-{point}").write_text(str(os.getpid()))
            while True:
                time.sleep(60)

    def reply(prompt: Prompt) -> AssistantMessage:
        last = prompt.messages[-1]
        if isinstance(last, ToolResponseMessage):
            response = last.responses[0]
            count("model2:interrupted" if response.is_error else "model2")
            wait_here("during_model2")
            return AssistantMessage(ANSWER)
        count("model1")
        wait_here("during_model1")
        return AssistantMessage("", (ToolCall("call-1", "add_todo", '{"title": "milk"}'),))

    @tool(description="Add a to-do.", idempotent=idempotent, requires_approval=approval)
    def add_todo(title: str, ctx: ToolContext) -> str:
        count(f"tool {ctx.idempotency_key}")
        wait_here("during_tool")
        return f"added {title}"

    class Barriers:
        def on_tool_start(self, call: Any, definition: Any) -> None:
            wait_here("after_model1")

        def on_tool_end(self, call: Any, definition: Any, response: Any, duration: float) -> None:
            wait_here("after_tool")

    repository: Any = (
        PostgresChatMemoryRepository(chat)
        if chat.startswith("postgresql://")
        else SqliteChatMemoryRepository(chat)
    )
    memory = MessageWindowChatMemory(repository)
    client = ChatClient(
        ScriptedChatModel([reply] * 4),
        tools=[add_todo],
        advisors=[
            MessageChatMemoryAdvisor(memory),
            ToolCallingAdvisor(
                ToolCallingManager(
                    listeners=[Barriers()], approver=defer_approval if approval else None
                )
            ),
        ],
    )
    if system_db.startswith("sqlite:///"):
        system_db = sqlite_system_database(system_db.removeprefix("sqlite:///"))
    DBOS(config={"name": "springtail-crash", "system_database_url": system_db})
    durable = DurableChatClient(client, name="crash")
    DBOS.launch()
    try:
        if barrier == "recover":
            handle: WorkflowHandle[ChatResponse] = DBOS.retrieve_workflow(f"{CONVERSATION}:{TURN}")
            response = handle.get_result()
        else:
            started = durable.start(
                "Add milk", conversation_id=CONVERSATION, turn=TURN, stream=stream
            )
            response = started.get_result()
        stored = [[type(m).__name__, getattr(m, "text", "")] for m in memory.get(CONVERSATION)]
        events = (
            [type(e).__name__ for e in durable.events(f"{CONVERSATION}:{TURN}")] if stream else []
        )
        print(json.dumps({"answer": response.text, "stored": stored, "events": events}))
    finally:
        DBOS.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
