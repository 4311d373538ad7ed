"""LlamaCppChatModel: the embedded default, a ChatModel running llama.cpp in-process."""

from __future__ import annotations

import asyncio
import codecs
import json
import logging
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from springtail._sync import iterate_sync, run_sync
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Prompt,
    ToolCall,
    ToolResponseMessage,
    Usage,
    UserMessage,
)
from springtail.models._base import ModelError, ModelUnavailableError
from springtail.models._llamacpp._files import EMBEDDED_MODELS, ensure_model_file
from springtail.models._llamacpp._followup import named_tools
from springtail.models._llamacpp._grammar import (
    TAGGED_CLOSE,
    TAGGED_OPEN,
    build_grammar,
    text_only_grammar,
)
from springtail.models._llamacpp._parse import ParsedCall, ReplyKind, classify, parse_output
from springtail.models._llamacpp._runtime import default_threads, import_llama_cpp, load_llama
from springtail.models._llamacpp._template import DEFAULT_TOOL_GUIDANCE, TemplateRenderer
from springtail.tools._definition import ToolDefinition

__all__ = ["LlamaCppChatModel"]

logger = logging.getLogger("springtail.models.llamacpp")

_Sink = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class _Attempt:
    text: str
    finish_reason: str
    gate: _StreamGate
    tokens: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class _Turn:
    text: str
    calls: tuple[ParsedCall, ...]
    finish_reason: str
    usage: Usage


class _Engine:
    """A loaded model: the llama.cpp context and the renderer of its chat template."""

    def __init__(self, llama: Any, renderer: TemplateRenderer) -> None:
        self.llama = llama
        self.renderer = renderer
        self._call_openers: Any = None

    def call_openers(self) -> Any:
        """A mask over the vocabulary: the tokens a reply that is a call opens with.

        ``<tool_call>`` and pieces starting with ``<`` (the tag spelled out),
        ``{`` or a code fence (the model's other call shapes). Built on first
        use, once per model: one pass over the vocabulary.
        """
        if self._call_openers is None:
            import numpy as np

            llama = self.llama
            # The raw token texts (0.1 s, a third of detokenizing each token):
            # what the call openers start with is plain ASCII either way.
            pieces = (llama._model.token_get_text(i) for i in range(llama.n_vocab()))
            self._call_openers = np.fromiter(
                (p.startswith(("<", "{", "```")) for p in pieces),
                dtype=bool,
                count=llama.n_vocab(),
            )
        return self._call_openers


