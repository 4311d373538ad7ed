"""pydantic-ai driven by a ``FunctionModel`` that replays the script."""

from __future__ import annotations

from importlib.metadata import version as _version
from typing import Any

from bench._scenarios import (
    PROMPT,
    SYSTEM,
    Script,
    add,
    add_async,
    final_text,
    history_pairs,
    slow_async,
    slow_blocking,
)
from bench._timing import Runner

NAME = "pydantic-ai"


def version() -> str:
    return _version("pydantic-ai-slim")


def build(scenario: str, script: Script) -> Runner:
    from pydantic_ai import Agent, Tool
    from pydantic_ai.messages import (
        ModelMessage,
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        step = script.next()
        if step is None:
            last = messages[-1]
            results = [
                str(p.content) for p in getattr(last, "parts", ()) if isinstance(p, ToolReturnPart)
            ]
            return ModelResponse(parts=[TextPart(final_text(results))])
        return ModelResponse(parts=[ToolCallPart(c.name, c.args, tool_call_id=c.id) for c in step])

    fn: Any = {
        "S1": add,
        "S1a": add_async,
        "S2": slow_async,
        "S2s": slow_blocking,
        "S4": add,
    }[scenario]
    name = "slow" if scenario.startswith("S2") else "add"
    agent = Agent(
        FunctionModel(respond), tools=[Tool(fn, name=name, takes_ctx=False)], system_prompt=SYSTEM
    )
    history: list[ModelMessage] | None = None
    if scenario == "S4":
        history = []
        for user, assistant in history_pairs():
            history.append(ModelRequest(parts=[UserPromptPart(user)]))
            history.append(ModelResponse(parts=[TextPart(assistant)]))

    async def run() -> str:
        result = await agent.run(PROMPT, message_history=history)
        return result.output

    return Runner(script, run, is_async=True)
