"""The probe: requests written after the fourth pass to read failures from.

The development half has been read so often that rules fit its phrasing, and the held-out
half may not be read. These requests (``--half probe``) were written fresh, over the same
four tool sets, in phrasings the other halves do not use, so that a pass can look at what
the model writes for a request it has never been tuned on. Once read, they are development
requests too: a rule is still chosen here and judged on the held-out half.

Per tool set, the probe holds, in this order:

* eight chains (``_cases``): the first four were written after the fourth pass and read in the
  fifth; the second four were written in the seventh pass;
* four requests that ask for several independent things at once (``_multi``, kind ``multi``),
  written in the tenth pass (2026-12-04): two different tools, each called twice, none
  needing another's result, phrased as lists, separate sentences, "Also, ...", a later ask
  put first, or behind a polite preamble;
* for the calendar only, eight chains whose first step finds what the request only names
  (``_lookups``, calendar cases 36-43), written in the eighteenth pass;
* four requests whose steps the request asks for with no value and no tool's name, or one
  tool three times (``_steps``, cases 36-39, the calendar's 44-47), written in the
  twenty-second pass;
* four chains with a step between what the request gives and what it asks (``_between``,
  cases 40-43, the calendar's 48-51), written in the twenty-third pass;
* for the calendar only, four requests for one tool twice (``_twice``, cases 52-55),
  written in the twenty-third pass;
* for the calendar only, four requests for one tool twice, then a question about the two
  results (``_asked_after``, cases 56-59), written in the twenty-fourth pass;
* for the calendar only, four requests for one tool twice whose second call names only the
  value that changes (``_shared``, cases 60-63), written in the twenty-fourth pass.

Case ids are positional, so new requests are only ever appended.
"""

from __future__ import annotations

from bench.matrix._cases import Case
from bench.matrix.probe._asked_after import ASKED_AFTER as _ASKED_AFTER
from bench.matrix.probe._between import BETWEEN as _BETWEEN
from bench.matrix.probe._cases import PROBE as _CHAINS
from bench.matrix.probe._lookups import LOOKUPS as _LOOKUPS
from bench.matrix.probe._multi import MULTI as _MULTI
from bench.matrix.probe._shared import SHARED as _SHARED
from bench.matrix.probe._steps import STEPS as _STEPS
from bench.matrix.probe._twice import TWICE as _TWICE

__all__ = ["PROBE"]

PROBE: dict[str, tuple[Case, ...]] = {
    name: chains
    + _MULTI[name]
    + _LOOKUPS.get(name, ())
    + _STEPS[name]
    + _BETWEEN[name]
    + _TWICE.get(name, ())
    + _ASKED_AFTER.get(name, ())
    + _SHARED.get(name, ())
    for name, chains in _CHAINS.items()
}
"""The probe's cases by tool set name: chains, several at once, lookups, steps, steps between."""
