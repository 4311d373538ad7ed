"""bench/bfcl/_data.py: every vendored category loads, with answers, and samples are fixed."""

from __future__ import annotations

import pytest
from bench.bfcl._data import CATEGORIES, DATA, FINAL_ONLY, TUNING, load, sample

# The sizes of BFCL v4 (bfcl-eval 2026.3.23).
SIZES = {
    "live_simple": 258,
    "live_multiple": 1053,
    "live_parallel": 16,
    "live_parallel_multiple": 24,
    "irrelevance": 240,
    "live_irrelevance": 884,
    "multi_turn_base": 200,
    "simple": 400,
    "multiple": 200,
    "parallel": 200,
    "parallel_multiple": 200,
}


@pytest.mark.parametrize("category", list(CATEGORIES))
def test_each_category_loads_whole(category: str) -> None:
    entries = load(category)
    assert len(entries) == SIZES[category]
    assert len({e.id for e in entries}) == len(entries)
    assert all(e.category == category and e.turns for e in entries)
    kind = CATEGORIES[category].kind
    without_tools = [e.id for e in entries if not e.functions]
    # BFCL's live_irrelevance has four requests with no function at all.
    assert len(without_tools) == (4 if category == "live_irrelevance" else 0)
    if kind == "irrelevance":
        assert all(e.answer is None for e in entries)
    else:
        assert all(e.answer for e in entries)


def test_ast_answers_are_bfcl_possible_answers() -> None:
    entry = load("live_simple")[0]
    assert entry.id == "live_simple_0-0-0"
    assert entry.answer == [{"get_user_info": {"user_id": [7890], "special": ["black"]}}]
    assert entry.functions[0]["name"] == "get_user_info"
    assert entry.turns[0][0]["role"] == "user"


def test_multi_turn_entries_get_their_classes_docs_and_ground_truth() -> None:
    entry = load("multi_turn_base")[0]
    assert entry.involved_classes == ("TwitterAPI", "GorillaFileSystem")
    names = [f["name"] for f in entry.functions]
    assert "post_tweet" in names
    assert "mv" in names
    assert names.index("post_tweet") < names.index("mv")  # the classes' order
    assert len(entry.answer) == len(entry.turns) == 4
    assert entry.answer[0][0] == "cd(folder='document')"
    assert "GorillaFileSystem" in entry.initial_config


def test_tuning_and_final_categories_split_the_set() -> None:
    assert set(FINAL_ONLY) == {"simple", "multiple", "parallel", "parallel_multiple"}
    assert set(TUNING) | set(FINAL_ONLY) == set(CATEGORIES)
    assert not set(TUNING) & set(FINAL_ONLY)


def test_sample_is_fixed_by_seed_and_keeps_file_order() -> None:
    entries = load("live_simple")
    first, again = sample(entries, 40, 0), sample(entries, 40, 0)
    assert [e.id for e in first] == [e.id for e in again]
    assert len(first) == 40
    positions = [entries.index(e) for e in first]
    assert positions == sorted(positions)
    assert [e.id for e in sample(entries, 40, 1)] != [e.id for e in first]


def test_limit_zero_or_beyond_the_size_means_all() -> None:
    entries = load("live_parallel")
    assert sample(entries, 0, 0) == list(entries)
    assert sample(entries, 99, 0) == list(entries)


def test_the_license_and_notice_are_vendored() -> None:
    assert "Apache License" in (DATA / "LICENSE").read_text()
    notice = (DATA / "NOTICE").read_text()
    assert "bfcl-eval" in notice
    assert "2026.3.23" in notice
