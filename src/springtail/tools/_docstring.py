"""Descriptions taken from a tool's docstring.

Parsing is delegated to ``docstring-parser`` (Google, NumPy and Sphinx
styles). Its automatic mode tries every style in turn, which costs more than
the rest of building a tool; a cheap look at the section markers picks the
style first and the automatic mode is only the fallback.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DocInfo", "parse_docstring"]


@dataclass(frozen=True, slots=True)
class DocInfo:
    """The prose description and the per-parameter descriptions of a docstring."""

    description: str | None = None
    params: dict[str, str] = field(default_factory=dict)


_EMPTY = DocInfo()
_GOOGLE_MARKERS = ("Args:", "Arguments:", "Parameters:", "Params:", "Keyword Args:")


def parse_docstring(obj: Any) -> DocInfo:
    """Parse ``obj``'s docstring; an object without one gives an empty result."""
    doc = inspect.getdoc(obj)
    if not doc or not doc.strip():
        return _EMPTY
    import docstring_parser  # deferred: only tools with docstrings pay for it

    style = _guess_style(doc, docstring_parser.DocstringStyle)
    if style is None:  # no parameter section: the whole text is the description
        return DocInfo(description=doc.strip())
    try:
        parsed = docstring_parser.parse(doc, style=style)
    except docstring_parser.ParseError:
        parsed = docstring_parser.parse(doc)
    parts = [p for p in (parsed.short_description, parsed.long_description) if p]
    description = "\n\n".join(p.strip() for p in parts) or None
    params = {
        p.arg_name: " ".join(p.description.split())
        for p in parsed.params
        if p.description and p.description.strip()
    }
    return DocInfo(description=description, params=params)


def _guess_style(doc: str, styles: Any) -> Any:
    if ":param" in doc or ":arg" in doc or ":returns" in doc or ":return:" in doc:
        return styles.REST
    if "\n---" in doc:
        return styles.NUMPYDOC
    if any(marker in doc for marker in _GOOGLE_MARKERS) or "Returns:" in doc:
        return styles.GOOGLE
    if "Raises:" in doc or "Yields:" in doc:
        return styles.GOOGLE
    return None
