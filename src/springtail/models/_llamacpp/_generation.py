"""Generating one reply of the embedded model: prose, or tool calls framed by its own tokens.

``LlamaCppChatModel`` renders the prompt and hands it here; this module runs
the sampler over it, decides between prose and calls by the model's own
tokens, constrains each call's body with the tools' grammar, and streams prose
as soon as it cannot be a call. Every rule beyond that comes from the policy
(``_policy.py``).
"""

from __future__ import annotations

import codecs
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.messages import ChatOptions, Usage
from springtail.models._base import ModelError
from springtail.models._llamacpp._decoding import Drafter, decode
from springtail.models._llamacpp._drafts import CallDraft, PromptLookup
from springtail.models._llamacpp._grammar import (
    TAGGED_CLOSE,
    TAGGED_OPEN,
    answer_grammar,
    build_grammar,
    text_only_grammar,
)
from springtail.models._llamacpp._parse import ParsedCall, ReplyKind, classify, parse_output
from springtail.models._llamacpp._policy import ToolPolicy, TurnView
from springtail.models._llamacpp._runtime import Runtime, TokenSampler
from springtail.models._llamacpp._stream import Sink, StopScanner, StreamGate
from springtail.tools._definition import ToolDefinition

__all__ = ["Generator", "Sink", "Turn"]

logger = logging.getLogger("springtail.models.llamacpp")


@dataclass(frozen=True, slots=True)
class _Attempt:
    text: str
    finish_reason: str
    gate: StreamGate
    tokens: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Turn:
    """One reply: its prose, or its calls."""

    text: str
    calls: tuple[ParsedCall, ...]
    finish_reason: str
    usage: Usage


class _RowRecorder:
    """A sampler that remembers the batch row of its last pick (for the opening's logits)."""

    def __init__(self, inner: TokenSampler) -> None:
        self.inner = inner
        self.row = -1

    def sample(self, row: int) -> int:
        self.row = row
        return self.inner.sample(row)

    def close(self) -> None:
        self.inner.close()


