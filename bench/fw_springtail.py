"""springtail through its public API, plus its layers alone to show where time goes.

The conversation runs as a user writes it:
``ChatClient(ScriptedChatModel([...]), tools=[...]).prompt(...).call()``, the
framework-controlled loop, with nothing subtracted. The client is built once,
like the peers' agents; ``new client per run`` rows build it inside the timed
region too. The scripted model's items are callables that replay the same
:class:`~bench._scenarios.Script` as the peers' models.
"""

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

NAME = "springtail"
_SCRIPT_ITEMS = 20_000  # model calls one runner may make (warm-up, verification, timed runs)

_FUNCTIONS: dict[str, Any] = {
    "S1": add,
    "S1a": add_async,
    "S2": slow_async,
    "S2s": slow_blocking,
    "S4": add,
}


def version() -> str:
    return _version("springtail")


def _responder(script: Script) -> Any:
    from springtail import AssistantMessage, ChatResponse, ToolCall, ToolResponseMessage

    def respond(prompt: Any) -> Any:
        step = script.next()
        if step is None:
            last = prompt.messages[-1]
            results = (
                [r.response_data for r in last.responses]
                if isinstance(last, ToolResponseMessage)
                else []
            )
            return ChatResponse.of(final_text(results))
        return ChatResponse.of(
            AssistantMessage(tool_calls=tuple(ToolCall(c.id, c.name, c.arguments) for c in step))
        )

    return respond


def tool_for(scenario: str) -> Any:
    from springtail import tool

    name = "slow" if scenario.startswith("S2") else "add"
    return tool(name=name)(_FUNCTIONS[scenario])


def _history() -> list[Any]:
    from springtail import AssistantMessage, UserMessage

    history: list[Any] = []
    for user, assistant in history_pairs():
        history.append(UserMessage(user))
        history.append(AssistantMessage(assistant))
    return history


def build(scenario: str, script: Script, *, use_async: bool = False) -> Runner:
    """The client built once; ``run`` is one conversation through ``call()`` (or ``acall()``)."""
    from springtail import ChatClient, Prompt, ScriptedChatModel, UserMessage

    model = ScriptedChatModel([_responder(script)] * _SCRIPT_ITEMS)
    client = ChatClient(model, system=SYSTEM, tools=[tool_for(scenario)])
    history = _history() if scenario == "S4" else None

    def spec() -> Any:
        if history is None:
            return client.prompt(PROMPT)
        return client.prompt(Prompt([*history, UserMessage(PROMPT)]))

    if use_async:

        async def arun() -> str:
            return str((await spec().acall()).content())

        return Runner(script, arun, is_async=True)

    def run() -> str:
        return str(spec().call().content())

    return Runner(script, run, is_async=False)


def build_fresh_client(scenario: str, script: Script) -> Runner:
    """Model and client built inside every run: the literal one-liner, nothing subtracted."""
    from springtail import ChatClient, ScriptedChatModel

    respond = _responder(script)
    tool_cb = tool_for(scenario)
    steps = len(script.steps)

    def run() -> str:
        model = ScriptedChatModel([respond] * steps)
        return str(
            ChatClient(model, system=SYSTEM, tools=[tool_cb]).prompt(PROMPT).call().content()
        )

    return Runner(script, run, is_async=False)
