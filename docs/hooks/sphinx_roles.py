"""A griffe extension for the docs build: Sphinx markup in docstrings becomes Markdown.

springtail's docstrings name other objects the Sphinx way
(``:class:`ChatMemoryError```, ``:meth:`~ChatClient.prompt```) and open an
example with ``::``, which reads well in the source and in ``help()``;
Markdown would show the role and the double colon. At build time each role
becomes inline code of the name it shows (a leading ``~`` keeps only the last
part, as in Sphinx) and a paragraph's closing ``::`` a single colon (the
indented block after it is code in Markdown too). Nothing in ``src`` changes.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_LITERAL_BLOCK = re.compile(r"(?<=\S)::\n(?=\s*\n)")
_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|data|mod|exc|obj|const):`(~?)([^`]+)`")


def _as_code(match: re.Match[str]) -> str:
    short, target = match.group(1), match.group(2).strip()
    shown = target.rsplit(".", 1)[-1] if short else target
    return f"`{shown}`"


class SphinxRoles(griffe.Extension):
    """Rewrite every docstring's Sphinx roles and literal-block colons as Markdown."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        """Called by griffe for each object it loads."""
        if obj.docstring is not None:
            text = _ROLE.sub(_as_code, obj.docstring.value)
            obj.docstring.value = _LITERAL_BLOCK.sub(":\n", text)
