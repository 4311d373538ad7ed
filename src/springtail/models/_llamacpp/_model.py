"""LlamaCppChatModel: the embedded default, a ChatModel running llama.cpp in-process."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import uuid
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Message,
    Prompt,
    SystemMessage,
    ToolCall,
    UserMessage,
)
from springtail.models._base import ChatModel, ModelError, ModelUnavailableError
from springtail.models._llamacpp._decoder import Decoder
from springtail.models._llamacpp._decoding import common_prefix
from springtail.models._llamacpp._files import EMBEDDED_MODELS, ensure_model_file, model_dir
from springtail.models._llamacpp._generation import Generator
from springtail.models._llamacpp._llama import (
    LlamaRuntime,
    default_threads,
    import_llama_cpp,
    load_llama,
)
from springtail.models._llamacpp._policy import PlainPolicy, SmallModelPolicy, ToolPolicy
from springtail.models._llamacpp._profile import GENERIC_EXAMPLE
from springtail.models._llamacpp._prompt_cache import PromptCache
from springtail.models._llamacpp._reply import Reply
from springtail.models._llamacpp._runtime import Runtime
from springtail.models._llamacpp._stream import Sink
from springtail.models._llamacpp._stubs import tool_example
from springtail.models._llamacpp._template import TemplateRenderer
from springtail.models._llamacpp._transcript import expand, with_transcript
from springtail.models._llamacpp._view import TurnView
from springtail.models._wire import effective_options, tool_definitions
from springtail.tools._definition import ToolDefinition

__all__ = ["LlamaCppChatModel"]

logger = logging.getLogger("springtail.models.llamacpp")


class _Engine:
    """A loaded model: the runtime and the renderer of its chat template."""

    def __init__(self, runtime: Runtime, renderer: TemplateRenderer) -> None:
        self.runtime = runtime
        self.renderer = renderer
        self._call_openers: dict[bool, Any] = {}
        self._end_tokens: tuple[int, ...] | None = None
        self.prompt_cache: PromptCache | None = None

    def end_tokens(self) -> tuple[int, ...]:
        """The tokens that end a generation, found once."""
        if self._end_tokens is None:
            runtime = self.runtime
            self._end_tokens = tuple(i for i in range(runtime.n_vocab) if runtime.is_end(i))
        return self._end_tokens

    def call_openers(self, *, code: bool = False) -> Any:
        """A mask over the vocabulary: the tokens a reply that is a call opens with.

        ``<tool_call>`` and pieces starting with ``<`` (the tag spelled out),
        ``{`` or a code fence (the model's other call shapes), but not the end
        tokens (``<|im_end|>``); with ``code`` (the plan's prompt) also ``r``,
        which begins a plan's first line (``r1 = ...``). Built on first use,
        once per model and kind: one pass over the vocabulary.
        """
        mask = self._call_openers.get(code)
        if mask is None:
            import numpy as np

            runtime = self.runtime
            # The raw token texts: what the call openers start with is plain ASCII either way.
            pieces = [runtime.token_text(i) for i in range(runtime.n_vocab)]
            mask = np.fromiter(
                (p.startswith(("<", "{", "```")) or (code and p == "r") for p in pieces),
                dtype=bool,
                count=runtime.n_vocab,
            )
            mask[list(self.end_tokens())] = False  # ``<|im_end|>`` ends a reply, opens nothing
            self._call_openers[code] = mask
        return mask


class _Preparation(Future[int]):
    """The future of ``prepare``: cancelling it also stops an evaluation under way."""

    def __init__(self) -> None:
        super().__init__()
        self.stop = threading.Event()

    def cancel(self) -> bool:
        self.stop.set()
        return super().cancel()


class LlamaCppChatModel(ChatModel):
    """A chat model running a GGUF file in this process with llama.cpp.

    ``model`` is ``"embedded"`` (Qwen2.5-Coder 1.5B, shipped in PyPI part
    packages), ``"embedded-small"`` (the 0.5B variant) or the path of any GGUF
    file. Nothing is loaded until the first call; inference runs on one worker
    thread per model (a llama.cpp context is not thread-safe), so concurrent
    requests to one model take turns and never block the event loop.

    The provider renders the model's own chat template, decodes (a tool call's
    body under a grammar built from the tools' schemas, so a call always names
    a tool and carries schema-valid arguments), streams and caches. The rules
    a small model needs beyond that live in its ``policy``
    (``docs/embedded-model.md``).
    """

    native_response_schema = True
    """``ChatOptions.response_schema`` becomes a grammar: the answer is valid JSON of that shape."""

    def __init__(
        self,
        model: str | Path = "embedded",
        *,
        n_threads: int | None = None,
        n_ctx: int = 4096,
        default_options: ChatOptions | None = None,
        policy: ToolPolicy | None = None,
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
            policy: The rules beyond translating and decoding that a small
                model needs to call tools well (``SmallModelPolicy``, the
                default for the embedded models), or ``PlainPolicy()`` (the
                default for any other GGUF): the template and the call grammar
                alone.
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
        self.model = str(model)
        self.n_ctx = n_ctx
        self.n_threads = n_threads if n_threads is not None else default_threads()
        self.default_options = default_options or ChatOptions()
        if policy is None:
            policy = SmallModelPolicy() if self.model in EMBEDDED_MODELS else PlainPolicy()
        self.policy: ToolPolicy = policy
        self._progress = progress
        self._weight_repacking = weight_repacking
        self._prompt_cache_folder = _prompt_cache_folder(prompt_cache)
        self._engine: _Engine | None = None
        self._lock = threading.Lock()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="springtail-llama")

    @classmethod
    def _over(cls, runtime: Runtime, **kwargs: Any) -> LlamaCppChatModel:
        """A model over a runtime already loaded (the tests' scripted one); no cache on disk."""
        model = cls("embedded", prompt_cache=False, n_ctx=runtime.n_ctx, **kwargs)
        renderer = TemplateRenderer(
            runtime.chat_template or "", eos_token=runtime.eos_text, bos_token=runtime.bos_text
        )
        model._engine = _Engine(runtime, renderer)
        return model

    def __repr__(self) -> str:
        return (
            f"LlamaCppChatModel(model={self.model!r}, n_threads={self.n_threads}, "
            f"n_ctx={self.n_ctx})"
        )

    # -- ChatModel -----------------------------------------------------------------

    async def acall(self, prompt: Prompt) -> ChatResponse:
        """Answer ``prompt`` without blocking the event loop."""
        cancel = threading.Event()
        loop = asyncio.get_running_loop()
        try:
            reply = await loop.run_in_executor(self._executor, self._run_turn, prompt, None, cancel)
        except asyncio.CancelledError:
            cancel.set()
            raise
        return self._response(reply)

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
            reply = await future
        finally:
            cancel.set()
        yield self._response(reply, text="")

    def prepare(self, prompt: Prompt) -> Future[int]:
        """Start evaluating ``prompt`` in the background; returns at once.

        A chat knows its system prompt and tools before the user has typed a
        word: evaluating them while the user types (20-35 s on 2 cores for
        support-bot's) means the first request evaluates only itself. The model
        is loaded too, if it was not. A request made meanwhile waits for this
        evaluation and then reuses it. The future gives how many tokens of the
        prompt the KV cache holds, or the error that loading hit; cancelling it
        stops the evaluation at its next batch (a chat that is left early does
        not wait for it).
        """
        preparation = _Preparation()

        def run() -> None:
            if not preparation.set_running_or_notify_cancel():
                return
            try:
                preparation.set_result(self._prepare(prompt, preparation.stop))
            except BaseException as exc:  # handed to whoever waits on the future
                preparation.set_exception(exc)

        self._executor.submit(run)
        return preparation

    def close(self) -> None:
        """Free the model's memory; a later call loads it again."""
        with self._lock:
            engine, self._engine = self._engine, None
        if engine is not None:
            engine.runtime.close()

    # -- generation (runs on the worker thread) ------------------------------------

    def _response(self, reply: Reply, *, text: str | None = None) -> ChatResponse:
        calls = tuple(
            ToolCall(
                id=f"call_{uuid.uuid4().hex[:12]}",
                name=c.name,
                arguments=json.dumps(c.arguments, ensure_ascii=False),
            )
            for c in reply.calls
        )
        message = AssistantMessage(reply.text if text is None else text, calls, reply.metadata)
        return ChatResponse.of(
            message, finish_reason=reply.finish_reason, usage=reply.usage, model=self.model
        )

    def _load(self) -> _Engine:
        if self._engine is None:
            path = self._model_path()
            runtime = LlamaRuntime(
                load_llama(
                    path,
                    n_ctx=self.n_ctx,
                    n_threads=self.n_threads,
                    weight_repacking=self._weight_repacking,
                )
            )
            if not runtime.chat_template:
                raise ModelUnavailableError(
                    f"{path} has no chat template in its metadata: springtail renders "
                    "prompts with the model's own template, so use an instruct/chat GGUF."
                )
            renderer = TemplateRenderer(
                runtime.chat_template, eos_token=runtime.eos_text, bos_token=runtime.bos_text
            )
            self._engine = _Engine(runtime, renderer)
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

    def _render(
        self, engine: _Engine, messages: Sequence[Message], tools: Sequence[ToolDefinition]
    ) -> str:
        profile = self.policy.profile
        if profile.plans:
            return engine.renderer.render_plan(
                messages,
                tools,
                guidance=profile.guidance,
                result_text=profile.plan_result_text,
                tools_section=profile.tools_section,
                example=(profile.tool_example and tool_example(tools)) or GENERIC_EXAMPLE,
                answer_cue=profile.answer_cue,
            )
        return engine.renderer.render(
            messages, tools, guidance=profile.guidance, result_text=profile.result_text
        )

    def _tokens(
        self, engine: _Engine, prompt: Prompt, *, with_tools: bool = True
    ) -> tuple[list[int], ChatOptions]:
        """The prompt's tokens (rendered with the policy's profile) and its options."""
        options = effective_options(self.default_options, prompt)
        tools = tool_definitions(options) if with_tools else ()
        text = self._render(engine, prompt.messages, tools)
        tokens = engine.runtime.tokenize(text, special=True)
        if len(tokens) >= self.n_ctx:
            raise ModelError(self._too_long(engine, prompt.messages, tools, len(tokens)))
        return tokens, options

    def _too_long(
        self,
        engine: _Engine,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition],
        total: int,
    ) -> str:
        """Which part of a prompt that does not fit is too long, and what to do about it."""

        def count(part: Sequence[Message], with_tools: Sequence[ToolDefinition] = ()) -> int:
            return len(
                engine.runtime.tokenize(self._render(engine, part, with_tools), special=True)
            )

        # Parts by difference: a template needs a message to render at all.
        without_tools = count(messages)
        with_tools = total - without_tools
        system = [m for m in messages if isinstance(m, SystemMessage)][:1]
        placeholder: list[Message] = [UserMessage("")]
        bare = count([*system, *placeholder]) - count(placeholder) if system else 0
        history = without_tools - bare
        parts = {
            "the tools' definitions": with_tools,
            "the system prompt": bare,
            "the conversation": history,
        }
        largest = max(parts, key=lambda k: parts[k])
        advice = {
            "the tools' definitions": "offer fewer tools at once (springtail's ToolSearchAdvisor "
            "picks a request's tools)",
            "the system prompt": "shorten the system prompt",
            "the conversation": "shorten the conversation (a smaller chat-memory window)",
        }[largest]
        return (
            f"The prompt is {total} tokens, more than the model's context of {self.n_ctx}: "
            f"the tools' definitions take {with_tools} tokens ({len(tools)} tools), the system "
            f"prompt {bare}, the conversation {history}. {largest.capitalize()} "
            f"{'are' if largest.endswith('s') else 'is'} the largest part: {advice}, or build "
            "the model with a larger n_ctx."
        )

    def _held(self, engine: _Engine, tokens: list[int]) -> int:
        """How many leading tokens the KV cache holds, after loading a saved prompt if it helps."""
        held = common_prefix(engine.runtime.cached(), tokens)
        if engine.prompt_cache is not None:
            held = engine.prompt_cache.restore(engine.runtime, tokens, held=held)
        logger.debug("prompt: %d tokens, %d of them cached", len(tokens), held)
        return held

    def _save(self, engine: _Engine, tokens: list[int], held: int) -> None:
        cache = engine.prompt_cache
        if cache is not None and len(tokens) - held >= cache.min_tokens:
            # A long prompt was evaluated from scratch: the next process need not.
            cache.save(engine.runtime)

    def _prepare(self, prompt: Prompt, stop: threading.Event) -> int:
        prompt = prompt.with_messages(expand(prompt.messages))
        with self._lock:
            engine = self._load()
            tokens, _ = self._tokens(engine, prompt)
            held = self._held(engine, tokens)
            runtime = engine.runtime
            done = runtime.keep_prefix(held)
            while done < len(tokens) and not stop.is_set():
                chunk = tokens[done : done + runtime.n_batch]
                runtime.evaluate_long(chunk)
                done += len(chunk)
            if done == len(tokens):
                self._save(engine, tokens, held)
            return done

    def _run_turn(self, prompt: Prompt, sink: Sink | None, cancel: threading.Event) -> Reply:
        # Earlier turns that memory kept as a request and its answer are shown whole again
        # (``_transcript.py``); the answer to this one carries its calls and results.
        prompt = prompt.with_messages(expand(prompt.messages))
        with self._lock:
            engine = self._load()
            runtime = engine.runtime
            policy = self.policy
            tokens, options = self._tokens(engine, prompt)
            tools = tool_definitions(options)
            held = self._held(engine, tokens)
            switched = False

            def without_tools() -> list[int]:
                # The KV cache is about to hold the prompt without its tools: the prompt
                # with them is the one later turns reuse, so it goes to disk first.
                nonlocal switched
                self._save(engine, tokens, held)
                switched = True
                return self._tokens(engine, prompt, with_tools=False)[0]

            decoder = Decoder(
                runtime,
                tokens,
                options,
                policy.profile,
                sink,
                cancel,
                end_tokens=engine.end_tokens(),
            )
            generator = Generator(
                decoder,
                policy=policy,
                view=TurnView.of(prompt.messages),
                call_openers=engine.call_openers(code=policy.profile.plans) if tools else None,
                without_tools=without_tools,
            )
            reply = generator.turn(tools)
            if not switched:
                self._save(engine, tokens, held)
        if reply.calls:
            return reply
        return replace(reply, metadata=with_transcript(reply.metadata, prompt.messages))


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
