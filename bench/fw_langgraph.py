"""LangGraph's prebuilt ReAct agent (``create_react_agent``, ``ToolNode``) on a scripted model.

The model is a minimal ``BaseChatModel`` subclass returning scripted
``AIMessage``s with ``tool_calls``: every LangGraph user's model goes through
the same ``BaseChatModel`` machinery, so it belongs to the framework's overhead.
"""

from __future__ import annotations

import warnings
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

NAME = "LangGraph"


def version() -> str:
    return f"langgraph {_version('langgraph')}, langchain-core {_version('langchain-core')}"


def _model_class() -> Any:
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class ScriptedLangChainModel(BaseChatModel):
        script: Any

        @property
        def _llm_type(self) -> str:
            return "scripted"

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

        def _generate(
            self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> ChatResult:
            step = self.script.next()
            if step is None:
                results: list[str] = []
                for message in reversed(messages):
                    if not isinstance(message, ToolMessage):
                        break
                    results.append(str(message.content))
                message_out = AIMessage(content=final_text(results[::-1]))
            else:
                message_out = AIMessage(
                    content="",
                    tool_calls=[
                        {"name": c.name, "args": dict(c.args), "id": c.id, "type": "tool_call"}
                        for c in step
                    ],
                )
            return ChatResult(generations=[ChatGeneration(message=message_out)])

        async def _agenerate(
            self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> ChatResult:
            return self._generate(messages, stop)

    return ScriptedLangChainModel


def build(scenario: str, script: Script) -> Runner:
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import StructuredTool

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_react_agent is deprecated in favour of langchain
        from langgraph.prebuilt import create_react_agent

    name = "slow" if scenario.startswith("S2") else "add"
    fn: Any = {
        "S1": add,
        "S1a": add_async,
        "S2": slow_async,
        "S2s": slow_blocking,
        "S4": add,
    }[scenario]
    if scenario in ("S1a", "S2"):
        lc_tool = StructuredTool.from_function(coroutine=fn, name=name)
    else:
        lc_tool = StructuredTool.from_function(func=fn, name=name)
    model = _model_class()(script=script)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        graph = create_react_agent(model, [lc_tool], prompt=SYSTEM)
    history: list[BaseMessage] = []
    if scenario == "S4":
        for user, assistant in history_pairs():
            history.append(HumanMessage(user))
            history.append(AIMessage(assistant))
    config: RunnableConfig = {"recursion_limit": 100}

    async def run() -> str:
        state: Any = await graph.ainvoke({"messages": [*history, HumanMessage(PROMPT)]}, config)
        return str(state["messages"][-1].content)

    return Runner(script, run, is_async=True)
