r"""Turning springtail messages into the prompt text of the model's own chat template.

The GGUF file carries the chat template the model was trained with (for Qwen
2.5: tools listed in the system turn, calls as ``<tool_call>`` blocks, results
as ``<tool_response>`` blocks in a user turn); rendering it with
llama-cpp-python's Jinja formatter keeps the prompt in the shape the model
knows. Two details matter for a small model:

- Earlier calls' arguments go to the template as objects. Passed as JSON text
  they would be encoded a second time (``"{\"sku\": …}"``), and the model
  copies that broken shape into its next call.
- The prompt for a follow-up turn must start with exactly the tokens of the
  previous one, so llama.cpp can keep their KV cache and evaluate only what
  is new. Rendering is therefore a pure function of the messages and tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp._llama import chat_formatter
from springtail.models._wire import arguments_to_object, function_tools
from springtail.tools._definition import ToolDefinition

__all__ = ["ResultText", "TemplateRenderer", "template_messages"]


class ResultText(Protocol):
    """How a tool's result reads inside the template (the policy decides)."""

    def __call__(self, name: str, data: str, *, is_error: bool) -> str: ...


def _as_given(name: str, data: str, *, is_error: bool) -> str:
    return data


class TemplateRenderer:
    """Renders prompts with one model's chat template."""

    def __init__(self, template: str, *, eos_token: str, bos_token: str) -> None:
        self._formatter: Any = chat_formatter(template, eos_token=eos_token, bos_token=bos_token)

    def render(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition],
        *,
        guidance: str | None = None,
        result_text: ResultText = _as_given,
    ) -> str:
        """The prompt text, ending where the assistant's reply begins."""
        rendered = self._formatter(
            messages=template_messages(messages, guidance if tools else None, result_text),
            tools=function_tools(list(tools)) or None,
        )
        return str(rendered.prompt)


def template_messages(
    messages: Sequence[Message],
    guidance: str | None = None,
    result_text: ResultText = _as_given,
) -> list[dict[str, Any]]:
    """Messages as the dicts a Hugging Face chat template reads.

    ``guidance`` is appended to the first system message (or becomes the
    system message when there is none).
    """
    result: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            result.append({"role": "system", "content": message.text})
        elif isinstance(message, UserMessage):
            result.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {
                            "name": call.name,
                            "arguments": arguments_to_object(call.arguments),
                        },
                    }
                    for call in message.tool_calls
                ]
            result.append(entry)
        elif isinstance(message, ToolResponseMessage):
            result.extend(
                {
                    "role": "tool",
                    "tool_call_id": r.id,
                    "name": r.name,
                    "content": result_text(r.name, r.response_data, is_error=r.is_error),
                }
                for r in message.responses
            )
    if guidance:
        if result and result[0]["role"] == "system":
            result[0] = {**result[0], "content": f"{result[0]['content']}\n\n{guidance}"}
        else:
            result.insert(0, {"role": "system", "content": guidance})
    return result
