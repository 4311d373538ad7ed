"""The runtime interface the embedded model drives: tokens in, logits and samples out.

``_llama.py`` implements it over llama-cpp-python (and is the only module that
touches llama-cpp-python's private attributes, so a version upgrade changes
one file); the tests implement it with a scripted fake whose "model" yields
chosen tokens, so every decoding rule can be tested without the real model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["Runtime", "TokenSampler"]


class TokenSampler(Protocol):
    """Picks tokens from the rows of the last evaluated batch."""

    def sample(self, row: int) -> int:
        """The token for ``row`` of the last batch (the sampler's state advances)."""
        ...

    def close(self) -> None:
        """Free the sampler's native memory."""
        ...


class Runtime(Protocol):
    """A loaded model with one sequence of KV cache."""

    n_ctx: int
    n_vocab: int
    n_batch: int
    seed: int
    chat_template: str | None
    eos_text: str
    bos_text: str

    def tokenize(self, text: str, *, special: bool) -> list[int]:
        """Tokens of ``text``; with ``special`` the special-token texts become their tokens."""
        ...

    def detokenize(self, tokens: Sequence[int]) -> bytes:
        """The bytes of ``tokens``, special tokens written out."""
        ...

    def token_text(self, token: int) -> str:
        """The raw vocabulary entry of ``token`` (no decoding of byte pieces)."""
        ...

    def is_end(self, token: int) -> bool:
        """Whether ``token`` ends a generation."""
        ...

    def cached(self) -> list[int]:
        """The tokens whose keys and values the cache holds, in order."""
        ...

    def n_cached(self) -> int:
        """How many tokens the cache holds (``len(cached())`` without the copy)."""
        ...

    def keep_prefix(self, count: int) -> int:
        """Cut the cache back to its first ``count`` tokens; how many it kept (0: reset)."""
        ...

    def evaluate(self, tokens: Sequence[int], *, outputs_from: int) -> None:
        """Evaluate ``tokens`` after the cache in one batch, logits from row ``outputs_from`` on."""
        ...

    def evaluate_long(self, tokens: Sequence[int]) -> None:
        """Evaluate many tokens after the cache, in as many batches as it takes."""
        ...

    def logits(self, row: int) -> Any:
        """The logits (a numpy array over the vocabulary) of ``row`` of the last batch."""
        ...

    def sampler(
        self,
        *,
        temperature: float,
        top_p: float,
        seed: int,
        grammar: str | None,
        not_first: Sequence[int] = (),
    ) -> TokenSampler:
        """A sampler for one generation; ``not_first`` are tokens its first pick may not be."""
        ...

    def save_state(self) -> tuple[list[int], bytes] | None:
        """The cached tokens and the cache's state, or ``None`` when it cannot be read."""
        ...

    def load_state(self, tokens: Sequence[int], state: bytes) -> bool:
        """Replace the cache with a saved state of ``tokens``; false when it was refused."""
        ...

    def close(self) -> None:
        """Free the model."""
        ...
