"""A scripted stand-in for llama.cpp, so the embedded model's rules are tested without weights.

``FakeRuntime`` implements the ``Runtime`` interface of
``springtail.models._llamacpp``: one token per character, plus one token
per special text (``<tool_call>``, ``<|im_end|>`` …). Its "model" is a
script: given the prompt (everything up to the last assistant turn's
start), it lists the replies it would write, each with a logit; at each
step the next token of every reply that still agrees with what was produced
gets that logit, and everything else a low one. So a test chooses exactly
what the model "wants" and how strongly, including near-ties at the first
token. The sampler is greedy; a grammar is not enforced, except that the
prose-only grammar bars a call or a tag as the first token.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from springtail.messages import AssistantMessage, ChatOptions, Message, Prompt, UserMessage
from springtail.models._llamacpp import LlamaCppChatModel, PlanLine, SmallModelPolicy, TurnView
from springtail.tools._definition import ToolDefinition

SPECIALS = ("<|im_start|>", "<|im_end|>", "<|endoftext|>", "<tool_call>", "</tool_call>")
END = ("<|im_end|>", "<|endoftext|>")
ASSISTANT = "<|im_start|>assistant\n"

CHAT_TEMPLATE = (
    "{% if tools %}<|im_start|>system\n"
    "{% if messages[0]['role'] == 'system' %}{{ messages[0]['content'] }}"
    "{% else %}You are a helpful assistant.{% endif %}{{ '\n\n# Tools\n<tools>\n' }}"
    "{% for tool in tools %}{{ tool | tojson }}{{ '\n' }}{% endfor %}</tools><|im_end|>{{ '\n' }}"
    "{% elif messages[0]['role'] == 'system' %}"
    "<|im_start|>system\n{{ messages[0]['content'] }}<|im_end|>{{ '\n' }}{% endif %}"
    "{% for message in messages %}"
    "{% if message.role == 'user' or (message.role == 'system' and not loop.first) %}"
    "<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>{{ '\n' }}"
    "{% elif message.role == 'assistant' %}<|im_start|>assistant\n{{ message.content }}"
    "{% for call in message.tool_calls or [] %}<tool_call>\n"
    '{"name": "{{ call.function.name }}", "arguments": {{ call.function.arguments | tojson }}}'
    "{{ '\n' }}</tool_call>{% endfor %}<|im_end|>{{ '\n' }}"
    "{% elif message.role == 'tool' %}"
    "{% if loop.index0 == 0 or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user"
    "{% endif %}{{ '\n' }}<tool_response>\n{{ message.content }}{{ '\n' }}</tool_response>"
    "{% if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>{{ '\n' }}"
    "{% endif %}{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant{{ '\n' }}{% endif %}"
)
"""A ChatML template with tools, shaped like Qwen 2.5's."""

Script = Callable[[str], Sequence[tuple[str, float]]]
"""Prompt → the replies the model would write, each with its logit (highest wins)."""


def replies(*alternatives: str | tuple[str, float]) -> Script:
    """A script that answers every prompt with these replies (the first is likeliest)."""
    ranked = [(a, 10.0 - i) if isinstance(a, str) else a for i, a in enumerate(alternatives)]
    return lambda prompt: ranked


class _Sampler:
    def __init__(self, runtime: FakeRuntime, grammar: str | None, not_first: Sequence[int]) -> None:
        self.runtime = runtime
        self.first = True
        self.banned = set(not_first)
        if grammar is not None and "prose-start" in grammar:
            self.banned |= runtime.call_like
        if grammar is not None and "sentence-start" in grammar:
            self.banned |= runtime.not_sentence_start

    def sample(self, row: int) -> int:
        logits = np.array(self.runtime.logits(row), dtype=float)
        if self.first:
            logits[list(self.banned)] = -np.inf
            self.first = False
        return int(np.argmax(logits))

    def close(self) -> None:
        pass


