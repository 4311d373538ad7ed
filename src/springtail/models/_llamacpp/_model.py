"""LlamaCppChatModel: the embedded default, a ChatModel running llama.cpp in-process."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
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
    UserMessage,
)
from springtail.models._base import ModelError, ModelUnavailableError
from springtail.models._llamacpp._decoding import common_prefix
from springtail.models._llamacpp._files import EMBEDDED_MODELS, ensure_model_file, model_dir
from springtail.models._llamacpp._generation import Answered, Generator, Sink, Turn
from springtail.models._llamacpp._prompt_cache import PromptCache
from springtail.models._llamacpp._runtime import default_threads, import_llama_cpp, load_llama
from springtail.models._llamacpp._template import DEFAULT_TOOL_GUIDANCE, TemplateRenderer
from springtail.models._wire import effective_options, tool_definitions

__all__ = ["LlamaCppChatModel"]

logger = logging.getLogger("springtail.models.llamacpp")


class _Engine:
    """A loaded model: the llama.cpp context and the renderer of its chat template."""

    def __init__(self, llama: Any, renderer: TemplateRenderer) -> None:
        self.llama = llama
        self.renderer = renderer
        self._call_openers: Any = None
        self._end_tokens: tuple[int, ...] | None = None
        self.prompt_cache: PromptCache | None = None

    def end_tokens(self) -> tuple[int, ...]:
        """The tokens that end a generation (llama.cpp's end-of-generation set), found once."""
        if self._end_tokens is None:
            llama_cpp = import_llama_cpp()
            vocab = self.llama._model.vocab
            self._end_tokens = tuple(
                i for i in range(self.llama.n_vocab()) if llama_cpp.llama_vocab_is_eog(vocab, i)
            )
        return self._end_tokens

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
        follow_up_call_floor: float | None = 0.01,
        progress: bool = False,
        weight_repacking: bool | None = None,
        prompt_cache: bool | str | Path = True,
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
                need a tool, at most 0.005 for small talk) and answers from nothing;
                once a follow-up has called, the history shows calls and the
                share climbs again (0.24, 0.68, 0.98). ``None`` keeps the
                plain greedy choice. See ``docs/embedded-model.md``.
            progress: Show a progress bar on stderr while the embedded model
                file is assembled on first use.
            weight_repacking: Let llama.cpp repack weights for faster prompt
                processing; default on, except on CPUs with Intel AMX, where
                llama-cpp-python 0.3.36 crashes with it.
            prompt_cache: Keep the KV cache of a long prompt evaluated from
                scratch on disk, so that a new process whose prompt starts the
                same way (the system prompt and tools) loads it instead of
                evaluating it again: ``True`` (the default) keeps it in
                ``SPRINGTAIL_PROMPT_CACHE_DIR`` or else ``prompt-cache`` beside
                the model files, a path keeps it there, ``False`` or
                ``SPRINGTAIL_PROMPT_CACHE=0`` turns it off.
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
        self._prompt_cache_folder = _prompt_cache_folder(prompt_cache)
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

    def _response(self, turn: Turn, *, text: str | None = None) -> ChatResponse:
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
            if self._prompt_cache_folder is not None:
                self._engine.prompt_cache = PromptCache(
                    self._prompt_cache_folder, _identity(path, self.n_ctx)
                )
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

    def _run_turn(self, prompt: Prompt, sink: Sink | None, cancel: threading.Event) -> Turn:
        with self._lock:
            engine = self._load()
            options = effective_options(self.default_options, prompt)
            tools = tool_definitions(options)
            text = engine.renderer.render(prompt.messages, tools, guidance=self.tool_guidance)
            tokens = engine.llama.tokenize(text.encode("utf-8"), add_bos=False, special=True)
            if len(tokens) >= self.n_ctx:
                raise ModelError(
                    f"The prompt is {len(tokens)} tokens, more than the model's context of "
                    f"{self.n_ctx}: shorten the conversation (a smaller chat-memory window) "
                    "or build the model with a larger n_ctx."
                )
            held = _cached(engine, tokens)
            cache = engine.prompt_cache
            if cache is not None:
                held = cache.restore(engine.llama, tokens, held=held)
            logger.debug("prompt: %d tokens, %d of them cached", len(tokens), held)
            answered = _answered_calls(prompt)
            floor = self.follow_up_call_floor
            call_floor = None
            if floor is not None and tools and not answered and _is_follow_up(prompt):
                call_floor = (floor, engine.call_openers())
            request = _last_request(prompt)
            generator = Generator(
                engine.llama,
                tokens,
                options,
                sink,
                cancel,
                call_floor=call_floor,
                end_tokens=engine.end_tokens(),
                request=request,
            )
            turn = generator.turn(
                tools,
                answered,
                self.max_repeat_retries,
                request if self.offer_named_tools else "",
            )
            if cache is not None and len(tokens) - held >= cache.min_tokens:
                # A long prompt was evaluated from scratch: the next process need not.
                cache.save(engine.llama)
            return turn


def _answered_calls(prompt: Prompt) -> Answered:
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
    return Answered(frozenset(keys), frozenset(succeeded))


def _prompt_cache_folder(setting: bool | str | Path) -> Path | None:
    if setting is False or os.environ.get("SPRINGTAIL_PROMPT_CACHE", "").strip().lower() in (
        "0",
        "false",
        "no",
        "off",
    ):
        return None
    if setting is True:
        folder = os.environ.get("SPRINGTAIL_PROMPT_CACHE_DIR", "").strip()
        return Path(folder).expanduser() if folder else model_dir() / "prompt-cache"
    return Path(setting).expanduser()


def _identity(path: Path, n_ctx: int) -> str:
    """What a saved KV cache is valid for: this exact model file, runtime and context size."""
    llama_cpp = import_llama_cpp()
    try:
        stat = path.stat()
        file = f"{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}"
    except OSError:
        file = str(path)
    return f"{file}|llama-cpp-python {llama_cpp.__version__}|n_ctx {n_ctx}"


def _cached(engine: _Engine, tokens: Sequence[int]) -> int:
    """How many leading tokens of ``tokens`` the KV cache already holds."""
    return common_prefix(engine.llama.input_ids[: engine.llama.n_tokens].tolist(), tokens)


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
