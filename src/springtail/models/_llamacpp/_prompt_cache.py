"""The KV cache of evaluated prompts, kept on disk: a new process need not evaluate them again.

support-bot's system prompt and tool definitions are about 1,900 tokens, and
evaluating them takes 15–20 s on 2 cores: every start of the chat paid that
on its first request. The keys and values llama.cpp computed for a prompt
depend only on the model, the runtime and the tokens, so after a turn that
had to evaluate a long prompt from scratch its cache (about 28 kB per token
for the 1.5B model) is written to a file, and a later process whose prompt
starts with the same tokens loads it in a fraction of a second and evaluates
only the rest.

A file that cannot be read back exactly (cut short, damaged, written by
another runtime) is logged, deleted and treated as absent: a cache never
stops the model from answering.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import struct
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from springtail.models._llamacpp._decoding import common_prefix
from springtail.models._llamacpp._runtime import Runtime

__all__ = ["PromptCache"]

logger = logging.getLogger("springtail.models.llamacpp")

_MAGIC = b"SPKV"
_FORMAT = 1
# magic, format, token count, state bytes, crc32 of tokens and state
_HEADER = struct.Struct("<4sIIQI")
_MAX_TOKENS = 1 << 20  # more than any context; a larger count is damage


@dataclass(frozen=True, slots=True)
class _Entry:
    path: Path
    tokens: tuple[int, ...]


class PromptCache:
    """Saved KV caches for one model file and runtime, in one folder.

    Args:
        folder: Where the files go (created when the first one is written).
        identity: What the saved caches are only valid for: the model file,
            the runtime's version, the context size.
        keep: How many files to keep for this identity; the oldest go first.
        min_tokens: Prompts shorter than this are cheap to evaluate again and
            are neither saved nor worth loading a file for.
    """

    def __init__(
        self, folder: Path, identity: str, *, keep: int = 3, min_tokens: int = 256
    ) -> None:
        self.folder = folder
        self.keep = keep
        self.min_tokens = min_tokens
        self._stem = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]

    def restore(self, runtime: Runtime, tokens: list[int], *, held: int) -> int:
        """Load the saved cache sharing the longest prefix with ``tokens``, if it beats ``held``.

        Args:
            runtime: The loaded model.
            tokens: The prompt about to be evaluated.
            held: How many of its tokens the in-memory cache already holds.

        Returns:
            How many leading tokens of ``tokens`` the cache now holds.
        """
        if len(tokens) - held < self.min_tokens:
            return held  # nothing a file could spare: no need to look
        best: tuple[int, _Entry] | None = None
        for entry in self._entries():
            shared = common_prefix(entry.tokens, tokens)
            # Loading pays off only when it spares a long evaluation.
            if shared - held >= self.min_tokens and (best is None or shared > best[0]):
                best = (shared, entry)
        if best is None:
            return held
        shared, entry = best
        if not self._load(runtime, entry):
            return held
        with contextlib.suppress(OSError):
            os.utime(entry.path)  # recently used: kept longest
        logger.debug(
            "prompt cache: %d of %d tokens loaded from %s", shared, len(tokens), entry.path.name
        )
        return shared

    def save(self, runtime: Runtime) -> Path | None:
        """Write what the KV cache holds now; ``None`` when it is too short or cannot be written."""
        if runtime.n_cached() < self.min_tokens:
            return None
        saved = runtime.save_state()
        if saved is None:
            logger.warning("prompt cache: llama.cpp returned no state to save")
            return None
        tokens, state = saved
        count, written = len(tokens), len(state)
        token_bytes = struct.pack(f"<{count}i", *tokens)
        payload = state
        check = zlib.crc32(payload, zlib.crc32(token_bytes))
        digest = hashlib.sha256(token_bytes).hexdigest()[:16]
        target = self.folder / f"{self._stem}-{digest}.kv"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(_HEADER.pack(_MAGIC, _FORMAT, count, written, check))
                    out.write(token_bytes)
                    out.write(payload)
                os.replace(temporary, target)  # readers see the old file or the whole new one
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as exc:
            logger.warning("prompt cache: cannot write %s (%s); continuing without it", target, exc)
            return None
        self._prune(keep=target)
        logger.debug("prompt cache: %d tokens saved to %s", count, target)
        return target

    def _entries(self) -> list[_Entry]:
        entries = []
        for path in sorted(self.folder.glob(f"{self._stem}-*.kv")):
            tokens = self._read_tokens(path)
            if tokens is not None:
                entries.append(_Entry(path, tokens))
        return entries

    def _read_tokens(self, path: Path) -> tuple[int, ...] | None:
        try:
            with path.open("rb") as source:
                header = source.read(_HEADER.size)
                magic, version, count, _, _ = _HEADER.unpack(header)
                if magic != _MAGIC or version != _FORMAT:
                    raise ValueError("not a springtail prompt cache file of this version")
                if count > _MAX_TOKENS:
                    raise ValueError(f"it claims {count} tokens")
                raw = source.read(4 * count)
                if len(raw) != 4 * count:
                    raise ValueError("cut short")
        except FileNotFoundError:
            return None  # another process pruned it
        except (OSError, ValueError, struct.error) as exc:
            self._discard(path, exc)
            return None
        return struct.unpack(f"<{count}i", raw)

    def _load(self, runtime: Runtime, entry: _Entry) -> bool:
        try:
            data = entry.path.read_bytes()
            _, _, count, size, check = _HEADER.unpack_from(data)
            start = _HEADER.size
            token_bytes = data[start : start + 4 * count]
            payload = data[start + 4 * count :]
            if len(payload) != size or zlib.crc32(payload, zlib.crc32(token_bytes)) != check:
                raise ValueError("damaged: its checksum does not match")
        except FileNotFoundError:
            return False
        except (OSError, ValueError, struct.error) as exc:
            self._discard(entry.path, exc)
            return False
        if not runtime.load_state(entry.tokens, payload):
            self._discard(entry.path, ValueError("llama.cpp could not load it"))
            return False
        return True

    def _discard(self, path: Path, reason: Exception) -> None:
        logger.warning(
            "prompt cache: ignoring and deleting %s (%s); the prompt is evaluated instead",
            path,
            reason,
        )
        with contextlib.suppress(OSError):
            path.unlink()

    def _prune(self, *, keep: Path) -> None:
        files = [p for p in self.folder.glob(f"{self._stem}-*.kv") if p != keep]
        with contextlib.suppress(OSError):
            files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[max(0, self.keep - 1) :]:
            with contextlib.suppress(OSError):
                old.unlink()