class FakeRuntime:
    """The ``Runtime`` interface over a script instead of weights."""

    def __init__(self, script: Script, *, n_ctx: int = 16384, n_batch: int = 64) -> None:
        self.script = script
        self.n_ctx = n_ctx
        self.n_batch = n_batch
        self.seed = 1
        self.chat_template: str | None = CHAT_TEMPLATE
        self.eos_text = "<|im_end|>"
        self.bos_text = ""
        chars = [chr(c) for c in range(32, 127)] + ["\n", "\t", "…", "é", "€", "°", "?"]
        self.pieces: list[str] = [*SPECIALS, *dict.fromkeys(chars)]
        self.n_vocab = len(self.pieces)
        self._ids = {p: i for i, p in enumerate(self.pieces)}
        self.call_like = {i for i, p in enumerate(self.pieces) if p[0] in "<{`"}
        self.not_sentence_start = {
            i for i, p in enumerate(self.pieces) if not re.match(r'[A-Z0-9"(]', p)
        }
        self._cache: list[int] = []
        self._rows: dict[int, Any] = {}
        self.batches: list[int] = []  # the size of every batch evaluated
        self.prompts: list[str] = []  # every prompt the script was asked about
        self.grammars: list[str | None] = []  # the grammar of every generation

    # -- text ------------------------------------------------------------------------

    def tokenize(self, text: str, *, special: bool) -> list[int]:
        tokens: list[int] = []
        i = 0
        while i < len(text):
            hit = next((s for s in SPECIALS if special and text.startswith(s, i)), None)
            if hit is not None:
                tokens.append(self._ids[hit])
                i += len(hit)
            else:
                tokens.append(self._ids.get(text[i], self._ids["?"]))
                i += 1
        return tokens

    def detokenize(self, tokens: Sequence[int]) -> bytes:
        return "".join(self.pieces[t] for t in tokens).encode("utf-8")

    def token_text(self, token: int) -> str:
        return self.pieces[token]

    def is_end(self, token: int) -> bool:
        return self.pieces[token] in END

    # -- cache and decoding ----------------------------------------------------------

    def cached(self) -> list[int]:
        return list(self._cache)

    def n_cached(self) -> int:
        return len(self._cache)

    def keep_prefix(self, count: int) -> int:
        del self._cache[count:]
        return len(self._cache)

    def evaluate(self, tokens: Sequence[int], *, outputs_from: int) -> None:
        self.batches.append(len(tokens))
        self._rows = {}
        for i, token in enumerate(tokens):
            self._cache.append(token)
            if i >= outputs_from:
                self._rows[i] = self._next_logits()

    def evaluate_long(self, tokens: Sequence[int]) -> None:
        self._cache.extend(tokens)

    def logits(self, row: int) -> Any:
        return self._rows[row]

    def _next_logits(self) -> Any:
        text = self.detokenize(self._cache).decode("utf-8")
        cut = text.rfind(ASSISTANT)
        prompt, produced = text[: cut + len(ASSISTANT)], text[cut + len(ASSISTANT) :]
        if not self.prompts or self.prompts[-1] != prompt:
            self.prompts.append(prompt)
        logits = np.zeros(self.n_vocab, dtype=np.float32)
        end = self._ids["<|im_end|>"]
        logits[end] = 1.0
        allowed = self._named_by_grammar()
        value_only = _value_grammar(self.grammars[-1] if self.grammars else None)
        for reply, logit in self.script(prompt):
            if allowed is not None and _writing_call_to(reply, len(produced)) not in allowed:
                continue
            begins = value_only and produced.endswith("=")  # where the value begins
            if begins and reply.startswith(produced) and not _a_literal(reply[len(produced) :]):
                continue
            if reply.startswith(produced):
                rest = reply[len(produced) :]
                token = self.tokenize(rest, special=True)[0] if rest else end
                logits[token] = max(logits[token], logit)
        return logits

    def _named_by_grammar(self) -> set[str | None] | None:
        """The tools a calls grammar without a catch-all allows (``None``: any reply).

        Both shapes: a JSON call's grammar (``tool-0 ::= ...``) and a plan
        line's (``t0 ::= "name(" ...``).
        """
        grammar = self.grammars[-1] if self.grammars else None
        if grammar is None:
            return None
        if "tool-0 ::=" in grammar:
            call_rule = next(line for line in grammar.splitlines() if line.startswith("call ::="))
            if "unknown-tool" in call_rule:
                return None
            return set(re.findall(r'^tool-\d+ ::= "\\"" "([^"]+)"', grammar, flags=re.M))
        if "t0 ::=" in grammar:
            listed = set(re.findall(r'^t\d+ ::= "([^"(]+)\(', grammar, flags=re.M))
            if "unknown-call" in grammar.splitlines()[0]:
                left_out = re.search(r"^# not offered here: (.*)$", grammar, flags=re.M)
                if left_out is None:
                    return None
                return _AllBut(set(left_out.group(1).split(", ")))
            return listed
        return None

    def sampler(
        self,
        *,
        temperature: float,
        top_p: float,
        seed: int,
        grammar: str | None,
        not_first: Sequence[int] = (),
    ) -> _Sampler:
        self.grammars.append(grammar)
        return _Sampler(self, grammar, not_first)

    def save_state(self) -> tuple[list[int], bytes] | None:
        return list(self._cache), bytes(len(self._cache))

    def load_state(self, tokens: Sequence[int], state: bytes) -> bool:
        self._cache = list(tokens)
        return True

    def close(self) -> None:
        pass


