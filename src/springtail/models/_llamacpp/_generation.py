"""Generating one reply of the embedded model: prose, or tool calls framed by its own tokens.

``LlamaCppChatModel`` renders the prompt and hands it here; this module runs
llama-cpp-python's sampler over it, decides between prose and calls, keeps
calls from looping, and streams prose as soon as it cannot be a call.
"""

from __future__ import annotations

import codecs
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from springtail.messages import ChatOptions, Usage
from springtail.models._base import ModelError
from springtail.models._llamacpp._decoding import Drafter, Sampler, decode
from springtail.models._llamacpp._drafts import CallDraft, PromptLookup
from springtail.models._llamacpp._followup import named_tools
from springtail.models._llamacpp._grammar import (
    TAGGED_CLOSE,
    TAGGED_OPEN,
    build_grammar,
    text_only_grammar,
)
from springtail.models._llamacpp._parse import ParsedCall, ReplyKind, classify, parse_output
from springtail.models._llamacpp._runtime import import_llama_cpp
from springtail.models._llamacpp._stream import Sink, StopScanner, StreamGate
from springtail.tools._definition import ToolDefinition

__all__ = ["Answered", "Generator", "Sink", "Turn"]

logger = logging.getLogger("springtail.models.llamacpp")


@dataclass(frozen=True, slots=True)
class _Attempt:
    text: str
    finish_reason: str
    gate: StreamGate
    tokens: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Turn:
    text: str
    calls: tuple[ParsedCall, ...]
    finish_reason: str
    usage: Usage