class Generator:
    """One request's generations: the model's opening, then its calls or its prose.

    The model's chat template marks a call with the special tokens
    ``<tool_call>`` and ``</tool_call>``. llama.cpp's grammar sampler cannot
    emit special tokens, so a grammar over the whole reply made the model spell
    the tags out of plain pieces. So the structure is left to the model's own
    tokens and only a call's JSON is constrained: the reply opens freely; when
    its first token is ``<tool_call>`` (or it starts a call in another shape)
    the call's body is generated under the tools' grammar, ``</tool_call>`` is
    placed as the real token, and the model's next tokens decide whether
    another call follows.
    """

    def __init__(
        self,
        runtime: Runtime,
        tokens: Sequence[int],
        options: ChatOptions,
        sink: Sink | None,
        cancel: threading.Event,
        *,
        policy: ToolPolicy,
        view: TurnView,
        call_openers: Any = None,
        end_tokens: Sequence[int] = (),
        without_tools: Callable[[], list[int]] | None = None,
    ) -> None:
        """Prepare one request's generations.

        Args:
            runtime: The loaded model.
            tokens: The rendered prompt.
            options: The request's options (temperature, stop, max_tokens, …).
            sink: Where prose deltas go as they are decided; ``None`` collects.
            cancel: Set to stop generating.
            policy: The rules beyond decoding (``SmallModelPolicy``, ``PlainPolicy``).
            view: What the policy reads of the prompt.
            call_openers: A mask over the vocabulary of the tokens a call opens
                with, for the policy's call floor (built by the model once).
            end_tokens: The tokens that end a generation.
            without_tools: Renders the prompt without the tools' definitions, for
                prose the policy asks for instead of a call it refused.
        """
        self.runtime = runtime
        self.tokens = list(tokens)
        self.options = options
        self.sink = sink
        self.cancel = cancel
        self.policy = policy
        self.view = view
        self.call_openers = call_openers
        self.end_tokens = tuple(end_tokens)
        self.without_tools = without_tools
        self.completion_tokens = 0
        self.open_tag = runtime.tokenize(TAGGED_OPEN, special=True)
        self.close_tag = runtime.tokenize(TAGGED_CLOSE, special=True)
        # The tag as one token, when the vocabulary has it (Qwen's does).
        self.open_token = self.open_tag[0] if len(self.open_tag) == 1 else None
        # Structured output: the answer is JSON that fits the schema, by construction.
        schema = options.response_schema
        self.answer_grammar = answer_grammar(schema) if schema else None

    def _tokenize(self, text: str) -> list[int]:
        return self.runtime.tokenize(text, special=False)

    def _detokenize(self, tokens: Sequence[int]) -> str:
        return self.runtime.detokenize(tokens).decode("utf-8", errors="replace")

    def turn(self, tools: Sequence[ToolDefinition]) -> Turn:
        """Generate one reply: prose, or calls."""
        if not tools:
            return self._finish(self._generate(self.answer_grammar, reply=True), ())
        if self.answer_grammar is not None and self.open_token is not None:
            # A JSON answer opens like a call's body, so only the model's own call
            # token tells the two apart: one token decides, then the answer is made
            # under the schema's grammar.
            first = self._generate(None, stream=False, max_new=1, reply=True)
            if not first.tokens or first.tokens[0] != self.open_token:
                return self._prose()
        policy, view = self.policy, self.view
        opening = policy.opening(view, tools)
        if opening.offer:
            # The policy offers these tools first; no catch-all, or the model uses it to
            # repeat its last call.
            calls, _ = self._calls(
                self.tokens, opening.offer, catch_all=False, wanted=opening.wanted or None
            )
            fresh = _unique(c for c in calls if not view.repeats(c.name, c.arguments))
            if fresh:
                return Turn("", tuple(fresh), "tool_calls", self._usage())
        floor = None
        if opening.call_floor is not None and self.call_openers is not None:
            floor = (opening.call_floor, self.call_openers)
        first = self._generate(
            None, stop_at_call=True, stop_token=self.open_token, call_floor=floor, reply=True
        )
        if first.finish_reason == "tag" and policy.spelled_tag_as_prose:
            return self._prose()
        if first.finish_reason != "call":
            return self._finish(first, ())
        # Prose the model wrote before opening a call was streamed already: keep it.
        prose = first.text if classify(first.text) is ReplyKind.TEXT else ""
        context = self.tokens + (list(first.tokens) if prose else [])
        calls, truncated = self._calls(context, tools, catch_all=True)
        if truncated and not calls:
            return Turn(prose, (), "length", self._usage())
        known = {d.name for d in tools}
        if policy.unknown_tool_as_prose:
            calls = [c for c in calls if c.name in known]
            if not calls:  # only tools that do not exist: no tool fits, answer instead
                return self._prose()
        if not calls:  # cancelled before a call was written
            return Turn(prose, (), "cancelled", self._usage())
        if policy.repeat_as_prose and view.repeats(calls[0].name, calls[0].arguments):
            return self._prose()  # nothing new to call: the model is looping
        instead = policy.instead_of_call(view, calls[0].name, calls[0].arguments, tools)
        if instead:
            # The policy offers other tools first; the model's call stands if none is written.
            offered, _ = self._calls(self.tokens, instead, catch_all=False)
            offered = [
                c for c in offered if not policy.made_up_call(view, c.name, c.arguments, tools)
            ]
            if offered:
                return Turn(prose, tuple(offered), "tool_calls", self._usage())
        if policy.made_up_call(view, calls[0].name, calls[0].arguments, tools):
            # Its values come from nowhere: no tool was needed. With the tools still in
            # the prompt the model describes the call it meant to make, so they go.
            return self._prose(without_tools=True)
        if self.options.parallel_tool_calls is False:
            calls = calls[:1]
        return Turn(prose, tuple(calls), "tool_calls", self._usage())

    def _prose(self, *, without_tools: bool = False) -> Turn:
        """A reply that must be prose, or the JSON answer the request's schema asks for.

        Prose may not open with a tag or a fence.
        """
        grammar = self.answer_grammar or text_only_grammar()
        tokens = self.without_tools() if without_tools and self.without_tools else None
        return self._finish(self._generate(grammar, tokens=tokens, reply=True), ())

    def _calls(
        self,
        context: list[int],
        tools: Sequence[ToolDefinition],
        *,
        catch_all: bool,
        wanted: frozenset[str] | None = None,
    ) -> tuple[list[ParsedCall], bool]:
        """The calls of one reply, each body under the grammar; (calls, cut short).

        Args:
            context: The prompt, and any prose the reply opened with.
            tools: The tools the calls may name.
            catch_all: Let the grammar accept a call to a tool not in ``tools``.
            wanted: The first call was asked for by the policy, for these values:
                it is kept only when the policy accepts it.
        """
        names = {d.name for d in tools}
        policy = self.policy
        more = self.options.parallel_tool_calls is not False
        grammar = build_grammar(tools, catch_all=catch_all)
        tokens = context + self.open_tag
        calls: list[ParsedCall] = []
        seen: set[tuple[str, str]] = set()
        while len(calls) < _MAX_CALLS_PER_REPLY and not self.cancel.is_set():
            # Values are guessed from a run of 3 tokens seen before, not 2: in a call's
            # JSON a 2-token run (`": "`) matches everywhere and guesses wrong.
            lookup = PromptLookup(tokens, shortest=3)
            drafter = CallDraft(
                tools, self._tokenize, self._detokenize, lookup, request=self.view.request
            )
            body = self._generate(
                grammar, tokens=tokens, stream=False, drafter=drafter, call_body=True
            )
            parsed = parse_output(f"{TAGGED_OPEN}{body.text}{TAGGED_CLOSE}", names)
            if parsed.truncated or body.finish_reason in ("length", "cancelled"):
                return calls, True
            found = parsed.calls or parsed.unknown
            if not found:
                break
            call = found[0]
            if call.key() in seen:
                break  # the same call twice in one reply: the model is looping
            if calls and policy.repeat_as_prose and self.view.repeats(call.name, call.arguments):
                break  # after the new calls, a repeat of one already answered: stop there
            if wanted is not None and not policy.keeps_extra_call(
                self.view, call.name, call.arguments, wanted, tools
            ):
                break  # the call the policy asked for does not carry what it was asked for
            calls.append(call)
            seen.add(call.key())
            tokens = tokens + list(body.tokens)
            if not body.text.endswith("\n"):
                tokens += self.runtime.tokenize("\n", special=True)
            tokens += self.close_tag
            left = (
                policy.unused_values(self.view, [(c.name, c.arguments) for c in calls], tools)
                if more
                else frozenset()
            )
            if left:
                # The request holds values no call carries yet: ask for the next call.
                wanted = left
                tokens = tokens + self.runtime.tokenize("\n", special=True) + self.open_tag
                continue
            if policy.one_call_per_reply or not more:
                break
            # What the model writes after the close tag says whether another call follows.
            after = self._generate(
                None,
                tokens=tokens,
                stream=False,
                stop_at_call=True,
                stop_token=self.open_token,
                max_new=4,
            )
            if after.finish_reason != "call" or after.text.strip():
                break
            wanted = None
            tokens = tokens + list(after.tokens) + self.open_tag
        return calls, False

    def _share(self, mask: Any, row: int) -> float:
        """The probability of the tokens in ``mask`` at ``row`` of the last batch.

        End tokens are left out of the whole when the policy forbids an empty
        reply: the share is among the tokens the reply may open with.
        """
        import numpy as np

        logits = np.array(self.runtime.logits(row), dtype=np.float64)
        if self.policy.never_empty and self.end_tokens:
            logits[list(self.end_tokens)] = -np.inf
        weights = np.exp(logits - logits.max())
        return float(weights[mask].sum() / weights.sum())

    def _usage(self) -> Usage:
        prompt_tokens = len(self.tokens)
        return Usage(prompt_tokens, self.completion_tokens, prompt_tokens + self.completion_tokens)

    def _finish(self, attempt: _Attempt, calls: tuple[ParsedCall, ...]) -> Turn:
        if not calls:
            # The reply is prose after all (or a call cut short by max_tokens,
            # which is shown as the text it is): send what was held back.
            attempt.gate.flush()
        finish = "tool_calls" if calls else attempt.finish_reason
        return Turn("" if calls else attempt.text, calls, finish, self._usage())

    def _generate(
        self,
        grammar: str | None,
        *,
        tokens: Sequence[int] | None = None,
        stream: bool = True,
        stop_at_call: bool = False,
        stop_token: int | None = None,
        max_new: int | None = None,
        call_floor: tuple[float, Any] | None = None,
        drafter: Drafter | None = None,
        call_body: bool = False,
        reply: bool = False,
    ) -> _Attempt:
        """One generation, text decoded as it comes.

        Text is decoded with special tokens (``<tool_call>`` is one).
        ``decode`` keeps the KV cache of the longest prefix already evaluated,
        so continuing from a generation's own tokens evaluates only what was
        appended.

        Args:
            grammar: GBNF for the generated text, or ``None``.
            tokens: The context (default: the prompt).
            stream: Pass prose on to the sink as it is decided.
            stop_at_call: Stop as soon as the text opens like a call
                (finish reason ``"call"``).
            stop_token: A token that also means "a call opens here"
                (``<tool_call>``); it is not part of the returned tokens.
            max_new: At most this many tokens.
            call_floor: ``(share, mask)``: the reply opens a call (finish
                reason ``"call"``) when the tokens in ``mask`` get at least
                this share of the first token's probability, whatever the
                sampler picked.
            drafter: Guesses of the next tokens, checked in one batch (default:
                text copied from the context).
            call_body: The text is a call's body, complete at the newline after
                its JSON (the grammar allows nothing else there), so the step
                that would only sample the end of the text is skipped.
            reply: The text is the start of a reply, which the policy may
                forbid to end before it begins (``never_empty``).
        """
        runtime = self.runtime
        options = self.options
        context = list(self.tokens if tokens is None else tokens)
        limit = runtime.n_ctx - len(context)
        if options.max_tokens is not None:
            limit = min(limit, options.max_tokens - self.completion_tokens)
        if max_new is not None:
            limit = min(limit, max_new)
        gate = StreamGate(self.sink if stream else None)
        stops = StopScanner(options.stop or ())
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        finish = "length"
        produced: list[int] = []
        opened = False  # the reply's first visible character has been seen
        sampler: _RowRecorder | None = None
        try:
            sampler = _RowRecorder(
                runtime.sampler(
                    temperature=options.temperature if options.temperature is not None else 0.0,
                    top_p=options.top_p if options.top_p is not None else 0.95,
                    seed=runtime.seed if options.seed is None else options.seed,
                    grammar=grammar,
                    not_first=self.end_tokens if reply and self.policy.never_empty else (),
                )
            )
            generated = decode(
                runtime,
                context,
                sampler,
                drafter=drafter or PromptLookup(context),
                max_draft=max(0, limit - 1),
            )
            for token in generated if limit > 0 else ():
                if self.cancel.is_set():
                    finish = "cancelled"
                    break
                if call_floor is not None and not produced:
                    share = self._share(call_floor[1], sampler.row)
                    logger.debug("call share at the opening: %.3f", share)
                    if share >= call_floor[0]:
                        finish = "call"
                        break
                if token == stop_token:
                    finish = "call"
                    break
                if runtime.is_end(token):
                    finish = "stop"
                    break
                produced.append(token)
                piece, stopped = stops.feed(decoder.decode(runtime.detokenize([token])))
                if stop_at_call and not opened and piece.strip():
                    opened = True
                    if self.policy.spelled_tag_as_prose and piece.lstrip().startswith("<"):
                        # The model's calls open with the <tool_call> token; a reply that
                        # spells a tag out of plain pieces (``<tools></tools>``, copied
                        # from the system prompt) is neither a call nor prose for the user.
                        finish = "tag"
                        break
                gate.feed(piece)
                if stopped or (call_body and piece.endswith("\n") and gate.text().strip()):
                    finish = "stop"
                    break
                if stop_at_call and gate.kind is ReplyKind.CALLS:
                    finish = "call"
                    break
                if len(produced) >= limit:
                    break
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"llama.cpp failed while generating: {exc}") from exc
        finally:
            if sampler is not None:
                sampler.close()
        if not stops.stopped:
            gate.feed(stops.feed(decoder.decode(b"", final=True))[0] + stops.rest())
        self.completion_tokens += len(produced)
        logger.debug(
            "generated %d tokens (%s, grammar: %s): %r",
            len(produced),
            finish,
            "tools" if grammar and "tool-" in grammar else "text" if grammar else "none",
            gate.text(),
        )
        return _Attempt(gate.text(), finish, gate, tuple(produced))


_MAX_CALLS_PER_REPLY = 8
"""More calls than this in one reply is a model writing calls in a loop."""


def _unique(calls: Iterable[ParsedCall]) -> list[ParsedCall]:
    seen: set[tuple[str, str]] = set()
    result: list[ParsedCall] = []
    for call in calls:
        if call.key() not in seen:
            seen.add(call.key())
            result.append(call)
    return result
