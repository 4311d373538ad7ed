"""Loading a GGUF file into llama.cpp, with the workarounds the runtime needs.

``llama_cpp`` is imported here and only here, when the first model loads.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from springtail.models._base import ModelUnavailableError

__all__ = ["default_threads", "import_llama_cpp", "load_llama", "weight_repacking_default"]

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
