"""Advisor-controlled tool calling: place the ToolCallingAdvisor yourself.

The loop is an advisor like any other, so its ``order`` decides what runs
once per request (smaller order: outside the loop) and what runs on every
model call (larger order: inside it). Two set-ups are shown:

1. memory *outside* the loop (the default orders): the conversation
   remembers each question and final answer; the logger, inside the loop,
   logs every model call;
2. memory *inside* the loop: the conversation also remembers each tool call
   with its results, and the loop sends only the new tool results on each
   iteration (``conversation_history_enabled=False``), since the memory
   advisor supplies the rest.

    python examples/advisor_controlled.py
    python examples/advisor_controlled.py --model ollama:qwen3.5:4b
"""

from __future__ import annotations

import argparse
import json
import logging

from springtail import (
    HIGHEST_PRECEDENCE,
    AssistantMessage,
    ChatClient,
    ChatMemory,
    ChatModel,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    Prompt,
    ScriptedChatModel,
    SimpleLoggerAdvisor,
    ToolCall,
    ToolCallingAdvisor,
    ToolResponseMessage,
    UserMessage,
    from_uri,
    tool,
)

STOCK = {"SKU-100": 12, "SKU-200": 0}


@tool
def stock_level(sku: str) -> str:
    """How many units of a product are in stock.

    Args:
        sku: The product code, such as SKU-100.
    """
    if sku not in STOCK:
        raise ValueError(f"Unknown SKU {sku!r}; known: {', '.join(STOCK)}")
    return f"{STOCK[sku]} units of {sku} in stock"


def scripted_model() -> ScriptedChatModel:
    """Asks for the stock tool when a question names a SKU, then answers from its result."""

    def respond(prompt: Prompt) -> AssistantMessage | str:
        last = prompt.messages[-1]
        if isinstance(last, ToolResponseMessage):
            return f"There are {last.responses[0].response_data}."
        assert isinstance(last, UserMessage)
        for word in last.text.replace("?", " ").split():
            if word.startswith("SKU-"):
                args = json.dumps({"sku": word})
                return AssistantMessage("", (ToolCall("call-1", "stock_level", args),))
        asked = [m.text for m in prompt.messages if isinstance(m, UserMessage)]
        return f"So far you asked: {' | '.join(asked[:-1])}"

    return ScriptedChatModel([respond] * 6)


def show(title: str, memory: ChatMemory, conversation_id: str) -> None:
    print(f"  {title}:")
    for message in memory.get(conversation_id):
        print(f"    {message!r}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a model URI for springtail.models.from_uri")
    parser.add_argument("--debug", action="store_true", help="show the logger advisor's output")
    args = parser.parse_args(argv)
    if args.debug:
        logging.basicConfig(level=logging.DEBUG)
    model: ChatModel = from_uri(args.model) if args.model else scripted_model()
    memory = MessageWindowChatMemory(max_messages=20)

    print("1. Memory outside the loop")
    outside = (
        ChatClient.builder(model)
        .default_system("You answer stock questions with the stock_level tool.")
        .default_tools(stock_level)
        .default_advisors(
            MessageChatMemoryAdvisor(memory),  # HIGHEST_PRECEDENCE + 200: outside
            ToolCallingAdvisor(),  # HIGHEST_PRECEDENCE + 300: the loop
            SimpleLoggerAdvisor(),  # 0: inside, logs every model call
        )
        .build()
    )
    for question in ("How many SKU-100 are left?", "What did I ask?"):
        answer = outside.prompt(question).advisor_param(ChatMemory.CONVERSATION_ID, "outside")
        print(f"  Q: {question}\n  A: {answer.call().content()}")
    show("remembered", memory, "outside")

    print("2. Memory inside the loop")
    inside = ChatClient(
        model,
        system="You answer stock questions with the stock_level tool.",
        tools=[stock_level],
        advisors=[
            ToolCallingAdvisor(conversation_history_enabled=False),
            MessageChatMemoryAdvisor(memory, order=HIGHEST_PRECEDENCE + 1000),
        ],
    )
    for question in ("How many SKU-200 are left?", "What did I ask?"):
        answer = inside.prompt(question).advisor_param(ChatMemory.CONVERSATION_ID, "inside")
        print(f"  Q: {question}\n  A: {answer.call().content()}")
    show("remembered", memory, "inside")


if __name__ == "__main__":
    main()