class LlamaCppChatModel:
    """A chat model running a GGUF file in this process with llama.cpp.

    ``model`` is ``"embedded"`` (Qwen2.5-Coder 1.5B, shipped in PyPI part
    packages), ``"embedded-small"`` (the 0.5B variant) or the path of any GGUF
    file. Nothing is loaded until the first call; inference runs on one worker
    thread per model (a llama.cpp context is not thread-safe), so concurrent
    requests to one model take turns and never block the event loop.

    Tool calls are constrained by a grammar built from the request's tool
    schemas, so a call always names a tool and carries schema-valid
    arguments (see ``docs/embedded-model.md``).
    """

    def __init__(
        self,
        model: str | Path = "embedded",
        *,
        n_threads: int | None = None,
        n_ctx: int = 4096,
        default_options: ChatOptions | None = None,
        tool_guidance: str | None = DEFAULT_TOOL_GUIDANCE,
        max_repeat_retries: int = 0,
        offer_named_tools: bool = True,
        follow_up_call_floor: float | None = 0.05,
        progress: bool = False,
        weight_repacking: bool | None = None,
    ) -> None:
        """Describe the model; nothing is loaded yet.

        Args:
            model: ``"embedded"``, ``"embedded-small"`` or a path to a ``.gguf`` file.
            n_threads: CPU threads for inference; default ``SPRINGTAIL_THREADS``
                or every core. Fewer threads help when other busy processes
                share the machine.
            n_ctx: Context window in tokens (prompt plus reply).
            default_options: Options used when a request leaves them unset.
                Temperature defaults to 0: the small model chooses tools best
                when it does not sample.
            tool_guidance: A sentence added to the system prompt when tools are
                offered, keeping the small model from calling tools for
                greetings; ``None`` leaves the system prompt untouched.
            max_repeat_retries: How often a reply that only repeats calls
                already answered in this turn is generated again with those
                tools blocked, before the model must answer in prose.
            offer_named_tools: Once a turn has tool results, offer a call to
                a tool the request names word for word but the turn has not
                called ("... and add that as a to-do" after a reservation)
                before letting the model answer.
                The 1.5B model otherwise answers after the first of two
                requested actions (see ``docs/embedded-model.md``).
            follow_up_call_floor: In a conversation that already has answers,
                a new request opens with a tool call when the model gives the
                call-opening tokens at least this share of its first token's
                probability, even if prose is likelier. Shown earlier answers,
                the 1.5B model rates calling low (0.02–0.12 for requests that
                need a tool, 0.000 for small talk) and answers from nothing;
                once a follow-up has called, the history shows calls and the
                share climbs again (0.24, 0.68, 0.98). ``None`` keeps the
                plain greedy choice. See ``docs/embedded-model.md``.
            progress: Show a progress bar on stderr while the embedded model
                file is assembled on first use.
            weight_repacking: Let llama.cpp repack weights for faster prompt
                processing; default on, except on CPUs with Intel AMX, where
                llama-cpp-python 0.3.36 crashes with it.
        """
        if n_ctx < 256:
            raise ValueError(f"n_ctx={n_ctx} is too small for a chat: use at least 256 tokens.")
        if n_threads is not None and n_threads < 1:
            raise ValueError(f"n_threads={n_threads} must be at least 1 (or None for all cores).")
        if max_repeat_retries < 0:
            raise ValueError(f"max_repeat_retries={max_repeat_retries} must not be negative.")
        self.model = str(model)
        self.n_ctx = n_ctx
        self.n_threads = n_threads if n_threads is not None else default_threads()
        self.default_options = default_options or ChatOptions()
        self.tool_guidance = tool_guidance
        self.max_repeat_retries = max_repeat_retries
        self.offer_named_tools = offer_named_tools
        if follow_up_call_floor is not None and not 0.0 < follow_up_call_floor <= 1.0:
            raise ValueError(
                f"follow_up_call_floor={follow_up_call_floor} must lie in (0, 1], or be None."
            )
        self.follow_up_call_floor = follow_up_call_floor
        self._progress = progress
        self._weight_repacking = weight_repacking
        self._engine: _Engine | None = None
        self._lock = threading.Lock()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="springtail-llama")

    def __repr__(self) -> str:
        return (
            f"LlamaCppChatModel(model={self.model!r}, n_threads={self.n_threads}, "
            f"n_ctx={self.n_ctx})"
        )

    # -- ChatModel -----------------------------------------------------------------

    def call(self, prompt: Prompt) -> ChatResponse:
        """Answer ``prompt``; blocks until the whole reply is generated."""
        return run_sync(self.acall(prompt))

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """Answer ``prompt`` without blocking the event loop."""
        cancel = threading.Event()
        loop = asyncio.get_running_loop()
        try:
            turn = await loop.run_in_executor(self._executor, self._run_turn, prompt, None, cancel)
        except asyncio.CancelledError:
            cancel.set()
            raise
        return self._response(turn)

    def stream(self, prompt: Prompt) -> Iterator[ChatResponse]:
        """Text deltas as they are generated, then the tool calls and usage."""
        return iterate_sync(lambda: self.astream(prompt))

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        """Text deltas as they are generated, then the tool calls and usage.

        A reply that may still turn out to be a tool call is held back until
        that is decided, so a call's JSON is never shown as text.
        """
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        cancel = threading.Event()

        def sink(delta: str) -> None:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, delta)
            except RuntimeError:  # the consumer's loop is gone: stop generating
                cancel.set()

        future = loop.run_in_executor(self._executor, self._run_turn, prompt, sink, cancel)
        future.add_done_callback(lambda _: queue.put_nowait(None))
        try:
            while (delta := await queue.get()) is not None:
                yield ChatResponse.of(delta, model=self.model)
            turn = await future
        finally:
            cancel.set()
        yield self._response(turn, text="")

    def close(self) -> None:
        """Free the model's memory; a later call loads it again."""
        with self._lock:
            engine, self._engine = self._engine, None
        if engine is not None:
            close = getattr(engine.llama, "close", None)
            if close is not None:
                close()

    # -- generation (runs on the worker thread) ------------------------------------

    def _response(self, turn: _Turn, *, text: str | None = None) -> ChatResponse:
        calls = tuple(
            ToolCall(
                id=f"call_{uuid.uuid4().hex[:12]}",
                name=c.name,
                arguments=json.dumps(c.arguments, ensure_ascii=False),
            )
            for c in turn.calls
        )
        message = AssistantMessage(turn.text if text is None else text, calls)
        return ChatResponse.of(
            message, finish_reason=turn.finish_reason, usage=turn.usage, model=self.model
        )

    def _load(self) -> _Engine:
        if self._engine is None:
            path = self._model_path()
            llama = load_llama(
                path,
                n_ctx=self.n_ctx,
                n_threads=self.n_threads,
                weight_repacking=self._weight_repacking,
            )
            template = llama.metadata.get("tokenizer.chat_template")
            if not template:
                raise ModelUnavailableError(
                    f"{path} has no chat template in its metadata: springtail renders "
                    "prompts with the model's own template, so use an instruct/chat GGUF."
                )
            eos = llama.token_eos()
            bos = llama.token_bos()
            renderer = TemplateRenderer(
                template,
                eos_token=llama._model.token_get_text(eos) if eos != -1 else "",
                bos_token=llama._model.token_get_text(bos) if bos != -1 else "",
            )
            self._engine = _Engine(llama, renderer)
        return self._engine

    def _model_path(self) -> Path:
        if self.model in EMBEDDED_MODELS:
            return ensure_model_file(self.model, progress=self._progress)
        path = Path(self.model).expanduser()
        if not path.is_file():
            known = ", ".join(repr(n) for n in EMBEDDED_MODELS)
            raise ModelUnavailableError(
                f"No model file at {path}: give the path of a .gguf file or one of {known}."
            )
        return path

    def _run_turn(self, prompt: Prompt, sink: _Sink | None, cancel: threading.Event) -> _Turn:
        with self._lock:
            engine = self._load()
            options = self.default_options.merge(prompt.options)
            tools = _tool_definitions(options)
            text = engine.renderer.render(prompt.messages, tools, guidance=self.tool_guidance)
            tokens = engine.llama.tokenize(text.encode("utf-8"), add_bos=False, special=True)
            if len(tokens) >= self.n_ctx:
                raise ModelError(
                    f"The prompt is {len(tokens)} tokens, more than the model's context of "
                    f"{self.n_ctx}: shorten the conversation (a smaller chat-memory window) "
                    "or build the model with a larger n_ctx."
                )
            if logger.isEnabledFor(logging.DEBUG):
                logger.debug(
                    "prompt: %d tokens, %d of them cached", len(tokens), _cached(engine, tokens)
                )
            answered = _answered_calls(prompt)
            generator = _Generator(engine.llama, tokens, options, sink, cancel)
            floor = self.follow_up_call_floor
            if tools and floor is not None and not answered and _is_follow_up(prompt):
                generator.call_floor = (floor, engine.call_openers())
            return generator.turn(
                tools,
                answered,
                self.max_repeat_retries,
                _last_request(prompt) if self.offer_named_tools else "",
            )