class _AllBut(set[str | None]):
    """Every tool name but these (a catch-all grammar that leaves some tools out)."""

    def __contains__(self, name: object) -> bool:
        return not set.__contains__(self, name)


def _value_grammar(grammar: str | None) -> bool:
    """Whether a grammar writes one argument's value (a plan line resumed), not a call."""
    return (
        grammar is not None
        and grammar.startswith("root ::=")
        and "t0 ::=" not in grammar
        and ('( "," )' in grammar or '( ")" )' in grammar)
    )


def _a_literal(rest: str) -> bool:
    """Whether text begins with a literal a value grammar allows (no variable, no call)."""
    return not rest or rest[0] in '"-0123456789[{' or rest.startswith(("True", "False", "None"))


def _writing_call_to(reply: str, position: int) -> str | None:
    """The tool named by the call of ``reply`` that is open at ``position``, if any.

    A JSON call (``"name": "..."``) or a plan line (``r1 = name(``).
    """
    start = reply.rfind("<tool_call>", 0, position + 1)
    if start < 0:
        return None
    match = re.search(r'"name": "([^"]+)"', reply[start:])
    if match:
        return match.group(1)
    line_start = reply.rfind("\n", start, position + 1)
    line = re.match(r"\n?r\d+ = ([^(\s]+)\(", reply[line_start if line_start >= 0 else start :])
    return line.group(1) if line else None


# -- helpers for the policy and plan tests ----------------------------------------------


def schema(**properties: dict[str, object]) -> dict[str, object]:
    """An object schema whose properties are all required."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


class FakeTool:
    """A tool a test offers; the model never runs tools, so calling it is a failure."""

    def __init__(self, definition: Any) -> None:
        from springtail.tools._definition import ToolMetadata

        self.tool_definition = definition
        self.tool_metadata = ToolMetadata()

    def call(self, tool_input: str, tool_context: object = None) -> str:
        raise AssertionError("the model never runs tools")

    async def acall(self, tool_input: str, tool_context: object = None) -> str:
        raise AssertionError("the model never runs tools")


def plan(*lines: str) -> str:
    """A reply that is a plan of these lines."""
    return "<tool_call>\n" + "\n".join(lines) + "\n</tool_call>"


def json_call(name: str, **arguments: object) -> str:
    """A reply that is one JSON call in the template's own shape."""
    import json

    body = json.dumps({"name": name, "arguments": arguments})
    return f"<tool_call>\n{body}\n</tool_call>"


# -- what the rule tests share (test_models_llamacpp_rules, _made_up, _rule) ----------

