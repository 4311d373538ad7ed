"""The team tool sets' requests in German and Spanish (``--language de|es|all``).

Every development and held-out request of the four team tool sets is translated
(``_de``, ``_es`` here; the held-out half's in ``heldout/_de.py`` and ``heldout/_es.py``,
which are not read while tuning). The expected calls stay the English case's; see
``_translate`` for the few values that accept the translation too.
"""

from __future__ import annotations

from bench.matrix._cases import Case
from bench.matrix.heldout import _de as held_de, _es as held_es
from bench.matrix.languages import _de, _es
from bench.matrix.languages._translate import Translation, translated

__all__ = ["TRANSLATIONS", "in_other_languages"]

TRANSLATIONS: dict[str, dict[str, Translation]] = {
    "de": {"dev": _de.DEV, "held-out": held_de.HELD_OUT},
    "es": {"dev": _es.DEV, "held-out": held_es.HELD_OUT},
}
"""Language → half → its translation."""


def in_other_languages(cases: tuple[Case, ...]) -> tuple[Case, ...]:
    """The development and held-out cases among ``cases``, in German, then in Spanish."""
    out: list[Case] = []
    for halves in TRANSLATIONS.values():
        for half, translation in halves.items():
            out += translated(tuple(c for c in cases if c.half == half), translation)
    return tuple(out)
