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
from typing import Any

from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._wire import arguments_to_object, function_tools
from springtail.tools._definition import ToolDefinition

__all__ = [
    "DEFAULT_TOOL_GUIDANCE",
    "TemplateRenderer",
    "template_messages",
    "tool_result_text",
]

DEFAULT_TOOL_GUIDANCE = (
    "Only call a function when the request needs what the function returns. "
    "Reply to greetings, thanks and general questions in plain text, without a function."
)
"""Added to the system prompt when tools are offered.

Measured on the 1.5B model with the support-bot tools: without it, "Hi! Who
are you?" was answered with a call to ``current_datetime`` (62% of the first
token's probability went to a call); with it, 95% goes to a greeting, while
"What is 128 times 32?" still goes to ``calculate``.
"""


class TemplateRenderer:
    """Renders prompts with one model's chat template."""

    def __init__(self, template: str, *, eos_token: str, bos_token: str) -> None:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        self._formatter: Any = Jinja2ChatFormatter(
            template, eos_token=eos_token, bos_token=bos_token, add_generation_prompt=True
        )

    def render(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition],
        *,
        guidance: str | None = DEFAULT_TOOL_GUIDANCE,
    ) -> str:
        """The prompt text, ending where the assistant's reply begins."""
        rendered = self._formatter(
            messages=template_messages(messages, guidance if tools else None),
            tools=function_tools(list(tools)) or None,
        )
        return str(rendered.prompt)


def template_messages(
    messages: Sequence[Message], guidance: str | None = None
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
                    "content": tool_result_text(r.name, r.response_data, is_error=r.is_error),
                }
                for r in message.responses
            )
    if guidance:
        if result and result[0]["role"] == "system":
            result[0] = {**result[0], "content": f"{result[0]['content']}\n\n{guidance}"}
        else:
            result.insert(0, {"role": "system", "content": guidance})
    return result


def tool_result_text(name: str, data: str, *, is_error: bool = False) -> str:
    """A tool's result as the model reads it inside ``<tool_response>``.

    The template shows only the result text; a bare ``4096`` left the 1.5B
    model answering "Thank you for your question." without the number, while
    ``calculate returned: 4096`` got "The result of 128 times 32 is 4096."
    """
    return f"{name} {'failed' if is_error else 'returned'}: {data}"