WEEKDAY = ToolDefinition(
    "weekday", "The day of the week of a date.", schema(day={"type": "string"})
)
DAYS = ToolDefinition(
    "days_between",
    "Days from one date to another.",
    schema(start={"type": "string"}, end={"type": "string"}),
)
TODAY = ToolDefinition("today", "Today's date.", schema())
TOOLS = (WEEKDAY, DAYS, TODAY)
"""The date tools the rule tests offer unless a test offers its own."""

QUOTE = ToolDefinition(
    "shipping_quote",
    "The price of shipping a parcel.",
    schema(
        weight_kg={"type": "number"},
        country={"type": "string"},
        speed={"type": "string", "enum": ["economy", "express"]},
    ),
)
AVERAGE = ToolDefinition("average", "The mean of some numbers.", schema(values={"type": "array"}))
SHIPPING = (QUOTE, AVERAGE)
"""Two tools a request names by a word each ("shipping", "average"), for the named-step tests."""
ASKED_AVERAGE = (
    "For a 3 kg box to Norway, what's the average of the economy and express shipping prices?"
)
"""A request whose plan of two quotes stops short of the average it names."""
QUOTE_LINES = (
    'r1 = shipping_quote(weight_kg=3, country="Norway", speed="economy")',
    'r2 = shipping_quote(weight_kg=3, country="Norway", speed="express")',
)

EVENT_LIST = ToolDefinition("event_list", "Every event.", schema())
EVENT_CANCEL = ToolDefinition(
    "event_cancel", "Cancel an event.", schema(event_id={"type": "string"})
)
EVENTS = (EVENT_LIST, EVENT_CANCEL, WEEKDAY)
"""A listing, a step on one event and a date tool, for the tests of lines that go."""
CANCEL = UserMessage("Cancel E-7.")
"""A request ``event_cancel`` answers alone."""


def view(*messages: Message) -> TurnView:
    """The turn view of these messages."""
    return TurnView.of(list(messages))


def line(source: str) -> PlanLine:
    """A plan line, parsed (a test's line must parse)."""
    parsed = PlanLine.parse(source)
    assert parsed is not None
    return parsed


def ask(
    script: Script,
    messages: list[Message],
    policy: SmallModelPolicy | None = None,
    tools: tuple[ToolDefinition, ...] = TOOLS,
) -> AssistantMessage:
    """The reply of the embedded model on a fake runtime with this script, offered ``tools``."""
    runtime = FakeRuntime(script)
    model = LlamaCppChatModel._over(runtime, **({} if policy is None else {"policy": policy}))
    options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in tools))
    result = model.call(Prompt(messages, options)).result
    assert result is not None
    return result.output


ASKED = UserMessage("What day of the week is 2026-12-25?")
"""A request ``weekday`` answers, for the date it gives."""


# A calendar of events and notes, for the rules that search (twentieth pass on).
CALENDAR_DAY: dict[str, object] = {"type": "string", "format": "date"}
CALENDAR_TEXT: dict[str, object] = {"type": "string"}
CALENDAR = (
    ToolDefinition(
        "add_event",
        "Add an event to the calendar.",
        schema(
            title=CALENDAR_TEXT,
            day=CALENDAR_DAY,
            start={"type": "string", "description": "Start time, HH:MM"},
        ),
    ),
    ToolDefinition(
        "find_free_slot",
        "The first free time on a day for an event of the given length.",
        schema(day=CALENDAR_DAY, minutes={"type": "integer"}),
    ),
    ToolDefinition(
        "find_events",
        "Find events whose title holds a word of the query; returns ids and days.",
        schema(query=CALENDAR_TEXT),
    ),
    ToolDefinition(
        "search_notes",
        "Find notes whose title or text holds the query; returns ids and titles.",
        schema(query=CALENDAR_TEXT),
    ),
    ToolDefinition("cancel_event", "Cancel an event by its id.", schema(event_id=CALENDAR_TEXT)),
    ToolDefinition("add_task", "Add a task to the list.", schema(title=CALENDAR_TEXT)),
    ToolDefinition(
        "find_patient_by_id",
        "Find a patient by id.",
        schema(patient_id={"type": "string", "description": "The patient id, e.g. P-101"}),
    ),
)
