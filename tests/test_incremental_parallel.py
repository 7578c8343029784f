"""Serve's forked child (`incremental/parallel.py`): which jobs it takes, and what comes
back from it. The byte comparison of forked updates with a full build is in
tests/test_incremental.py."""

from __future__ import annotations

import os

import pytest

from rewire_site.incremental.memo import Memo
from rewire_site.incremental.parallel import Child, ChildFailed, split
from rewire_site.incremental.track import Recorder
from rewire_site.render.pool import Job

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")

DIRTY: list[Job] = [
    ("record", "eval-1"),  # the edited record's own page
    ("record", "config-1"),
    ("filter", "task", "x"),
    ("chooser",),
    ("data", "exports"),
    ("data", "matrix"),
    ("home",),
]
COSTS = {
    ("record", "eval-1"): 0.01,
    ("record", "config-1"): 0.02,
    ("filter", "task", "x"): 0.2,
    ("chooser",): 0.2,
    ("data", "exports"): 0.3,
    ("data", "matrix"): 0.2,
    ("home",): 0.05,
}


def owned(job: Job) -> bool:
    return job == ("record", "eval-1")


def test_the_child_takes_movable_jobs_balancing_the_cost() -> None:
    mine, theirs = split(DIRTY, COSTS, owned, minimum=0.1)
    assert sorted(mine + theirs) == sorted(DIRTY) and not set(mine) & set(theirs)
    # kept here: the editor's own page and the filter page (rows reused by identity)
    assert {("record", "eval-1"), ("filter", "task", "x")} <= set(mine)
    # costliest first, each to the side with less so far; the child starts with the
    # cost of forking (0.05), this side with its own jobs (0.21)
    assert theirs == [("data", "exports"), ("data", "matrix")]
    here, there = sum(COSTS[j] for j in mine), sum(COSTS[j] for j in theirs)
    assert abs(here - there) <= max(COSTS.values())
    # this process keeps the dirty order (its own page first)
    assert mine == [j for j in DIRTY if j not in theirs]


def test_the_tail_this_process_runs_moves_more_to_the_child() -> None:
    _, theirs = split(DIRTY, COSTS, owned, minimum=0.1)
    _, more = split(DIRTY, COSTS, owned, minimum=0.1, tail=0.4)
    assert set(theirs) < set(more)


def test_with_no_minimum_and_no_fork_charge_every_update_forks() -> None:
    free = dict.fromkeys(DIRTY, 0.0)
    # the default charge for forking leaves the child nothing when nothing costs
    assert split(DIRTY, free, owned, minimum=0.0) == (DIRTY, [])
    # with no charge the child takes the movable jobs (what tests/test_incremental.py
    # relies on to fork on every edit)
    _, theirs = split(DIRTY, free, owned, minimum=0.0, fork=0.0)
    assert theirs and not set(theirs) & {("record", "eval-1"), ("filter", "task", "x")}


def test_cheap_updates_are_not_forked() -> None:
    assert split(DIRTY, COSTS, owned, minimum=5.0) == (DIRTY, [])
    # a job never made before counts a small default, not nothing
    assert split([("record", "new")], {}, owned, minimum=0.001)[1] == []


def test_the_childs_results_and_memo_pieces_come_back() -> None:
    memo = Memo(Recorder())
    memo(("kept",), lambda: "before the fork")

    def compute() -> list[tuple[int, str]]:
        made = memo(("made in the child",), lambda: f"pid {os.getpid()}")
        memo(("kept",), lambda: "never computed: kept")
        return [(os.getpid(), made)]

    child = Child.start(compute, memo)
    [(pid, made)] = child.results(memo)
    assert pid != os.getpid() and made == f"pid {pid}"
    # the piece the child computed is kept here now; the kept one was a hit there
    assert memo.items[("made in the child",)][0] == made
    assert memo.hits == 1 and memo.added is None


def test_a_failing_child_raises_here() -> None:
    def fails() -> None:
        raise ValueError("boom in the child")

    with pytest.raises(ChildFailed, match="boom in the child"):
        Child.start(fails, Memo()).results(Memo())


def test_a_child_that_dies_raises_here() -> None:
    def dies() -> None:
        os._exit(3)

    with pytest.raises(ChildFailed, match="exit code 3"):
        Child.start(dies, Memo()).results(Memo())