class _Generator:
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
        sink: _Sink | None,
        cancel: threading.Event,
    ) -> None:
        self.llama = llama
        self.tokens = list(tokens)
        self.options = options
        self.sink = sink
        self.cancel = cancel
        self.completion_tokens = 0
        self.open_tag = self._special(TAGGED_OPEN)
        # (share, mask): the opening is a call when the tokens in mask get this share.
        self.call_floor: tuple[float, Any] | None = None
        self.close_tag = self._special(TAGGED_CLOSE)

    def _special(self, tag: str) -> list[int]:
        return list(self.llama.tokenize(tag.encode("utf-8"), add_bos=False, special=True))

    def turn(
        self,
        tools: Sequence[ToolDefinition],
        answered: _Answered,
        max_retries: int,
        request: str = "",
    ) -> _Turn:
        """Generate one reply: prose, or calls.

        Args:
            tools: The tools offered.
            answered: Calls already made and answered since the last request.
            max_retries: Retries with repeated tools blocked.
            request: The last user message, for tools it names (``named_tools``);
                empty turns that off.
        """
        if not tools:
            return self._finish(self._generate(None), ())
        if answered and request:
            offered = named_tools(request, tools, answered.names())
            if offered:
                # The request names a tool this turn has not called: offer it first.
                # With the called tools blocked there is no catch-all: measured, the
                # model used it to repeat its last call about half of the time.
                called = frozenset(answered.names())
                calls, _ = self._calls(self.tokens, offered, called, answered)
                fresh = _unique(c for c in calls if not answered.repeats(c))
                if fresh:
                    return _Turn("", tuple(fresh), "tool_calls", self._usage())
        opening = self._generate(
            None, stop_at_call=True, stop_token=self._open_token(), call_floor=self.call_floor
        )
        if opening.finish_reason == "tag":
            # Seen for requests no tool serves ("What is the capital of France?"):
            # forced into a call it picked a tool at random, so it answers in prose.
            return self._finish(self._generate(text_only_grammar()), ())
        if opening.finish_reason != "call":
            return self._finish(opening, ())
        # Prose the model wrote before opening a call was streamed already: keep it.
        prose = opening.text if classify(opening.text) is ReplyKind.TEXT else ""
        context = self.tokens + (list(opening.tokens) if prose else [])
        blocked: frozenset[str] = frozenset()
        for _ in range(1 + max_retries):
            calls, truncated = self._calls(context, tools, blocked, answered)
            if truncated and not calls:
                return _Turn(prose, (), "length", self._usage())
            if not calls:  # only tools that do not exist: no tool, answer instead
                break
            fresh = _unique(c for c in calls if not answered.repeats(c))
            if fresh:
                if self.options.parallel_tool_calls is False:
                    fresh = fresh[:1]
                return _Turn(prose, tuple(fresh), "tool_calls", self._usage())
            # Every call repeats one already answered in this turn: small models
            # loop on their last call. Block those tools and let it choose again.
            blocked = blocked | {c.name for c in calls}
            if self.cancel.is_set():
                break
        return self._finish(self._generate(text_only_grammar()), ())

    def _open_token(self) -> int | None:
        return self.open_tag[0] if len(self.open_tag) == 1 else None

    def _calls(
        self,
        context: list[int],
        tools: Sequence[ToolDefinition],
        blocked: frozenset[str],
        answered: _Answered,
    ) -> tuple[list[ParsedCall], bool]:
        """The calls of one reply, each body under the grammar; (calls, cut short)."""
        known = {d.name for d in tools}
        grammar = build_grammar(tools, blocked=blocked)
        tokens = context + self.open_tag
        calls: list[ParsedCall] = []
        seen: set[tuple[str, str]] = set()
        while len(calls) < _MAX_CALLS_PER_REPLY and not self.cancel.is_set():
            body = self._generate(grammar, tokens=tokens, stream=False)
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
                stop_token=self._open_token(),
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

    def _finish(self, attempt: _Attempt, calls: tuple[ParsedCall, ...]) -> _Turn:
        if not calls:
            # The reply is prose after all (or a call cut short by max_tokens,
            # which is shown as the text it is): send what was held back.
            attempt.gate.flush()
        finish = "tool_calls" if calls else attempt.finish_reason
        return _Turn("" if calls else attempt.text, calls, finish, self._usage())

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
    ) -> _Attempt:
        """One generation with llama-cpp-python's sampler, text decoded as it comes.

        ``Llama.generate`` is used rather than ``create_completion`` because the
        latter decodes without special tokens. It reuses the KV cache of the
        longest prefix it has already evaluated, so continuing from a
        generation's own tokens evaluates only what was appended.

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
        """
        llama_cpp = import_llama_cpp()
        llama = self.llama
        options = self.options
        if options.seed is not None:
            llama.set_seed(options.seed)
        context = list(self.tokens if tokens is None else tokens)
        limit = llama.n_ctx() - len(context)
        if options.max_tokens is not None:
            limit = min(limit, options.max_tokens - self.completion_tokens)
        if max_new is not None:
            limit = min(limit, max_new)
        gate = _StreamGate(self.sink if stream else None)
        stops = _StopScanner(options.stop or ())
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        vocab = llama._model.vocab
        finish = "length"
        produced: list[int] = []
        try:
            generated = llama.generate(
                context,
                temp=options.temperature if options.temperature is not None else 0.0,
                top_p=options.top_p if options.top_p is not None else 0.95,
                grammar=llama_cpp.LlamaGrammar.from_string(grammar, verbose=False)
                if grammar
                else None,
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
                if stop_at_call and (gate.text() + piece).lstrip().startswith("<"):
                    # The model's calls open with the <tool_call> token; a reply that
                    # spells a tag out of plain pieces (``<tools></tools>``, copied from
                    # the system prompt) is neither a call nor prose for the user.
                    finish = "tag"
                    break
                gate.feed(piece)
                if stopped:
                    finish = "stop"
                    break
                if stop_at_call and gate.kind is ReplyKind.CALLS:
                    finish = "call"
                    break
                if len(produced) >= limit:
                    break
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"llama.cpp failed while generating: {exc}") from exc
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


