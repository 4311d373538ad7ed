"""Framework-controlled tool calling: give the client tools, it runs the loop.

The ChatClient sees tools and no ToolCallingAdvisor, so it adds one: every
tool call the model asks for runs, its result goes back to the model, and
you get the final answer. Streaming shows each tool call as it runs.

    python examples/framework_controlled.py                 # scripted model, runs anywhere
    python examples/framework_controlled.py --model llamacpp:embedded
"""

from __future__ import annotations

import argparse
import json
from decimal import Decimal
from typing import Annotated, Literal

from springtail import (
    AssistantMessage,
    ChatClient,
    ChatModel,
    Param,
    Prompt,
    ScriptedChatModel,
    TextDelta,
    ToolCall,
    ToolCallFinished,
    ToolCallStarted,
    ToolResponseMessage,
    from_uri,
    tool,
)

QUESTION = "What is 128 times 32?"


class CalculatorTools:
    @tool(name="calculate", description="Apply add, subtract, multiply or divide to two numbers.")
    def calculate(
        self,
        operation: Annotated[Literal["add", "subtract", "multiply", "divide"], Param("Operation")],
        left: Annotated[Decimal, Param("First number")],
        right: Annotated[Decimal, Param("Second number")],
    ) -> str:
        ops = {
            "add": left + right,
            "subtract": left - right,
            "multiply": left * right,
            "divide": left / right,
        }
        return str(ops[operation])


def scripted_model() -> ScriptedChatModel:
    """Plays the model's part: asks for the calculator, then answers with its result."""

    def ask_tool(prompt: Prompt) -> AssistantMessage:
        args = {"operation": "multiply", "left": 128, "right": 32}
        return AssistantMessage("", (ToolCall("call-1", "calculate", json.dumps(args)),))

    def answer(prompt: Prompt) -> str:
        last = prompt.messages[-1]
        assert isinstance(last, ToolResponseMessage)
        return f"128 times 32 is {last.responses[0].response_data}."

    # Two turns: one for call(), one for stream().
    return ScriptedChatModel([ask_tool, answer, ask_tool, answer])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a model URI for springtail.models.from_uri")
    args = parser.parse_args(argv)
    model: ChatModel = from_uri(args.model) if args.model else scripted_model()

    client = ChatClient(
        model,
        system="You are a careful assistant. Use the calculate tool for arithmetic.",
        tools=[CalculatorTools()],
    )

    print("call():", client.prompt(QUESTION).call().content())

    print("stream():", end=" ")
    for event in client.prompt(QUESTION).stream().events():
        if isinstance(event, ToolCallStarted):
            print(f"\n  [tool] {event.tool_name}({event.arguments})", end="")
        elif isinstance(event, ToolCallFinished):
            print(f" -> {event.result} in {event.duration_s * 1000:.1f} ms\n ", end="")
        elif isinstance(event, TextDelta):
            print(event.text, end="", flush=True)
    print()


if __name__ == "__main__":
    main()
