"""Approvals that wait for a person: a turn pauses, the program ends, a later run resumes it.

The reservation tool needs approval. Its approver defers every call to a
person (``approver=defer_approval``), so the turn ends with the call waiting
and the chat memory (an SQLite file) keeps it. Run the program again, an
hour later or on another machine sharing the file, to decide:

    python examples/approvals.py ask "Check SKU-100 and reserve 2 units"
    python examples/approvals.py pending
    python examples/approvals.py approve CALL_ID
    python examples/approvals.py deny CALL_ID --reason "not today"

``--db FILE`` picks the file (default approvals.db here), ``--model URI`` a
real model (default: a scripted one that needs no download). The same
decision sent twice runs the call once: the second gets "nothing waits".
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from pathlib import Path

from springtail import (
    ApprovalConflictError,
    ApprovalPendingError,
    AssistantMessage,
    ChatClient,
    ChatMemory,
    ChatModel,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    Prompt,
    ScriptedChatModel,
    SqliteChatMemoryRepository,
    ToolCall,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolResponseMessage,
    UserMessage,
    defer_approval,
    from_uri,
    tool,
)

DB = Path("approvals.db")


@tool(requires_approval=True)
def reserve_stock(sku: str, quantity: int) -> str:
    """Reserve units of a product for the customer.

    Args:
        sku: The product code, such as SKU-100.
        quantity: How many units to reserve.
    """
    with sqlite3.connect(DB) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS reservations (sku TEXT, quantity INTEGER)")
        conn.execute("INSERT INTO reservations VALUES (?, ?)", (sku, quantity))
        (total,) = conn.execute("SELECT count(*) FROM reservations").fetchone()
    return f"Reserved {quantity} of {sku} (reservation #{total})"


@tool
def check_stock(sku: str) -> str:
    """How many units of a product are in stock.

    Args:
        sku: The product code, such as SKU-100.
    """
    return f"{sku}: 12 in stock"


def scripted_reply(prompt: Prompt) -> AssistantMessage | str:
    """Check and reserve what the user asks for; report the tools' answers."""
    last = prompt.messages[-1] if prompt.messages else None
    if isinstance(last, ToolResponseMessage):
        return "Done: " + "; ".join(r.response_data for r in last.responses)
    text = last.text if isinstance(last, UserMessage) else ""
    found = re.search(r"SKU-\d+", text)
    sku = found[0] if found else "SKU-100"
    number = re.search(r"\d+", text.replace(sku, ""))
    quantity = int(number[0]) if number else 1
    return AssistantMessage(
        "",
        (
            ToolCall("call-check", "check_stock", json.dumps({"sku": sku})),
            ToolCall(
                "call-reserve", "reserve_stock", json.dumps({"sku": sku, "quantity": quantity})
            ),
        ),
    )


def build_client(model: ChatModel) -> ChatClient:
    memory = MessageWindowChatMemory(SqliteChatMemoryRepository(DB), max_messages=20)
    manager = ToolCallingManager(approver=defer_approval, approval_timeout=24 * 3600)
    return ChatClient(
        model,
        system="You help a shop clerk check and reserve stock with the tools.",
        tools=[reserve_stock, check_stock],
        advisors=[MessageChatMemoryAdvisor(memory), ToolCallingAdvisor(manager)],
    )


def main(argv: list[str] | None = None) -> int:
    global DB
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["ask", "pending", "approve", "deny"])
    parser.add_argument("argument", nargs="?", help="the request (ask) or the call id")
    parser.add_argument("--reason", help="why a call is denied (the model reads it)")
    parser.add_argument("--db", type=Path, default=DB)
    parser.add_argument("--conversation", default="demo")
    parser.add_argument("--model", help="a model URI for springtail.models.from_uri")
    args = parser.parse_args(argv)
    DB = args.db
    model = from_uri(args.model) if args.model else ScriptedChatModel([scripted_reply] * 4)
    client = build_client(model)

    if args.command == "pending":
        paused = MessageWindowChatMemory(SqliteChatMemoryRepository(DB)).paused_turn(
            args.conversation
        )
        for call in paused.pending if paused else ():
            print(f"{call.id}: {call.name}({call.arguments}) waits until {call.deadline}")
        if paused is None:
            print("Nothing waits for approval.")
        return 0

    spec = client.prompt()
    if args.command == "ask":
        spec = client.prompt(args.argument or "Check SKU-100 and reserve 2 units")
    elif args.command == "approve":
        spec = spec.approve(args.argument)
    else:
        spec = spec.deny(args.argument, message=args.reason)
    try:
        response = spec.advisor_param(ChatMemory.CONVERSATION_ID, args.conversation).call()
    except (ApprovalConflictError, ApprovalPendingError) as exc:
        print(exc, file=sys.stderr)
        return 1
    if response.content():
        print(response.content())
    for call in response.pending_approvals():
        print(f"Waiting for approval: {call.id} {call.name}({call.arguments})")
        print(f"  decide with: python {sys.argv[0]} approve {call.id}   (or deny {call.id})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
