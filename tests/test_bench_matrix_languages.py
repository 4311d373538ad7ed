"""bench/matrix's German and Spanish cases line up with their English ones.

A translation changes the user's words only: each translated case has its English
case's kind, half, turns and expected calls (the same tools, the same argument names,
the same values or a value that also accepts the translation). Failure messages name
cases by tool set, half and index: the held-out requests stay unread.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.matrix._cases import LANGUAGES, Case, Contains, OneOf, ToolSet, call, contains, turn
from bench.matrix._run import calls_match
from bench.matrix._sets import TEAM, TOOL_SETS
from bench.matrix.languages import TRANSLATIONS, in_other_languages
from bench.matrix.languages._translate import Translation, translated


def _english(tool_set: ToolSet, half: str) -> list[Case]:
    return [c for c in tool_set.cases if c.half == half and c.language == "en"]


def test_every_team_request_of_both_halves_is_translated_into_each_language() -> None:
    for tool_set in TEAM:
        for language in LANGUAGES[1:]:
            for half in ("dev", "held-out"):
                english = _english(tool_set, half)
                other = [c for c in tool_set.cases if c.half == half and c.language == language]
                assert len(other) == len(english), (tool_set.name, language, half)


def test_a_translated_case_keeps_its_english_case_s_kind_turns_and_calls() -> None:
    for tool_set in TEAM:
        for language in LANGUAGES[1:]:
            for half in ("dev", "held-out"):
                english = _english(tool_set, half)
                other = [c for c in tool_set.cases if c.half == half and c.language == language]
                for i, (en, tr) in enumerate(zip(english, other, strict=True)):
                    where = (tool_set.name, language, half, i)
                    assert (tr.kind, len(tr.turns)) == (en.kind, len(en.turns)), where
                    for a, b in zip(en.turns, tr.turns, strict=True):
                        assert a.request != b.request, where
                        assert a.ordered == b.ordered, where
                        assert [c.name for c in a.calls] == [c.name for c in b.calls], where
                        assert [set(c.arguments) for c in a.calls] == [
                            set(c.arguments) for c in b.calls
                        ], where
                        # The English values still match: a right English call is right here.
                        english_calls = [(c.name, _plain(c.arguments)) for c in a.calls]
                        assert calls_match(english_calls, b.calls, ordered=True), where
                        for group_en, group_tr in zip(a.answer, b.answer, strict=True):
                            assert set(group_en) <= set(group_tr), where


def _plain(arguments: object) -> dict[str, object]:
    """The example value of each expected argument, as the matrix's own test sends it."""

    def example(value: object) -> object:
        if isinstance(value, Contains):
            return " ".join(value.words)
        if isinstance(value, OneOf):
            return example(value.options[0])
        if isinstance(value, list):
            return [example(v) for v in value]
        if isinstance(value, dict):
            return {k: example(v) for k, v in value.items()}
        return value

    assert isinstance(arguments, dict)
    return {k: example(v) for k, v in arguments.items()}


def test_only_the_team_sets_are_translated() -> None:
    for tool_set in TOOL_SETS:
        languages = {c.language for c in tool_set.cases}
        assert languages == (set(LANGUAGES) if tool_set.origin == "team" else {"en"})
        assert {c.half for c in tool_set.cases if c.language != "en"} <= {"dev", "held-out"}


def test_free_text_and_places_accept_the_translation_and_answers_either_language() -> None:
    spanish = Translation(
        "es",
        {
            "Tell Sam the parcel is late.": "Dile a Sam que el paquete llega tarde.",
            "Ship it to Spain.": "Envíalo a España.",
        },
        words={"late": ("tarde",), "sent": ("enviad",)},
        values={"Spain": ("España",)},
    )
    cases = (
        Case(
            "single",
            "dev",
            (
                turn(
                    "Tell Sam the parcel is late.",
                    call("send_message", to="Sam", text=contains("late")),
                    answer=[("sent", "m-1")],
                ),
            ),
        ),
        Case("single", "dev", (turn("Ship it to Spain.", call("ship", country="Spain")),)),
    )
    message, shipping = translated(cases, spanish)
    assert message.language == "es"
    assert message.turns[0].request.startswith("Dile")
    got = [("send_message", {"to": "Sam", "text": "El paquete llega tarde."})]
    assert calls_match(got, message.turns[0].calls, ordered=True)
    assert message.turns[0].answer == (("sent", "m-1", "enviad"),)
    assert calls_match([("ship", {"country": "España"})], shipping.turns[0].calls, ordered=True)
    assert calls_match([("ship", {"country": "Spain"})], shipping.turns[0].calls, ordered=True)
    with pytest.raises(KeyError):
        translated((Case("none", "dev", (turn("Not translated."),)),), spanish)


def test_the_held_out_translations_live_in_the_held_out_folder_with_its_header() -> None:
    for language, halves in TRANSLATIONS.items():
        assert halves["held-out"].language == halves["dev"].language == language
    folder = Path(__file__).parent.parent / "bench" / "matrix" / "heldout"
    for name in ("_de.py", "_es.py"):
        first = (folder / name).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# The held-out half")
        assert "do not read" in first
    assert in_other_languages(()) == ()
