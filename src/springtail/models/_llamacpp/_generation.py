"""One reply of the embedded model: prose, a plan of calls, or the plan's next lines.

``LlamaCppChatModel`` renders the prompt and hands it here. The model's own
first tokens decide between prose and a call; prose streams as soon as it
cannot be a call; a call goes to the planner (``_planning.py``: a plan of
Python lines, the embedded presets) or to the JSON calls of the model's own
template (``_json_calls.py``, any other GGUF). Where the model needs help,
the policy (``_policy.py``) decides.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from springtail.models._llamacpp._coverage import news, stated_part, unstated
from springtail.models._llamacpp._decisions import ByShare, Prose
from springtail.models._llamacpp._decoder import Decoder
from springtail.models._llamacpp._grammar import (
    answer_grammar,
    continuation_grammar,
    sentence_grammar,
    text_only_grammar,
)
from springtail.models._llamacpp._json_calls import JsonCalls
from springtail.models._llamacpp._parse import ReplyKind, classify
from springtail.models._llamacpp._planning import Planner
from springtail.models._llamacpp._policy import ToolPolicy
from springtail.models._llamacpp._reply import Attempt, Reply
from springtail.models._llamacpp._stream import StreamGate
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["Generator"]

logger = logging.getLogger("springtail.models.llamacpp")

_SENTENCE = 64
"""Tokens an answer may go on for to state a result it left out: one sentence."""


class Generator:
    """One request's reply: the model's opening, then its calls or its prose.

    The model's chat template marks a call with the special tokens
    ``<tool_call>`` and ``</tool_call>``. llama.cpp's grammar sampler cannot
    emit special tokens, so a grammar over the whole reply made the model spell
    the tags out of plain pieces. So the structure is left to the model's own
    tokens and only a call's body is constrained: the reply opens freely, and
    when it opens like a call (the ``<tool_call>`` token, a code fence, JSON,
    code) the body is written after a real ``<tool_call>`` token under the
    tools' grammar.

    Args:
        decoder: The request's decoding (prompt, options, profile, stream).
        policy: The decisions beyond decoding.
        view: What the policy reads of the prompt.
        call_openers: A mask over the vocabulary of the tokens a call opens
            with, for a call floor (built by the model once).
        without_tools: Renders the prompt without the tools' definitions, for
            prose the policy asks for instead of a call it refused.
    """

    def __init__(
        self,
        decoder: Decoder,
        *,
        policy: ToolPolicy,
        view: TurnView,
        call_openers: Any = None,
        without_tools: Callable[[], list[int]] | None = None,
    ) -> None:
        self.decoder = decoder
        self.policy = policy
        self.view = view
        self.call_openers = call_openers
        self.without_tools = without_tools
        # Structured output: the answer is JSON that fits the schema, by construction.
        schema = decoder.options.response_schema
        self.answer_grammar = answer_grammar(schema) if schema else None

    def turn(self, tools: Sequence[ToolDefinition]) -> Reply:
        """Generate one reply: prose, or calls."""
        decoder = self.decoder
        if not tools:
            if self.answer_grammar is None and decoder.profile.plans and self.view.has_results:
                # An answer written without the tools (support-bot's last step) reads a
                # conversation of plans too: it may not open as a plan line ("r 5 = ...").
                return self.prose()
            return decoder.finish(decoder.generate(self.answer_grammar, reply=True, answer=True))
        if self.answer_grammar is not None and decoder.open_token is not None:
            # A JSON answer opens like a call's body, so only the model's own call
            # token tells the two apart: one token decides, then the answer is made
            # under the schema's grammar.
            first = decoder.generate(None, stream=False, max_new=1, reply=True)
            if not first.tokens or first.tokens[0] != decoder.open_token:
                return self.prose()
        plans = decoder.profile.plans
        writer = (Planner if plans else JsonCalls)(decoder, self.policy, self.view)
        if isinstance(writer, Planner):
            ready = self.view.plan.ready()
            if ready:
                resumed = writer.resume(ready, tools)
                if resumed is not None:
                    return resumed
        opening = self.policy.opening(self.view, tools)
        floor = None
        if isinstance(opening, Prose):
            return self.prose(without_tools=opening.without_tools)
        if self.call_openers is not None:
            if isinstance(opening, ByShare):
                floor = (opening.threshold, self.call_openers, True)
            elif opening.call_floor is not None:
                floor = (opening.call_floor, self.call_openers, False)
        first = decoder.generate(None, stop_at_call=True, call_floor=floor, reply=True)
        if first.finish_reason in ("tag", "prose"):
            return self.prose()
        if first.finish_reason != "call":
            return self._answer(first, None)
        # Prose the model wrote before opening a call was streamed already: keep it.
        prose = first.text if classify(first.text, code=plans) is ReplyKind.TEXT else ""
        context = decoder.tokens + (list(first.tokens) if prose else [])
        written = writer.write(context, prose, tools)
        if isinstance(written, Reply):
            return written
        return self.prose(without_tools=isinstance(written, Prose) and written.without_tools)

    def prose(self, *, without_tools: bool = False) -> Reply:
        """A reply that must be prose, or the JSON answer the request's schema asks for.

        Prose may not open with a tag or a fence.
        """
        decoder = self.decoder
        grammar = self.answer_grammar or text_only_grammar()
        tokens = self.without_tools() if without_tools and self.without_tools else None
        attempt = decoder.generate(grammar, tokens=tokens, reply=True, answer=True)
        if (
            tokens is None
            and self.without_tools is not None
            and self.answer_grammar is None
            and decoder.profile.plans
            and classify(attempt.text, code=True) is ReplyKind.CALLS
        ):
            # Told to answer after its second plan, the model wrote ``rtodo = todo_add(...)``
            # and five more plan lines as the answer (tenth pass). That text was held back
            # (it opened like code); the answer is written again from the prompt without the
            # tools, where there is no plan to go on with. A grammar that barred such a start
            # cost a held-out request's answer; this touches only an answer that opened so.
            tokens = self.without_tools()
            attempt = decoder.generate(grammar, tokens=tokens, reply=True, answer=True)
        if (
            self.answer_grammar is None
            and decoder.profile.plans
            and self.view.has_results
            and classify(attempt.text, code=True) is ReplyKind.CALLS
        ):
            # Without the tools too, the answer opened as plan lines (``rnew = add_event(...)``
            # after a repeated line turned the reply to prose; thirteenth pass): it is written
            # once more as a sentence opens.
            attempt = decoder.generate(sentence_grammar(), tokens=tokens, reply=True, answer=True)
        return (
            self._answer(attempt, tokens)
            if self.answer_grammar is None
            else decoder.finish(attempt)
        )

    def _answer(self, attempt: Attempt, tokens: list[int] | None) -> Reply:
        """The answer, gone on while it states nothing of a result (``state_results``).

        Each time the model's end is passed over: it writes on after a space
        or a new line, having read its own answer so far, and must write one
        of the values the results it left out gave.
        """
        decoder, view = self.decoder, self.view
        reply = decoder.finish(attempt)
        if (
            attempt.finish_reason != "stop"
            or not view.answered
            or not decoder.profile.state_results
        ):
            return reply
        context = list(decoder.tokens if tokens is None else tokens) + list(attempt.tokens)
        text = attempt.text
        for _ in range(decoder.profile.state_results):
            missing = unstated(text, view.answered, view.request)
            others = [r for r in view.answered if r not in missing]
            keys = news(missing, view.request, others)
            if not keys:
                break
            # It must write a value the result gave; ``reply`` bars the end token at its start.
            # Held back until it ends: one sentence that writes a value, or nothing (left to
            # run, one went round "The order status for r1 is pending" until cut).
            grammar = continuation_grammar(keys)
            more = decoder.generate(
                grammar, tokens=context, stream=False, max_new=_SENTENCE, reply=True, answer=True
            )
            said = more.text
            if more.finish_reason == "length":
                # Cut mid-sentence: what it says whole stays, and the answer ends there.
                said = stated_part(more.text, keys)
                logger.debug("continuation cut at its length; kept %d characters", len(said))
            elif more.finish_reason != "stop":
                break
            if not said:
                break
            shown = StreamGate(decoder.sink, code=decoder.profile.plans)
            shown.feed(said)
            shown.flush()
            text = text + said
            if said != more.text:
                break
            context += list(more.tokens)
        return reply if text == attempt.text else decoder.reply(text, (), "stop")
