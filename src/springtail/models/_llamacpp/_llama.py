"""The adapter over llama-cpp-python: loading a GGUF file, decoding, sampling, cache state.

``llama_cpp`` is imported here and only here, when the first model loads, and
this is the one module that touches llama-cpp-python's private attributes
(``_ctx``, ``_batch``, ``_model``, ``_internals``): a version upgrade changes
this file. Everything else drives the ``Runtime`` interface (``_runtime.py``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from springtail.models._base import ModelUnavailableError

__all__ = [
    "LlamaRuntime",
    "chat_formatter",
    "default_threads",
    "import_llama_cpp",
    "load_llama",
    "weight_repacking_default",
]

_TOP_K = 40
_MIN_P = 0.05

_PATCH_LOCK = threading.Lock()


def import_llama_cpp() -> Any:
    """The ``llama_cpp`` module, or an error that says how to install it."""
    try:
        import llama_cpp
    except ImportError as exc:
        raise ModelUnavailableError(
            "The embedded model needs llama-cpp-python, which is not installed: "
            "pip install 'springtail[embedded]' (it builds llama.cpp from source, "
            "which takes a few minutes and needs a C compiler and cmake)."
        ) from exc
    return llama_cpp


def default_threads() -> int:
    """``SPRINGTAIL_THREADS`` if set, else every core this process may use."""
    value = os.environ.get("SPRINGTAIL_THREADS", "").strip()
    if value:
        try:
            threads = int(value)
        except ValueError:
            raise ValueError(
                f"SPRINGTAIL_THREADS={value!r} is not a whole number of threads."
            ) from None
        if threads < 1:
            raise ValueError(f"SPRINGTAIL_THREADS={value!r} must be at least 1.")
        return threads
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def weight_repacking_default() -> bool:
    """Whether llama.cpp may repack weights into its extra buffer types.

    llama-cpp-python 0.3.36 built with ``-march=native`` on a CPU with Intel
    AMX repacks the weights for AMX and then crashes (SIGSEGV) on the first
    prompt longer than one token. Repacking is therefore off on AMX CPUs
    unless ``SPRINGTAIL_LLAMA_REPACK=1`` asks for it.
    """
    value = os.environ.get("SPRINGTAIL_LLAMA_REPACK", "").strip().lower()
    if value:
        return value in ("1", "true", "yes", "on")
    return not _cpu_has_amx()


def _cpu_has_amx() -> bool:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("flags"):
                    return "amx_tile" in line.split()
    except OSError:
        pass
    return False


@contextlib.contextmanager
def _model_params_override(llama_cpp: Any, *, use_extra_bufts: bool) -> Iterator[None]:
    # ``Llama`` has no argument for this flag, and it reads the defaults
    # inside its constructor, so the defaults are swapped while it runs.
    low = llama_cpp.llama_cpp
    original = low.llama_model_default_params

    def params() -> Any:
        value = original()
        value.use_extra_bufts = use_extra_bufts
        return value

    with _PATCH_LOCK:
        low.llama_model_default_params = params
        try:
            yield
        finally:
            low.llama_model_default_params = original


def load_llama(
    path: Path,
    *,
    n_ctx: int,
    n_threads: int,
    n_batch: int = 512,
    weight_repacking: bool | None = None,
    **kwargs: Any,
) -> Any:
    """A ``llama_cpp.Llama`` for ``path``, or a ModelUnavailableError that says why not."""
    llama_cpp = import_llama_cpp()
    if not path.is_file():
        raise ModelUnavailableError(
            f"The model file {path} does not exist: give the path of a .gguf file, "
            "or use 'embedded' for the built-in model."
        )
    repack = weight_repacking_default() if weight_repacking is None else weight_repacking
    try:
        with _model_params_override(llama_cpp, use_extra_bufts=repack):
            return llama_cpp.Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=n_threads,
                n_threads_batch=n_threads,
                n_batch=n_batch,
                verbose=False,
                **kwargs,
            )
    except (ValueError, RuntimeError, OSError) as exc:
        print_hint = "" if path.suffix == ".gguf" else " (its name does not even end in .gguf)"
        raise ModelUnavailableError(
            f"llama.cpp cannot load {path}{print_hint}: it is not a valid GGUF model file "
            f"or is damaged ({exc}). Download it again, or use 'embedded'."
        ) from exc


class LlamaRuntime:
    """``Runtime`` over a loaded ``llama_cpp.Llama``.

    ``input_ids`` and ``n_tokens`` of the ``Llama`` are kept true to the KV
    cache, so llama-cpp-python's own methods stay usable on the same object.
    """

    def __init__(self, llama: Any) -> None:
        self.llama = llama
        self.n_ctx = int(llama.n_ctx())
        self.n_vocab = int(llama.n_vocab())
        self.n_batch = int(llama.n_batch)
        self.seed = int(llama._seed)
        self._llama_cpp = import_llama_cpp()
        self._vocab = llama._model.vocab
        self.chat_template: str | None = llama.metadata.get("tokenizer.chat_template") or None
        eos, bos = llama.token_eos(), llama.token_bos()
        self.eos_text = llama._model.token_get_text(eos) if eos != -1 else ""
        self.bos_text = llama._model.token_get_text(bos) if bos != -1 else ""

    def tokenize(self, text: str, *, special: bool) -> list[int]:
        return list(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=special))

    def detokenize(self, tokens: Sequence[int]) -> bytes:
        return bytes(self.llama.detokenize(list(tokens), special=True))

    def token_text(self, token: int) -> str:
        return str(self.llama._model.token_get_text(token))

    def is_end(self, token: int) -> bool:
        return bool(self._llama_cpp.llama_vocab_is_eog(self._vocab, token))

    def cached(self) -> list[int]:
        return list(self.llama.input_ids[: self.llama.n_tokens].tolist())

    def n_cached(self) -> int:
        return int(self.llama.n_tokens)

    def keep_prefix(self, count: int) -> int:
        llama = self.llama
        if not llama._ctx.kv_cache_seq_rm(-1, count, -1):
            llama.reset()  # models whose cache cannot be cut (recurrent ones) start over
            count = 0
        llama.n_tokens = count
        llama._requires_eval = True
        return count

    def evaluate(self, tokens: Sequence[int], *, outputs_from: int) -> None:
        llama = self.llama
        start = llama.n_tokens
        batch = llama._batch.batch
        batch.n_tokens = len(tokens)
        for i, token in enumerate(tokens):
            batch.token[i] = token
            batch.pos[i] = start + i
            batch.seq_id[i][0] = 0
            batch.n_seq_id[i] = 1
            batch.logits[i] = i >= outputs_from
        llama._ctx.decode(llama._batch)
        llama.input_ids[start : start + len(tokens)] = tokens
        llama.n_tokens = start + len(tokens)

    def evaluate_long(self, tokens: Sequence[int]) -> None:
        self.llama.eval(list(tokens))

    def logits(self, row: int) -> Any:
        import numpy as np

        pointer = self._llama_cpp.llama_get_logits_ith(self.llama._ctx.ctx, row)
        return np.ctypeslib.as_array(pointer, shape=(self.n_vocab,))

    def sampler(
        self,
        *,
        temperature: float,
        top_p: float,
        seed: int,
        grammar: str | None,
        not_first: Sequence[int] = (),
    ) -> _LlamaSampler:
        return _LlamaSampler(
            self,
            temperature=temperature,
            top_p=top_p,
            seed=seed,
            grammar=grammar,
            not_first=not_first,
        )

    def save_state(self) -> tuple[list[int], bytes] | None:
        llama_cpp, ctx = self._llama_cpp, self.llama._ctx.ctx
        tokens = self.cached()
        size = int(llama_cpp.llama_state_seq_get_size(ctx, 0))
        state = (ctypes.c_uint8 * size)()
        written = int(llama_cpp.llama_state_seq_get_data(ctx, state, size, 0))
        if written == 0:
            return None
        return tokens, bytes(memoryview(state)[:written])

    def load_state(self, tokens: Sequence[int], state: bytes) -> bool:
        llama = self.llama
        llama._ctx.kv_cache_seq_rm(-1, 0, -1)
        buffer = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
        if (
            int(self._llama_cpp.llama_state_seq_set_data(llama._ctx.ctx, buffer, len(state), 0))
            == 0
        ):
            llama._ctx.kv_cache_seq_rm(-1, 0, -1)
            llama.n_tokens = 0
            return False
        llama.input_ids[: len(tokens)] = list(tokens)
        llama.n_tokens = len(tokens)
        llama._requires_eval = True
        return True

    def close(self) -> None:
        close = getattr(self.llama, "close", None)
        if close is not None:
            close()


class _LlamaSampler:
    """llama.cpp's sampler chain for one generation, with an optional grammar beside it.

    The grammar runs the way llama.cpp's own ``common_sampler`` runs it: the
    chain picks from all tokens, and only when its pick breaks the grammar is
    the grammar applied to the whole vocabulary (26 ms a token on 152k tokens)
    and the pick made again.
    """

    def __init__(
        self,
        runtime: LlamaRuntime,
        *,
        temperature: float,
        top_p: float,
        seed: int,
        grammar: str | None,
        not_first: Sequence[int],
    ) -> None:
        llama_cpp = runtime._llama_cpp
        internals = llama_cpp._internals
        self._llama_cpp = llama_cpp
        self._runtime = runtime
        self._ctx = runtime.llama._ctx
        chain = internals.LlamaSampler()
        if temperature <= 0.0:
            chain.add_greedy()
        else:  # the chain Llama.generate builds for these options
            chain.add_top_k(_TOP_K)
            chain.add_top_p(top_p, 1)
            chain.add_min_p(_MIN_P, 1)
            chain.add_temp(temperature)
            chain.add_dist(seed)
        self._chain = chain
        self._grammar: Any = None
        self._candidates: Any = None
        self._not_first = list(not_first)
        if grammar is not None:
            self._grammar = internals.LlamaSampler()
            self._grammar.add_grammar(
                runtime.llama._model, llama_cpp.LlamaGrammar.from_string(grammar, verbose=False)
            )
            self._one = llama_cpp.llama_token_data()
            self._one_array = llama_cpp.llama_token_data_array(
                data=ctypes.pointer(self._one), size=1, selected=-1, sorted=False
            )

    def sample(self, row: int) -> int:
        token = int(self._chain.sample(self._ctx, row))
        banned, self._not_first = self._not_first, []
        if token in banned or (self._grammar is not None and not self._allowed(token)):
            token = self._resample(row, banned)
        if self._grammar is not None:
            self._grammar.accept(token)
        return token

    def _allowed(self, token: int) -> bool:
        one = self._one
        one.id, one.logit, one.p = token, 1.0, 0.0
        self._one_array.selected = -1
        self._one_array.size = 1
        self._llama_cpp.llama_sampler_apply(self._grammar.sampler, ctypes.byref(self._one_array))
        return bool(one.logit != float("-inf"))

    def _resample(self, row: int, banned: list[int]) -> int:
        """Pick again from the whole vocabulary, under the grammar and without ``banned``."""
        import numpy as np

        llama_cpp = self._llama_cpp
        if self._candidates is None:
            self._candidates = llama_cpp._internals.LlamaTokenDataArray(
                n_vocab=self._runtime.n_vocab
            )
        candidates = self._candidates
        candidates.copy_logits(self._runtime.logits(row))
        candidates.candidates_data.logit[banned] = -np.inf
        candidates.candidates.selected = -1
        array = ctypes.byref(candidates.candidates)
        if self._grammar is not None:
            llama_cpp.llama_sampler_apply(self._grammar.sampler, array)
        llama_cpp.llama_sampler_apply(self._chain.sampler, array)
        token = int(candidates.candidates_data.id[candidates.candidates.selected])
        self._chain.accept(token)
        return token

    def close(self) -> None:
        self._chain.close()
        if self._grammar is not None:
            self._grammar.close()


def chat_formatter(template: str, *, eos_token: str, bos_token: str) -> Any:
    """llama-cpp-python's Jinja renderer of a Hugging Face chat template."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    return Jinja2ChatFormatter(
        template, eos_token=eos_token, bos_token=bos_token, add_generation_prompt=True
    )
