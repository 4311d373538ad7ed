"""User-controlled tool calling: run the loop yourself, with an approval step.

No ChatClient loop here: your code calls the ChatModel, looks at the tool
calls it asks for, decides which may run (here: asks you, or follows
``--approve``), runs the approved ones with a ToolCallingManager and answers
the others with a refusal the model can read. Use this when each step needs
a human or a policy in between.

    python examples/user_controlled.py --approve ask      # asks on the terminal
    python examples/user_controlled.py --approve yes
    python examples/user_controlled.py --approve no --model llamacpp:embedded
"""

from __future__ import annotations

import argparse
import json

from springtail import (
    AssistantMessage,
    ChatModel,
    ChatOptions,
    ChatResponse,
    Message,
    Prompt,
    ScriptedChatModel,
    SystemMessage,
    ToolCall,
    ToolCallingManager,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
    from_uri,
    tool,
    tool_callbacks,
)

RESERVED: dict[str, int] = {}


@tool
def reserve_stock(sku: str, quantity: int) -> str:
    """Reserve units of a product for the customer.

    Args:
        sku: The product code, such as SKU-100.
        quantity: How many units to reserve.
    """
    RESERVED[sku] = RESERVED.get(sku, 0) + quantity
    return f"Reserved {quantity} of {sku}"


def scripted_model() -> ScriptedChatModel:
    """Asks to reserve stock, then reports what the tool (or the refusal) said."""

    def ask(prompt: Prompt) -> AssistantMessage:
        args = json.dumps({"sku": "SKU-100", "quantity": 2})
        return AssistantMessage("", (ToolCall("call-1", "reserve_stock", args),))

    def report(prompt: Prompt) -> str:
        last = prompt.messages[-1]
        assert isinstance(last, ToolResponseMessage)
        return f"Result: {last.responses[0].response_data}"

    return ScriptedChatModel([ask, report])


def approve(call: ToolCall, mode: str) -> bool:
    if mode != "ask":
        return mode == "yes"
    reply = input(f"Run {call.name}({call.arguments})? [y/N] ")
    return reply.strip().lower() in {"y", "yes"}


def main(argv: list[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a model URI for springtail.models.from_uri")
    parser.add_argument("--approve", choices=["ask", "yes", "no"], default="ask")
    parser.add_argument("--max-steps", type=int, default=5)
    args = parser.parse_args(argv)
    model: ChatModel = from_uri(args.model) if args.model else scripted_model()

    manager = ToolCallingManager()
    options = ChatOptions(tool_callbacks=tuple(tool_callbacks(reserve_stock)))
    prompt = Prompt(
        [
            SystemMessage("You reserve stock for customers with the reserve_stock tool."),
            UserMessage("Please reserve 2 units of SKU-100."),
        ],
        options,
    )
    response = model.call(prompt)
    for _ in range(args.max_steps):
        if not response.has_tool_calls():
            break
        assistant = next(g.output for g in response.results if g.output.tool_calls)
        approved = [c for c in assistant.tool_calls if approve(c, args.approve)]
        answers: dict[str, ToolResponse] = {}
        if approved:
            # Run only the approved calls; the manager runs them concurrently.
            subset = ChatResponse.of(AssistantMessage(assistant.text, tuple(approved)))
            result = manager.execute_tool_calls(prompt, subset)
            last = result.conversation_history[-1]
            assert isinstance(last, ToolResponseMessage)
            answers = {r.id: r for r in last.responses}
        responses = tuple(
            answers.get(c.id)
            or ToolResponse(c.id, c.name, "The user did not approve this call.", is_error=True)
            for c in assistant.tool_calls
        )
        for r in responses:
            print(f"[tool] {r.name}: {r.response_data}")
        history: list[Message] = [*prompt.messages, assistant, ToolResponseMessage(responses)]
        prompt = prompt.with_messages(history)
        response = model.call(prompt)
    print(response.text)
    return response.text


if __name__ == "__main__":
    main()
