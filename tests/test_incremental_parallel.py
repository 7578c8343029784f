"""Serve's replica (`incremental/parallel.py`): which jobs it takes, how it follows each
update, and what comes back from it. The byte comparison of forked updates with a full build is in
tests/test_incremental.py."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from rewire_site.incremental.memo import Memo
from rewire_site.incremental.parallel import (
    ChildFailed,
    Claims,
    Deps,
    Files,
    Layout,
    Pieces,
    Replica,
    lay_out,
)
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


def test_the_layout_puts_this_process_s_own_jobs_first_and_the_costliest_last() -> None:
    layout = lay_out(DIRTY, COSTS, owned, minimum=0.1)
    assert layout is not None and sorted(layout.jobs) == sorted(DIRTY)
    # made here only: the editor's own page and the filter page (rows reused by
    # identity), at the front, in the dirty order
    assert layout.jobs[: layout.fixed] == [("record", "eval-1"), ("filter", "task", "x")]
    # then the movable jobs, cheapest first: the replica claims from the back
    movable = layout.costs[layout.fixed :]
    assert movable == sorted(movable) and layout.jobs[-1] == ("data", "exports")
    assert layout.costs == [COSTS[j] for j in layout.jobs] and layout.reserve == 0


def test_cheap_updates_are_made_here() -> None:
    assert lay_out(DIRTY, COSTS, owned, minimum=5.0) is None
    assert lay_out(DIRTY, COSTS, owned, minimum=0.9, tail=0.2) is not None  # tail counted
    # a job never made before counts a small default, not nothing
    assert lay_out([("record", "new")], {}, owned, minimum=0.001, fork=0.001) is not None
    # nothing the replica could make, or less than its overhead
    assert lay_out([("record", "eval-1"), ("filter", "a", "b")], COSTS, owned, 0.0) is None
    free = dict.fromkeys(DIRTY, 0.0)
    assert lay_out(DIRTY, free, owned, minimum=0.0) is None


def test_with_no_charge_for_the_replica_it_keeps_the_costliest_job() -> None:
    """What tests/test_incremental.py relies on to use the replica on every edit."""
    free = dict.fromkeys(DIRTY, 0.0)
    layout = lay_out(DIRTY, free, owned, minimum=0.0, fork=0.0)
    assert layout is not None and layout.reserve == 1


def _claimed(layout: Layout, here_first: int) -> tuple[list[Job], list[Job]]:
    """Claim as the two processes do: this process takes `here_first` jobs, then the
    replica takes what it will, then this process the rest."""
    claims = Claims()
    claims.reset(layout)
    front = claims.front(layout)
    mine = [job for _, job in zip(range(here_first), front, strict=False)]
    theirs = list(claims.back(layout))
    return mine + list(front), theirs


def test_each_job_is_claimed_once_and_the_fixed_jobs_only_here() -> None:
    layout = lay_out(DIRTY, COSTS, owned, minimum=0.1)
    assert layout is not None
    for first in range(len(DIRTY) + 1):
        mine, theirs = _claimed(layout, first)
        assert sorted(mine + theirs) == sorted(DIRTY), first
        assert not set(theirs) & set(layout.jobs[: layout.fixed])
        # the replica takes from the back, the costliest first
        assert theirs == layout.jobs[len(layout.jobs) - len(theirs) :][::-1]
    # the replica stops where what is left costs no more than returning its results
    leaving = Layout(layout.jobs, layout.costs, layout.fixed, 0, leave=0.25)
    mine, theirs = _claimed(leaving, 0)
    assert theirs == [("data", "exports"), ("data", "matrix"), ("chooser",)]
    assert sum(COSTS[j] for j in mine if j not in layout.jobs[: layout.fixed]) <= 0.25


def test_the_reserved_job_is_the_replica_s_however_fast_this_process_is() -> None:
    layout = lay_out(DIRTY, dict.fromkeys(DIRTY, 0.0), owned, minimum=0.0, fork=0.0)
    assert layout is not None
    mine, theirs = _claimed(layout, len(DIRTY))
    assert theirs == [layout.jobs[-1]] and layout.jobs[-1] not in mine


def _theirs(jobs: list[Job]) -> Layout:
    """A layout whose every job is reserved for the replica."""
    return Layout(jobs, [1.0] * len(jobs), 0, len(jobs), 0.0)


class Site:
    """The smallest state a replica can follow: records applied are kept in a list, and
    each job is made through the memo."""

    def __init__(self, memo: Memo) -> None:
        self.memo = memo
        self.applied: list[str] = []
        self.fail_follow = False

    def follow(self, paths: set[Path], pieces: Pieces, files: Files, deps: Deps) -> None:
        if self.fail_follow:
            raise ValueError("cannot follow")
        self.memo.merge(*pieces)
        self.applied += sorted(p.name for p in paths)

    def make_jobs(self, jobs: Iterable[Job]) -> tuple[Any, Pieces]:
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
        replica.update({Path("a.yaml")}, ([], {}), {}, {})
        replica.jobs(_theirs([("one",)]))
        [(pid, made, applied, kept)] = replica.results(memo)
        assert pid != os.getpid() and made == f"pid {pid}" and applied == ("a.yaml",)
        assert kept == "before the fork"  # the state it was forked from
        # the piece the replica computed is kept here now
        assert memo.items[(("one",),)][0] == made
        # the next update: what this process computed meanwhile goes to the replica
        memo.begin()
        memo(("here",), lambda: "computed here")
        replica.update({Path("b.yaml")}, memo.since(), {}, {})
        replica.jobs(_theirs([("two",)]))
        [(same, _, applied, _)] = replica.results(memo)
        assert same == pid and applied == ("a.yaml", "b.yaml")  # one process, kept
        replica.update(set(), ([], {}), {}, {})
        replica.jobs(None)  # every update sends its layout, maybe none
        assert replica.results(memo) == []
    finally:
        replica.stop()
    assert not replica.process.is_alive()


@pytest.mark.parametrize(
    ("job", "message"), [(("boom",), "boom in the replica"), (("die",), "exit code 3")]
)
def test_a_replica_that_fails_or_dies_raises_here(job: Job, message: str) -> None:
    replica = Replica.start(Site(Memo()))
    replica.update(set(), ([], {}), {}, {})
    replica.jobs(_theirs([job]))
    with pytest.raises(ChildFailed, match=message):
        replica.results(Memo())
    replica.stop()


def test_a_replica_that_cannot_follow_an_update_raises_here() -> None:
    site = Site(Memo())
    site.fail_follow = True
    replica = Replica.start(site)
    replica.update({Path("a.yaml")}, ([], {}), {}, {})
    replica.jobs(_theirs([("one",)]))
    with pytest.raises(ChildFailed, match="cannot follow"):
        replica.results(Memo())
    replica.stop()


def test_a_lock_left_held_raises_instead_of_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replica killed while it held the job list's lock would leave it held."""
    from rewire_site.incremental import parallel

    monkeypatch.setattr(parallel, "LOCK_SECONDS", 0.05)
    layout = lay_out(DIRTY, COSTS, owned, minimum=0.1)
    assert layout is not None
    claims = Claims()
    claims.lock.acquire()  # as the dead replica left it
    with pytest.raises(ChildFailed, match="held the job list's lock"):
        next(claims.front(layout))
    claims.lock.release()
    claims.reset(layout)
    assert next(claims.front(layout)) == layout.jobs[0]
