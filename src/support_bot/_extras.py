"""Which extra a missing module belongs to, so a command can name the ``pip install`` that fixes it.

Every optional feature of ``support-bot`` lives in a springtail extra
(``serve``, ``mcp``, ``postgres``, ``search``, ...), imported only when the
feature is used. Without the extra, the import fails deep inside the command;
this module turns that ``ImportError`` into one sentence with the command to
run, which ``support-bot``'s ``main`` prints with exit code 2. A command that
knows up front what it needs calls ``require_extra`` before doing anything.

To add an extra: add its name and its top-level import names to ``EXTRAS``.
"""

from __future__ import annotations

import importlib.util
from typing import Final

__all__ = ["EXTRAS", "MissingExtraError", "extra_for", "require_extra"]

EXTRAS: Final[dict[str, tuple[str, ...]]] = {
    "serve": ("starlette", "sse_starlette", "uvicorn", "dbos"),
    "mcp": ("mcp",),
    "postgres": ("psycopg", "psycopg_pool"),
    "search": ("bm25s",),  # PyStemmer, its other half, is used only when present
    "dbos": ("dbos",),
}
"""Each extra and the top-level modules it installs (what ``import`` names)."""


class MissingExtraError(Exception):
    """A feature was used without the springtail extra that installs it.

    Attributes:
        extra: The extra's name, as in ``pip install 'springtail[EXTRA]'``.
    """

    def __init__(self, extra: str, feature: str) -> None:
        self.extra = extra
        super().__init__(
            f"{feature} needs the '{extra}' extra, which is not installed; "
            f"install it with: pip install 'springtail[{extra}]'"
        )


def extra_for(exc: ImportError) -> str | None:
    """The extra whose absence caused ``exc``, or ``None`` when it is not an extra's module.

    The cause chain is followed, since a module may re-raise an
    ``ImportError`` with its own message ``from`` the original one.
    """
    seen: BaseException | None = exc
    while seen is not None:
        name = getattr(seen, "name", None)
        if isinstance(seen, ImportError) and name:
            top = name.split(".")[0]
            for extra, modules in EXTRAS.items():
                if top in modules:
                    return extra
        seen = seen.__cause__
    return None


def require_extra(extra: str, feature: str) -> None:
    """Raise ``MissingExtraError`` unless every module of ``extra`` can be imported.

    Args:
        extra: A key of ``EXTRAS``.
        feature: What needs it, as the start of a sentence ("support-bot serve").
    """
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(extra, feature)
