"""openai-agents driven by a custom ``Model`` that replays the script.

Tracing is switched off (``set_tracing_disabled(True)``) so no exporter runs.
The SDK's own ``agents.testing.ScriptedModel`` deep-copies every call for its
assertions; the minimal ``Model`` here avoids charging that to the framework.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
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

NAME = "openai-agents"


def version() -> str:
    return _version("openai-agents")


def _model_class() -> Any:
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    class ScriptedAgentsModel(Model):
        def __init__(self, script: Script) -> None:
            self.script = script

        async def get_response(
            self, system_instructions: Any, input: Any, *a: Any, **k: Any
        ) -> Any:
            step = self.script.next()
            if step is None:
                results: list[str] = []
                for item in reversed(input):
                    if not (isinstance(item, dict) and item.get("type") == "function_call_output"):
                        break
                    results.append(str(item["output"]))
                text = final_text(results[::-1])
                output: list[Any] = [
                    ResponseOutputMessage(
                        id="msg_final",
                        type="message",
                        role="assistant",
                        status="completed",
                        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
                    )
                ]
            else:
                output = [
                    ResponseFunctionToolCall(
                        type="function_call",
                        id=f"fc_{c.id}",
                        call_id=c.id,
                        name=c.name,
                        arguments=c.arguments,
                        status="completed",
                    )
                    for c in step
                ]
            return ModelResponse(output=output, usage=Usage(), response_id=None)

        def stream_response(self, *a: Any, **k: Any) -> AsyncIterator[Any]:
            raise NotImplementedError("the benchmark does not stream")

    return ScriptedAgentsModel


def build(scenario: str, script: Script) -> Runner:
    from agents import Agent, Runner as AgentsRunner, function_tool, set_tracing_disabled

    set_tracing_disabled(True)
    name = "slow" if scenario.startswith("S2") else "add"
    fn: Any = {
        "S1": add,
        "S1a": add_async,
        "S2": slow_async,
        "S2s": slow_blocking,
        "S4": add,
    }[scenario]
    agent = Agent(
        name="bench",
        instructions=SYSTEM,
        model=_model_class()(script),
        tools=[function_tool(fn, name_override=name)],
    )
    history: list[Any] = []
    if scenario == "S4":
        for user, assistant in history_pairs():
            history.append({"role": "user", "content": user})
            history.append({"role": "assistant", "content": assistant})

    async def run() -> str:
        items: Any = [*history, {"role": "user", "content": PROMPT}] if history else PROMPT
        result = await AgentsRunner.run(agent, items, max_turns=100)
        return str(result.final_output)

    return Runner(script, run, is_async=True)
