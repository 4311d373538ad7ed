"""A library user's program, for tests that pause a turn in one process and resume it in another.

    python approval_process.py DB pause CONVERSATION [--hang]
    python approval_process.py DB approve CONVERSATION CALL_ID

``pause`` asks for a reservation (which needs approval) and a stock lookup;
the turn pauses with the reservation waiting, the program prints
``PAUSED <call id>`` and exits, or with ``--hang`` waits to be killed.
``approve`` resumes the turn from the same SQLite file in a fresh process
and prints the answer. The reservation writes a row to the file's
``reservations`` table, so a test can count how often it really ran.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time

from springtail import (
    AssistantMessage,
    ChatClient,
    ChatMemory,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    Prompt,
    ScriptedChatModel,
    SqliteChatMemoryRepository,
    ToolCall,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolResponseMessage,
    defer_approval,
    tool,
)

DB = sys.argv[1]


@tool(requires_approval=True)
def reserve(sku: str, quantity: int) -> str:
    """Reserve units of a product."""
    with sqlite3.connect(DB) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS reservations (sku TEXT, quantity INTEGER)")
        conn.execute("INSERT INTO reservations VALUES (?, ?)", (sku, quantity))
    return f"Reserved {quantity} of {sku}"


@tool
def lookup(sku: str) -> str:
    """Stock of a product."""
    return f"{sku}: 12 in stock"


def answer(prompt: Prompt) -> str:
    last = prompt.messages[-1]
    assert isinstance(last, ToolResponseMessage)
    return "Done: " + "; ".join(r.response_data for r in last.responses)


def client(model: ScriptedChatModel) -> ChatClient:
    memory = MessageWindowChatMemory(SqliteChatMemoryRepository(DB), max_messages=20)
    manager = ToolCallingManager(approver=defer_approval, approval_timeout=600)
    return ChatClient(
        model,
        tools=[reserve, lookup],
        advisors=[MessageChatMemoryAdvisor(memory), ToolCallingAdvisor(manager)],
    )


def main() -> None:
    command, conversation = sys.argv[2], sys.argv[3]
    if command == "pause":
        calls = (
            ToolCall("call-lookup", "lookup", json.dumps({"sku": "SKU-1"})),
            ToolCall("call-reserve", "reserve", json.dumps({"sku": "SKU-1", "quantity": 2})),
        )
        model = ScriptedChatModel([AssistantMessage("", calls)])
        response = (
            client(model)
            .prompt("Check SKU-1 and reserve 2")
            .advisor_param(ChatMemory.CONVERSATION_ID, conversation)
            .call()
        )
        print("PAUSED", *(p.id for p in response.pending_approvals()), flush=True)
        if "--hang" in sys.argv:
            time.sleep(600)
    elif command == "approve":
        call_id = sys.argv[4]
        spec = client(ScriptedChatModel([answer])).prompt().approve(call_id)
        print(
            "ANSWER", spec.advisor_param(ChatMemory.CONVERSATION_ID, conversation).call().content()
        )


if __name__ == "__main__":
    main()
