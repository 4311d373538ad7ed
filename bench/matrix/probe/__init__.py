"""A third set of chained requests, written after the fourth pass to read failures from.

The development half has been read so often that rules fit its phrasing, and the held-out
half may not be read. These requests (``--half probe``) were written fresh, over the same
four tool sets, in phrasings the other halves do not use, so that a pass can look at what
the model writes for a chain it has never been tuned on. Once read, they are development
requests too: a rule is still chosen here and judged on the held-out half.

The probe has two sets, eight chains per tool set: the first four of each tool set were
written after the fourth pass and read in the fifth; the second four, written in the seventh
pass, stay unread by the model's tuning until they are measured. Case ids are positional, so
new requests are only ever appended.
"""

from __future__ import annotations

from bench.matrix.probe._cases import PROBE

__all__ = ["PROBE"]
