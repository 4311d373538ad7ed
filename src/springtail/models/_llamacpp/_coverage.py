"""Whether an answer states what the turn's tools returned.

Given several results, the 1.5B model often answers from some and ends:
four shipping and currency quotes got an answer with three, and a free slot
then a booking got "The event E-4 has been added" without the slot's time.
A result is stated when the answer holds one of its values with digits
(an amount, a time, an id) that the request did not already give; a result
with no such value (a weekday, "No events") counts as stated. A value that
went on into a later call (the slot's time into the booking) is still news
to the user.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from springtail.models._llamacpp._values import Literals, literals, normal, value_tokens

__all__ = ["news", "stated_part", "unstated"]


def unstated(answer: str, results: Sequence[str], given: str) -> list[str]:
    """The results that ``answer`` states nothing of.

    Args:
        answer: The answer so far.
        results: What each tool returned.
        given: The text whose values a result may repeat without news (the
            request).
    """
    echoed = _with_digits(literals(given))
    said = literals(answer)
    text = answer.lower()
    found = [_with_digits(literals(result)) - echoed for result in results]
    missing = []
    for index, result in enumerate(results):
        news = _own(found[index], found[:index] + found[index + 1 :])
        if news and not any(_stated(value, said, text) for value in news):
            missing.append(result)
    return missing


def _own(values: Literals, others: Sequence[Literals]) -> Literals:
    """``values`` less those another result gives too, unless that leaves none.

    A lookup said "4 in stock" and the reservation "Reserved 4 unit(s) …;
    reservation R-1": the answer "SKU-300 has 4 units in stock" stated the
    lookup, not the reservation, whose own value is R-1 (twelfth pass).
    """
    own = values.difference(*others)
    return own or values


def news(results: Sequence[str], given: str, others: Sequence[str] = ()) -> list[str]:
    """The values with digits of ``results``, as they are written there, that ``given`` lacks.

    These are what an answer that goes on must write one of (the grammar
    asks for one): a time also without its leading zero, a whole number
    also without its decimals. A value that one
    of ``others`` (the turn's other results) gives too is left out of a
    result that has values of its own.
    """
    echoed = _with_digits(literals(given))
    elsewhere = [_with_digits(literals(other)) - echoed for other in others]
    spelled: list[str] = []
    for result in results:
        values = _with_digits(literals(result)) - echoed
        left_out = echoed | (values - _own(values, elsewhere))
        for token in value_tokens(result):
            token = token.rstrip(".")
            if any(c.isdigit() for c in token) and normal(token) not in left_out:
                spelled.append(token)
                if _TIME.fullmatch(token) and token.startswith("0"):
                    spelled.append(token[1:])
                if _WHOLE.fullmatch(token):
                    # An average's "20.0" is said "20 units" (twenty-first pass).
                    spelled.append(token.split(".")[0])
    return list(dict.fromkeys(spelled))


def _with_digits(values: Literals) -> Literals:
    return frozenset(v for v in values if any(c.isdigit() for c in v))


def _stated(value: str, said: Literals, text: str) -> bool:
    """Whether the answer holds ``value``: whole, or a time of a range, with or without a zero."""
    if value in said:
        return True
    times = _TIME.findall(value)
    return any(t in text or t.lstrip("0") in text for t in times)


_TIME = re.compile(r"\d{1,2}:\d{2}")
_WHOLE = re.compile(r"\d+\.0+")


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def stated_part(text: str, keys: Sequence[str]) -> str:
    """What a continuation cut at its length says whole: up to a boundary after a key.

    Made to state the patient it left out, the 1.5B model wrote "The patient
    record for P-104 is Kenji Sato, born 1969-02-17, e-mail …, phone +81 3
    555 0104, and insurance covers 70% of a visit" and was cut: dropped
    whole, the answer named one patient of two (seventeenth pass,
    docs/embedded-model.md). The sentence that holds a key is kept to its
    end, or to the last comma after the key, then closed; nothing when the
    text holds no key, or no boundary follows it, and when what it keeps
    runs over a line or writes an ``=``: cut while it wrote a call out
    ("For example, you can use the following code:" and a line of it),
    it is no sentence of an answer.
    """
    ends = [m.end() for key in keys if (m := re.search(re.escape(key), text))]
    if not ends:
        return ""
    after = min(ends)
    sentence = _SENTENCE_END.search(text, after)
    if sentence is not None:
        kept = text[: sentence.end()]
    else:
        comma = text.rfind(", ", after)
        kept = text[:comma].rstrip() + "." if comma >= 0 else ""
    return "" if "\n" in kept.strip() or "=" in kept else kept