class _StopScanner:
    """Cuts the text at the first stop sequence, holding back what may begin one."""

    def __init__(self, stops: Sequence[str]) -> None:
        self._stops = [s for s in stops if s]
        self._held = ""
        self.stopped = False

    def feed(self, piece: str) -> tuple[str, bool]:
        """Text safe to pass on, and whether a stop sequence was reached."""
        if not self._stops:
            return piece, False
        text = self._held + piece
        cut = min((i for i in (text.find(s) for s in self._stops) if i >= 0), default=-1)
        if cut >= 0:
            self._held = ""
            self.stopped = True
            return text[:cut], True
        keep = 0
        for stop in self._stops:
            for n in range(min(len(stop) - 1, len(text)), 0, -1):
                if text.endswith(stop[:n]):
                    keep = max(keep, n)
                    break
        self._held = text[len(text) - keep :] if keep else ""
        return text[: len(text) - keep], False

    def rest(self) -> str:
        """What was held back when generation ended without a stop sequence."""
        held, self._held = self._held, ""
        return held


class _StreamGate:
    """Passes text deltas on once the reply is known to be prose; holds calls back."""

    def __init__(self, sink: _Sink | None) -> None:
        self._sink = sink
        self._parts: list[str] = []
        self._sent = 0
        self._kind = ReplyKind.UNDECIDED

    @property
    def kind(self) -> ReplyKind:
        """What the reply is, as far as its beginning tells."""
        return self._kind

    def feed(self, delta: str) -> None:
        if not delta:
            return
        self._parts.append(delta)
        if self._kind is ReplyKind.UNDECIDED:
            self._kind = classify(self.text())
        if self._kind is ReplyKind.TEXT:
            self.flush()

    def text(self) -> str:
        return "".join(self._parts)

    def flush(self) -> None:
        """Send whatever has not been sent (prose that never left the undecided state)."""
        if self._sink is None:
            return
        pending = "".join(self._parts[self._sent :])
        self._sent = len(self._parts)
        if pending:
            self._sink(pending)