class Generator:
    """One request's generations: the model's opening, its calls, and retries when it repeats.

    The model's chat template marks a call with the special tokens
    ``<tool_call>`` and ``</tool_call>``. llama.cpp's grammar sampler cannot
    emit special tokens, so a grammar over the whole reply made the model spell
    the tags out of plain pieces (``<``, ``/to``, ``o``, …): the first call
    came as a ```` ```json ```` block instead, and once a spelled-out close tag
    ended in a newline the grammar forced yet another call, which is where
    replies full of invented calls came from. So the structure is left to the
    model's own tokens and only a call's JSON is constrained: the reply opens
    freely; when its first token is ``<tool_call>`` (or it starts a call in
    another shape) the call's body is generated under the tools' grammar,
    ``</tool_call>`` is placed as the real token, and the model's next tokens
    decide whether another call follows.
    """

    def __init__(
        self,
        llama: Any,
        tokens: Sequence[int],
        options: ChatOptions,
        sink: Sink | None,
        cancel: threading.Event,
        *,
        call_floor: tuple[float, Any] | None = None,
        end_tokens: Sequence[int] = (),
        request: str = "",
    ) -> None:
        """Prepare one request's generations.

        Args:
            llama: The loaded ``llama_cpp.Llama``.
            tokens: The rendered prompt.
            options: The request's options (temperature, stop, max_tokens, …).
            sink: Where prose deltas go as they are decided; ``None`` collects.
            cancel: Set to stop generating.
            call_floor: ``(share, mask)``: the reply opens with a call when the
                tokens in ``mask`` get at least this share of the first token's
                probability (``follow_up_call_floor``).
            end_tokens: The tokens that end a generation; a reply may not
                begin with one (an empty reply tells the user nothing).
            request: The last user message, whose values calls often copy
                (guessed ahead, see ``CallDraft``).
        """
        self.llama = llama
        self.tokens = list(tokens)
        self.options = options
        self.sink = sink
        self.cancel = cancel
        self.completion_tokens = 0
        self.call_floor = call_floor
        self.end_tokens = tuple(end_tokens)
        self.request = request
        self.open_tag = self._special(TAGGED_OPEN)
        self.close_tag = self._special(TAGGED_CLOSE)
        # The tag as one token, when the vocabulary has it (Qwen's does).
        self.open_token = self.open_tag[0] if len(self.open_tag) == 1 else None

    def _tokenize(self, text: str) -> list[int]:
        return list(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _detokenize(self, tokens: Sequence[int]) -> str:
        raw: bytes = self.llama.detokenize(list(tokens), special=True)
        return raw.decode("utf-8", errors="replace")

    def _special(self, tag: str) -> list[int]:
        return list(self.llama.tokenize(tag.encode("utf-8"), add_bos=False, special=True))

    def turn(
        self,
        tools: Sequence[ToolDefinition],
        answered: Answered,
        max_retries: int,
        request: str = "",
    ) -> Turn:
        """Generate one reply: prose, or calls.

        Args:
            tools: The tools offered.
            answered: Calls already made and answered since the last request.
            max_retries: Retries with repeated tools blocked.
            request: The last user message, for tools it names (``named_tools``);
                empty turns that off.
        """
        if not tools:
            return self._finish(self._generate(None, reply=True), ())
        finished = False
        if answered and request:
            named = {d.name for d in named_tools(request, tools, ())}
            finished = bool(named) and named <= answered.succeeded
            offered = named_tools(request, tools, answered.names())
            if offered:
                # The request names a tool this turn has not called: offer it first.
                # With the called tools blocked there is no catch-all: measured, the
                # model used it to repeat its last call about half of the time.
                called = frozenset(answered.names())
                calls, _ = self._calls(self.tokens, offered, called, answered)
                fresh = _unique(c for c in calls if not answered.repeats(c))
                if fresh:
                    return Turn("", tuple(fresh), "tool_calls", self._usage())
        opening = self._generate(
            None,
            stop_at_call=True,
            stop_token=self.open_token,
            call_floor=self.call_floor,
            reply=True,
        )
        if opening.finish_reason == "tag":
            # Seen for requests no tool serves ("What is the capital of France?"):
            # forced into a call it picked a tool at random, so it answers in prose.
            return self._finish(self._generate(text_only_grammar(), reply=True), ())
        if opening.finish_reason != "call":
            return self._finish(opening, ())
        if finished:
            # Every tool the request names has done its part. Measured with the 1.5B
            # model: what it called next was a repeat or made up ("10 left" after a
            # reservation became calculate(10 - 2)), never a step the request needed.
            return self._finish(self._generate(text_only_grammar(), reply=True), ())
        # Prose the model wrote before opening a call was streamed already: keep it.
        prose = opening.text if classify(opening.text) is ReplyKind.TEXT else ""
        context = self.tokens + (list(opening.tokens) if prose else [])
        blocked: frozenset[str] = frozenset()
        for _ in range(1 + max_retries):
            calls, truncated = self._calls(context, tools, blocked, answered)
            if truncated and not calls:
                return Turn(prose, (), "length", self._usage())
            if not calls:  # only tools that do not exist: no tool, answer instead
                break
            fresh = _unique(c for c in calls if not answered.repeats(c))
            if fresh:
                if self.options.parallel_tool_calls is False:
                    fresh = fresh[:1]
                return Turn(prose, tuple(fresh), "tool_calls", self._usage())
            # Every call repeats one already answered in this turn: small models
            # loop on their last call. Block those tools and let it choose again.
            blocked = blocked | {c.name for c in calls}
            if self.cancel.is_set():
                break
        return self._finish(self._generate(text_only_grammar(), reply=True), ())

    def _calls(
        self,
        context: list[int],
        tools: Sequence[ToolDefinition],
        blocked: frozenset[str],
        answered: Answered,
    ) -> tuple[list[ParsedCall], bool]:
        """The calls of one reply, each body under the grammar; (calls, cut short)."""
        known = {d.name for d in tools}
        grammar = build_grammar(tools, blocked=blocked)
        tokens = context + self.open_tag
        calls: list[ParsedCall] = []
        seen: set[tuple[str, str]] = set()
        while len(calls) < _MAX_CALLS_PER_REPLY and not self.cancel.is_set():
            # Values are guessed from a run of 3 tokens seen before, not 2: in a call's
            # JSON a 2-token run (`": "`) matches everywhere and guesses wrong.
            lookup = PromptLookup(tokens, shortest=3)
            drafter = CallDraft(
                tools, self._tokenize, self._detokenize, lookup, request=self.request
            )
            body = self._generate(
                grammar, tokens=tokens, stream=False, drafter=drafter, call_body=True
            )
            parsed = parse_output(f"{TAGGED_OPEN}{body.text}{TAGGED_CLOSE}", known)
            if parsed.truncated or body.finish_reason in ("length", "cancelled"):
                return calls, True
            if not parsed.calls:  # the catch-all branch: a tool that does not exist
                break
            call = parsed.calls[0]
            if calls and (call.key() in seen or answered.repeats(call)):
                break  # after the calls a request needs, the model repeats one: stop there
            calls.append(call)
            seen.add(call.key())
            if answered.repeats(call):
                break  # the caller blocks the repeated tool and asks again
            tokens = tokens + list(body.tokens)
            if not body.text.endswith("\n"):
                tokens += self.llama.tokenize(b"\n", add_bos=False, special=True)
            tokens += self.close_tag
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
            tokens = tokens + list(after.tokens) + self.open_tag
        return calls, False

    def _share(self, mask: Any) -> float:
        """The probability of the tokens in ``mask`` at the position just sampled."""
        import numpy as np

        llama = self.llama
        logits = np.ctypeslib.as_array(llama._ctx.get_logits(), shape=(llama.n_vocab(),))
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
        """One generation with llama-cpp-python's sampler, text decoded as it comes.

        Text is decoded with special tokens (``create_completion`` drops them).
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
            reply: The text is the start of a reply, which may not end before
                it begins. After tool results the 1.5B model sometimes puts
                its end token narrowly first and answers nothing.
        """
        llama_cpp = import_llama_cpp()
        llama = self.llama
        options = self.options
        context = list(self.tokens if tokens is None else tokens)
        limit = llama.n_ctx() - len(context)
        if options.max_tokens is not None:
            limit = min(limit, options.max_tokens - self.completion_tokens)
        if max_new is not None:
            limit = min(limit, max_new)
        gate = StreamGate(self.sink if stream else None)
        stops = StopScanner(options.stop or ())
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        vocab = llama._model.vocab
        finish = "length"
        produced: list[int] = []
        opened = False  # the reply's first visible character has been seen
        sampler: Sampler | None = None
        try:
            sampler = Sampler(
                llama,
                temperature=options.temperature if options.temperature is not None else 0.0,
                top_p=options.top_p if options.top_p is not None else 0.95,
                seed=llama._seed if options.seed is None else options.seed,
                grammar=grammar,
                not_first=self.end_tokens if reply else (),
            )
            generated = decode(
                llama,
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
                    share = self._share(call_floor[1])
                    logger.debug("call share at the opening: %.3f", share)
                    if share >= call_floor[0]:
                        finish = "call"
                        break
                if token == stop_token:
                    finish = "call"
                    break
                if llama_cpp.llama_vocab_is_eog(vocab, token):
                    finish = "stop"
                    break
                produced.append(token)
                piece, stopped = stops.feed(decoder.decode(llama.detokenize([token], special=True)))
                if stop_at_call and not opened and piece.strip():
                    opened = True
                    if piece.lstrip().startswith("<"):
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


@dataclass(frozen=True, slots=True)
class Answered:
    """What the tools did since the last user message: a call that repeats it is a loop.

    A repeat is the same call again, or any call to a tool that already
    succeeded in this turn: after "Added to-do #1." the 1.5B model was seen
    adding the same to-do again under another title. A tool that failed may be
    called again with other arguments; that is how the model acts on an error.
    """

    keys: frozenset[tuple[str, str]] = frozenset()
    succeeded: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.keys)

    def names(self) -> set[str]:
        """The tools called in this turn."""
        return {name for name, _ in self.keys}

    def repeats(self, call: ParsedCall) -> bool:
        """Whether ``call`` would do again what this turn already did."""
        return call.key() in self.keys or call.name in self.succeeded


def _unique(calls: Any) -> list[ParsedCall]:
    seen: set[tuple[str, str]] = set()
    result: list[ParsedCall] = []
    for call in calls:
        if call.key() not in seen:
            seen.add(call.key())
            result.append(call)
    return result
