"""One request's decoding: the sampler over the prompt, text as it comes, and where it stops.

The generator (``_generation.py``), the planner (``_planning.py``) and the
JSON calls (``_json_calls.py``) all generate through one ``Decoder``,
which holds what a request shares: the prompt, the options, the profile, the
cancel flag, the stream and the count of generated tokens.
"""

from __future__ import annotations

import codecs
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from springtail.messages import ChatOptions, Usage
from springtail.models._base import ModelError
from springtail.models._llamacpp._decoding import Drafter, decode
from springtail.models._llamacpp._drafts import PromptLookup
from springtail.models._llamacpp._grammar import TAGGED_CLOSE, TAGGED_OPEN
from springtail.models._llamacpp._parse import ParsedCall, ReplyKind
from springtail.models._llamacpp._profile import DecodingProfile
from springtail.models._llamacpp._repeats import Repeats
from springtail.models._llamacpp._reply import Attempt, Reply
from springtail.models._llamacpp._runtime import Runtime, TokenSampler
from springtail.models._llamacpp._stream import Sink, StopScanner, StreamGate

__all__ = ["Decoder"]

logger = logging.getLogger("springtail.models.llamacpp")


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


class Decoder:
    """Generations over one request's prompt.

    Args:
        runtime: The loaded model.
        tokens: The rendered prompt.
        options: The request's options (temperature, stop, max_tokens, …).
        profile: How text is generated (answer bound, repeats, empty replies).
        sink: Where prose deltas go as they are decided; ``None`` collects.
        cancel: Set to stop generating.
        end_tokens: The tokens that end a generation.
    """

    def __init__(
        self,
        runtime: Runtime,
        tokens: Sequence[int],
        options: ChatOptions,
        profile: DecodingProfile,
        sink: Sink | None,
        cancel: threading.Event,
        end_tokens: Sequence[int] = (),
    ) -> None:
        self.runtime = runtime
        self.tokens = list(tokens)
        self.options = options
        self.profile = profile
        self.sink = sink
        self.cancel = cancel
        self.end_tokens = tuple(end_tokens)
        self.completion_tokens = 0
        self.open_tag = runtime.tokenize(TAGGED_OPEN, special=True)
        self.close_tag = runtime.tokenize(TAGGED_CLOSE, special=True)
        self.newline = runtime.tokenize("\n", special=True)
        # The tag as one token, when the vocabulary has it (Qwen's does).
        self.open_token = self.open_tag[0] if len(self.open_tag) == 1 else None

    def tokenize(self, text: str) -> list[int]:
        """Plain text to tokens (special texts stay text)."""
        return self.runtime.tokenize(text, special=False)

    def detokenize(self, tokens: Sequence[int]) -> str:
        """Tokens to text."""
        return self.runtime.detokenize(tokens).decode("utf-8", errors="replace")

    def usage(self) -> Usage:
        """The request's usage so far."""
        prompt_tokens = len(self.tokens)
        return Usage(prompt_tokens, self.completion_tokens, prompt_tokens + self.completion_tokens)

    def reply(
        self,
        text: str,
        calls: Sequence[ParsedCall] = (),
        finish_reason: str = "tool_calls",
        metadata: Mapping[str, Any] | None = None,
    ) -> Reply:
        """A reply with the request's usage so far."""
        return Reply(text, tuple(calls), finish_reason, self.usage(), metadata or {})

    def finish(self, attempt: Attempt) -> Reply:
        """A prose reply from ``attempt``: send what was held back.

        The reply is prose after all (or a call cut short by ``max_tokens``,
        which is shown as the text it is).
        """
        attempt.gate.flush()
        return self.reply(attempt.text, (), attempt.finish_reason)

    def share(self, mask: Any, row: int, *, opening: bool = True) -> float:
        """The probability of the tokens in ``mask`` at ``row`` of the last batch.

        At a reply's ``opening``, end tokens are left out of the whole when the
        profile forbids an empty reply: the share is among the tokens the
        reply may open with.
        """
        import numpy as np

        logits = np.array(self.runtime.logits(row), dtype=np.float64)
        if opening and self.profile.never_empty and self.end_tokens:
            logits[list(self.end_tokens)] = -np.inf
        weights = np.exp(logits - logits.max())
        return float(weights[mask].sum() / weights.sum())

    def next_share(self, tokens: Sequence[int], mask: Any) -> float:
        """The probability that the token after ``tokens`` is one in ``mask`` (one step)."""
        sampler = _RowRecorder(
            self.runtime.sampler(temperature=0.0, top_p=1.0, seed=self.runtime.seed, grammar=None)
        )
        try:
            next(iter(decode(self.runtime, tokens, sampler, max_draft=0)))
            return self.share(mask, sampler.row, opening=False)
        finally:
            sampler.close()

    def generate(
        self,
        grammar: str | None,
        *,
        tokens: Sequence[int] | None = None,
        stream: bool = True,
        stop_at_call: bool = False,
        max_new: int | None = None,
        call_floor: tuple[float, Any, bool] | None = None,
        drafter: Drafter | None = None,
        done: Callable[[str], bool] | None = None,
        reply: bool = False,
        answer: bool = False,
    ) -> Attempt:
        """One generation, text decoded as it comes.

        Text is decoded with special tokens (``<tool_call>`` is one).
        ``decode`` keeps the KV cache of the longest prefix already evaluated,
        so continuing from a generation's own tokens evaluates only what was
        appended.

        Args:
            grammar: GBNF for the generated text, or ``None``.
            tokens: The context (default: the prompt).
            stream: Pass prose on to the sink as it is decided.
            stop_at_call: Stop as soon as the text opens like a call, or the
                ``<tool_call>`` token comes (finish reason ``"call"``; the
                token is not part of the returned tokens).
            max_new: At most this many tokens.
            call_floor: ``(share, mask, both_ways)``: the reply opens a call
                (finish reason ``"call"``) when the tokens in ``mask`` get at
                least this share of the first token's probability, whatever the
                sampler picked; with ``both_ways``, below it a first token in
                ``mask`` ends the generation with finish reason ``"prose"`` (the
                caller generates prose instead).
            drafter: Guesses of the next tokens, checked in one batch (default:
                text copied from the context).
            done: Says from the text so far that it is complete (a line at its
                newline, a value at the character after it), so the step that
                would only sample what comes next is skipped.
            reply: The text is the start of a reply, which the profile may
                forbid to end before it begins (``never_empty``).
            answer: The text is an answer to the user: the profile's bound on
                answers applies unless the request sets ``max_tokens``, and
                text that repeats itself is cut (finish reason ``length``).
        """
        runtime = self.runtime
        options = self.options
        profile = self.profile
        context = list(self.tokens if tokens is None else tokens)
        limit = runtime.n_ctx - len(context)
        if options.max_tokens is not None:
            limit = min(limit, options.max_tokens - self.completion_tokens)
        elif answer and profile.answer_tokens is not None:
            limit = min(limit, profile.answer_tokens)
        if max_new is not None:
            limit = min(limit, max_new)
        repeats = (
            Repeats()
            if answer and profile.stop_repeats and options.extra.get("stop_repeats", True)
            else None
        )
        stop_token = self.open_token if stop_at_call else None
        gate = StreamGate(self.sink if stream else None, code=profile.plans)
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
                    not_first=self.end_tokens if reply and profile.never_empty else (),
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
                    floor, mask, both_ways = call_floor
                    share = self.share(mask, sampler.row)
                    logger.debug("call share at the opening: %.3f", share)
                    if share >= floor:
                        finish = "call"
                        break
                    if both_ways and (mask[token] or token == stop_token):
                        finish = "prose"
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
                    if (
                        profile.spelled_tag_as_prose
                        and not profile.plans
                        and piece.lstrip().startswith("<")
                    ):
                        # The model's calls open with the <tool_call> token; a reply that
                        # spells a tag out of plain pieces (``<tools></tools>``, copied
                        # from the system prompt) is neither a call nor prose for the user.
                        finish = "tag"
                        break
                gate.feed(piece)
                if stopped or (done is not None and done(gate.text())):
                    finish = "stop"
                    break
                if stop_at_call and gate.kind is ReplyKind.CALLS:
                    finish = "call"
                    break
                if repeats is not None and repeats.feed(token):
                    break  # the answer goes round in circles: cut, finish reason "length"
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
            "none" if grammar is None else grammar.split("\n", 1)[0][:60],
            gate.text(),
        )
        return Attempt(gate.text(), finish, gate, tuple(produced))