_MAX_CALLS_PER_REPLY = 8
"""More calls than this in one reply is a model writing calls in a loop."""


def _tool_definitions(options: ChatOptions) -> list[ToolDefinition]:
    seen: set[str] = set()
    result: list[ToolDefinition] = []
    for callback in options.tool_callbacks:
        definition = callback.tool_definition
        if definition.name not in seen:
            seen.add(definition.name)
            result.append(definition)
    return result


@dataclass(frozen=True, slots=True)
class _Answered:
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


def _answered_calls(prompt: Prompt) -> _Answered:
    """The calls made since the last user message, and the tools that succeeded."""
    keys: set[tuple[str, str]] = set()
    succeeded: set[str] = set()
    for message in reversed(prompt.messages):
        if isinstance(message, UserMessage):
            break
        if isinstance(message, ToolResponseMessage):
            succeeded.update(r.name for r in message.responses if not r.is_error)
        if isinstance(message, AssistantMessage):
            for call in message.tool_calls:
                try:
                    arguments = json.loads(call.arguments or "{}")
                except ValueError:
                    continue
                keys.add((call.name, json.dumps(arguments, sort_keys=True)))
    return _Answered(frozenset(keys), frozenset(succeeded))


def _cached(engine: _Engine, tokens: Sequence[int]) -> int:
    """How many leading tokens of ``tokens`` the KV cache already holds."""
    held = engine.llama._input_ids[: engine.llama.n_tokens]
    count = 0
    for a, b in zip(held, tokens, strict=False):
        if a != b:
            break
        count += 1
    return count


def _is_follow_up(prompt: Prompt) -> bool:
    """Whether the last user message comes after an answer in the conversation."""
    seen_user = False
    for message in reversed(prompt.messages):
        if isinstance(message, UserMessage):
            seen_user = True
        elif seen_user and isinstance(message, AssistantMessage):
            return True
    return False


def _last_request(prompt: Prompt) -> str:
    for message in reversed(prompt.messages):
        if isinstance(message, UserMessage):
            return message.text
    return ""


def _unique(calls: Any) -> list[ParsedCall]:
    seen: set[tuple[str, str]] = set()
    result: list[ParsedCall] = []
    for call in calls:
        if call.key() not in seen:
            seen.add(call.key())
            result.append(call)
    return result
