"""Row planning for the SQL repositories: a save touches only what changed, and is always right."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from springtail.memory._rows import RowPlan, plan_rows


def apply(stored: list[tuple[int, str]], wanted: list[str], plan: RowPlan) -> list[str]:
    rows = dict(stored)
    for seq in plan.delete:
        del rows[seq]
    for seq, index in plan.insert:
        assert seq not in rows, "an insert would hit a row that is still there"
        rows[seq] = wanted[index]
    return [rows[seq] for seq in sorted(rows)]


def rows_of(payloads: list[str], start: int = 0) -> list[tuple[int, str]]:
    return [(start + i, p) for i, p in enumerate(payloads)]


def test_appending_inserts_only_the_new_rows() -> None:
    stored = rows_of(["s", "a", "b"])
    plan = plan_rows(stored, ["s", "a", "b", "c", "d"])
    assert plan.delete == ()
    assert plan.insert == ((3, 3), (4, 4))


def test_trimming_the_front_deletes_only_the_dropped_rows() -> None:
    stored = rows_of(["a", "b", "c", "d"], start=10)
    plan = plan_rows(stored, ["c", "d", "e"])
    assert plan.delete == (10, 11)
    assert plan.insert == ((14, 2),)


def test_keeping_the_system_message_while_trimming_after_it() -> None:
    stored = rows_of(["sys", "a", "b", "c"])
    plan = plan_rows(stored, ["sys", "b", "c", "d"])
    assert plan.delete == (1,)
    assert plan.insert == ((4, 3),)


def test_replacing_the_system_message_inserts_it_before_the_kept_rows() -> None:
    stored = rows_of(["old", "a", "b"])
    wanted = ["new", "a", "b", "c"]
    plan = plan_rows(stored, wanted)
    assert plan.delete == (0,)
    assert [index for _, index in plan.insert] == [0, 3]
    assert apply(stored, wanted, plan) == wanted


def test_an_unchanged_conversation_changes_nothing() -> None:
    assert plan_rows(rows_of(["a", "b"]), ["a", "b"]).changes_nothing


def test_a_tangled_change_rewrites_and_keeps_creation_times_of_equal_rows() -> None:
    stored = rows_of(["a", "b", "c"])
    wanted = ["a", "x", "c"]
    plan = plan_rows(stored, wanted)
    assert apply(stored, wanted, plan) == wanted
    assert plan.reuse == {0: 0, 2: 2}


# No deadline: a plan is pure arithmetic, and a loaded 2-core machine under coverage took
# 272 ms for one example, which says nothing about the code.
@settings(deadline=None)
@given(
    stored=st.lists(st.sampled_from("abcdef"), max_size=12),
    wanted=st.lists(st.sampled_from("abcdefgh"), max_size=12),
    start=st.integers(min_value=-5, max_value=5),
)
def test_applying_a_plan_always_gives_the_wanted_rows(
    stored: list[str], wanted: list[str], start: int
) -> None:
    rows = rows_of(stored, start)
    assert apply(rows, wanted, plan_rows(rows, wanted)) == wanted


@settings(deadline=None)
@given(
    stored=st.lists(st.sampled_from("abcdef"), max_size=12),
    wanted=st.lists(st.sampled_from("abcdefgh"), max_size=12),
)
def test_plans_apply_to_sparse_seqs_too(stored: list[str], wanted: list[str]) -> None:
    rows = [(i * 7 - 20, p) for i, p in enumerate(stored)]
    assert apply(rows, wanted, plan_rows(rows, wanted)) == wanted
