"""Token-by-token decoding with llama.cpp's sampler, checking drafted tokens in one batch.

On the machines the embedded model is made for (a few CPU cores), one
decoding step costs about 100 ms and most of it is spent on the weights,
not on the token: a batch of 16 tokens costs about 3.5 steps. Much of what
the model writes can be guessed for free — the fixed text of a tool call, a
tool's name once its first piece is out, a phrase copied from the request or
a tool result — so guessed tokens ("drafts") are decoded in the same batch
as the last sampled token, and the sampler then runs at each position of the
batch: every draft token it would have picked anyway is accepted, the first
one it would not is replaced by its own pick, and the rest are dropped.
The sampler decides every token, at any temperature; drafts only save
decoding steps. (llama.cpp rounds a batch's arithmetic a little differently
from a single token's, so where two tokens are all but tied the pick can
differ, as it can between any two batch sizes; replaying support-bot's
conversation gave the same 21 of 22 replies.)

The grammar runs the way llama.cpp's own ``common_sampler`` runs it: the
sampler picks from all tokens, and only when its pick breaks the grammar is
the grammar applied to the whole vocabulary (26 ms a token on 152k tokens)
and the pick made again.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from springtail.models._llamacpp._runtime import import_llama_cpp

__all__ = ["Drafter", "Sampler", "common_prefix", "decode"]

_TOP_K = 40
_MIN_P = 0.05


class Drafter(Protocol):
    """Guesses how the text goes on; wrong guesses cost time, never correctness."""

    def __call__(self, produced: Sequence[int], room: int) -> Sequence[int]:
        """At most ``room`` tokens likely to follow ``produced`` (this generation's tokens)."""
        ...


class Sampler:
    """llama.cpp's sampler chain for one generation, with an optional grammar beside it."""

    def __init__(
        self,
        llama: Any,
        *,
        temperature: float,
        top_p: float,
        seed: int,
        grammar: str | None,
        not_first: Sequence[int] = (),
    ) -> None:
        """Build the chain.

        Args:
            llama: The loaded ``llama_cpp.Llama``.
            temperature: 0 picks the likeliest token.
            top_p: Nucleus sampling, when the temperature is above 0.
            seed: For sampling, when the temperature is above 0.
            grammar: GBNF the text must follow, or ``None``.
            not_first: Tokens the first pick may not be (end-of-generation
                tokens, so that a reply is never empty).
        """
        llama_cpp = import_llama_cpp()
        internals = llama_cpp._internals
        self._llama_cpp = llama_cpp
        self._ctx = llama._ctx
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
        self._n_vocab = llama.n_vocab()
        self._not_first = list(not_first)
        if grammar is not None:
            self._grammar = internals.LlamaSampler()
            self._grammar.add_grammar(
                llama._model, llama_cpp.LlamaGrammar.from_string(grammar, verbose=False)
            )
            self._one = llama_cpp.llama_token_data()
            self._one_array = llama_cpp.llama_token_data_array(
                data=ctypes.pointer(self._one), size=1, selected=-1, sorted=False
            )

    def sample(self, idx: int) -> int:
        """The token for row ``idx`` of the last batch decoded."""
        token = int(self._chain.sample(self._ctx, idx))
        banned, self._not_first = self._not_first, []
        if token in banned or (self._grammar is not None and not self._allowed(token)):
            token = self._resample(idx, banned)
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

    def _resample(self, idx: int, banned: list[int]) -> int:
        """Pick again from the whole vocabulary, under the grammar and without ``banned``."""
        import numpy as np

        llama_cpp = self._llama_cpp
        if self._candidates is None:
            self._candidates = llama_cpp._internals.LlamaTokenDataArray(n_vocab=self._n_vocab)
        candidates = self._candidates
        logits = np.ctypeslib.as_array(
            llama_cpp.llama_get_logits_ith(self._ctx.ctx, idx), shape=(self._n_vocab,)
        )
        candidates.copy_logits(logits)
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


def decode(
    llama: Any,
    context: Sequence[int],
    sampler: Sampler,
    *,
    drafter: Drafter | None = None,
    max_draft: int = 15,
) -> Iterator[int]:
    """Sample tokens after ``context`` one by one, until the caller stops asking.

    The KV cache of the longest prefix ``llama`` has already evaluated is kept,
    so a context that extends the last one evaluates only what was appended;
    the first guesses ride along with that evaluation almost for free.
    ``llama.input_ids`` and ``llama.n_tokens`` stay true to the cache, so
    ``Llama.generate`` can take over afterwards.

    Args:
        llama: The loaded ``llama_cpp.Llama``.
        context: The tokens to continue.
        sampler: Picks each token.
        drafter: Guesses tokens to check in the same batch; ``None`` decodes
            one token per step.
        max_draft: At most this many guessed tokens per batch (a batch's cost
            grows with each).
    """
    context = list(context)
    if not context:
        raise ValueError("nothing to continue: the context is empty")
    pending = _uncached(llama, context)
    produced: list[int] = []
    while True:
        room = min(max_draft, llama.n_batch - 1, llama.n_ctx() - llama.n_tokens - len(pending) - 1)
        drafts = list(drafter(produced, room))[:room] if drafter is not None and room > 0 else []
        if len(pending) + len(drafts) > llama.n_batch:
            llama.eval(pending[:-1])  # a long prompt first, in llama.cpp's own batches
            pending = pending[-1:]
        first = len(pending) - 1  # the batch row whose logits give the next token
        start = llama.n_tokens
        _evaluate(llama, pending + drafts, outputs_from=first)
        for i, draft in enumerate(drafts):
            token = sampler.sample(first + i)
            if token != draft:
                # Rows after the first wrong guess were computed on a false premise.
                llama.n_tokens = start + first + i + 1
                llama._ctx.kv_cache_seq_rm(-1, llama.n_tokens, -1)
                break
            produced.append(token)
            yield token
        else:
            token = sampler.sample(first + len(drafts))
        produced.append(token)
        yield token
        pending = [token]


def common_prefix(a: Sequence[object], b: Sequence[object]) -> int:
    """How many leading items (tokens, characters) ``a`` and ``b`` share."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def _uncached(llama: Any, context: list[int]) -> list[int]:
    """Cut the KV cache back to its longest prefix of ``context``; the rest of ``context``."""
    common = common_prefix(llama.input_ids[: llama.n_tokens].tolist(), context)
    # The last token is evaluated again even when cached: its logits are needed.
    common = min(common, len(context) - 1)
    if not llama._ctx.kv_cache_seq_rm(-1, common, -1):
        llama.reset()  # models whose cache cannot be cut (recurrent ones) start over
        common = 0
    llama.n_tokens = common
    llama._requires_eval = True
    return context[common:]


def _evaluate(llama: Any, tokens: list[int], *, outputs_from: int) -> None:
    """Decode ``tokens`` after the cache, with logits from row ``outputs_from`` on."""
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
