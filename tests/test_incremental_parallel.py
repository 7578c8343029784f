"""Serve's replica (`incremental/parallel.py`): which jobs it takes, how it follows each
update, and what comes back from it. The byte comparison of forked updates with a full build is in
tests/test_incremental.py."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from rewire_site.incremental.memo import Memo
from rewire_site.incremental.parallel import ChildFailed, Pieces, Replica, split
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


class Site:
    """The smallest state a replica can follow: records applied are kept in a list, and
    each job is made through the memo."""

    def __init__(self, memo: Memo) -> None:
        self.memo = memo
        self.applied: list[str] = []
        self.fail_follow = False

    def follow(self, paths: set[Path], pieces: Pieces) -> None:
        if self.fail_follow:
            raise ValueError("cannot follow")
        self.memo.merge(*pieces)
        self.applied += sorted(p.name for p in paths)

    def make_jobs(self, jobs: list[Job]) -> tuple[Any, Pieces]:
        self.memo.begin()
        results = []
        for job in jobs:
            if job == ("boom",):
                raise ValueError("boom in the replica")
            if job == ("die",):
                os._exit(3)
            made = self.memo((job,), lambda: f"pid {os.getpid()}")
            results.append((os.getpid(), made, tuple(self.applied), self.memo(("kept",), str)))
        return results, self.memo.since()


def test_the_replica_follows_each_update_and_its_pieces_come_back() -> None:
    memo = Memo(Recorder())
    memo(("kept",), lambda: "before the fork")
    replica = Replica.start(Site(memo))
    try:
        replica.update({Path("a.yaml")}, ([], {}))
        replica.jobs([("one",)])
        [(pid, made, applied, kept)] = replica.results(memo)
        assert pid != os.getpid() and made == f"pid {pid}" and applied == ("a.yaml",)
        assert kept == "before the fork"  # the state it was forked from
        # the piece the replica computed is kept here now
        assert memo.items[(("one",),)][0] == made
        # the next update: what this process computed meanwhile goes to the replica
        memo.begin()
        memo(("here",), lambda: "computed here")
        replica.update({Path("b.yaml")}, memo.since())
        replica.jobs([("two",)])
        [(same, _, applied, _)] = replica.results(memo)
        assert same == pid and applied == ("a.yaml", "b.yaml")  # one process, kept
        replica.update(set(), ([], {}))
        replica.jobs([])  # every update sends its jobs, maybe none
        assert replica.results(memo) == []
    finally:
        replica.stop()
    assert not replica.process.is_alive()


@pytest.mark.parametrize(
    ("job", "message"), [(("boom",), "boom in the replica"), (("die",), "exit code 3")]
)
def test_a_replica_that_fails_or_dies_raises_here(job: Job, message: str) -> None:
    replica = Replica.start(Site(Memo()))
    replica.update(set(), ([], {}))
    replica.jobs([job])
    with pytest.raises(ChildFailed, match=message):
        replica.results(Memo())
    replica.stop()


def test_a_replica_that_cannot_follow_an_update_raises_here() -> None:
    site = Site(Memo())
    site.fail_follow = True
    replica = Replica.start(site)
    replica.update({Path("a.yaml")}, ([], {}))
    replica.jobs([("one",)])
    with pytest.raises(ChildFailed, match="cannot follow"):
        replica.results(Memo())
    replica.stop()
