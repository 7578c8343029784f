"""An update's jobs on two cores: this process and one forked child.

An edit to a much-read record (a protocol, a cited source) re-makes hundreds of pages,
and every edit re-makes the site-wide data files; one process leaves the second core
idle. `split` gives a forked child about half of the dirty jobs by their last measured
cost; the child makes and renders them from its copy-on-write view of the plan and
sends back, pickled through a pipe, each job's files, keys and cost, and the memo
pieces and gzip segments it computed (`memo.Memo.since`), so the next edit finds them.
This process writes every file: the manifest and the written files stay in one place.

Kept here: the edited records' own pages (made first, so the page an editor looks at is
served first) and the filter pages, whose shared rows are reused by object identity
(weak references, `render.contexts.SharedRows`): a copy sent back through a pipe is
another object. (The chooser's pages the memo kept go back in the same pickle as the
memo's pieces, so they stay the pieces' objects.) An update whose dirty jobs cost less
than `PARALLEL_MIN_SECONDS` is made here alone: forking a large heap is not free (at
10,000 evaluations, about 30 CPU-ms here and 35 in the child for a child doing nothing).
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import traceback
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from ..render.pool import Job
from .memo import Memo

PARALLEL_MIN_SECONDS = 0.25
"""Dirty jobs cheaper than this in all (by their last CPU seconds) are made in this
process alone."""
FORK_SECONDS = 0.05
"""What the child's side starts with in `split`: forking, and the copy-on-write faults
and pickling of its results (tens of CPU-ms at 10,000 evaluations)."""
NEW_JOB_SECONDS = 0.005
"""The cost assumed for a job never made before (a new record's page)."""
HERE_ONLY = frozenset({"filter"})
"""Job kinds whose reuse rests on object identity in this process (see the docstring)."""
CAN_FORK = "fork" in mp.get_all_start_methods()


class ChildFailed(RuntimeError):
    """The forked child raised or died; the engine falls back to a full build."""


def split(
    dirty: list[Job],
    costs: Mapping[Job, float],
    owned: Callable[[Job], bool],
    minimum: float = PARALLEL_MIN_SECONDS,
    tail: float = 0.0,
    fork: float = FORK_SECONDS,
) -> tuple[list[Job], list[Job]]:
    """(jobs for this process, in `dirty`'s order; jobs for the child), balanced by
    cost: the movable jobs, costliest first, each go to whichever side has less so far
    (longest processing time first). This side starts with what it alone can make and
    with the `tail` it runs after the jobs (the search index, the release table); the
    child with `fork`, the cost of forking (0 with `minimum` 0: every update forks, as
    the tests want, when a job can move)."""
    cost = {j: costs.get(j, NEW_JOB_SECONDS) for j in dirty}
    if not CAN_FORK or sum(cost.values()) + tail < minimum:
        return dirty, []
    movable = [j for j in dirty if j[0] not in HERE_ONLY and not owned(j)]
    moved = set(movable)
    here = tail + sum(cost[j] for j in dirty if j not in moved)
    there = fork
    theirs: list[Job] = []
    for job in sorted(movable, key=lambda j: -cost[j]):
        if there <= here:
            theirs.append(job)
            there += cost[job]
        else:
            here += cost[job]
    if not theirs:
        return dirty, []
    chosen = set(theirs)
    return [j for j in dirty if j not in chosen], theirs


def _run(compute: Callable[[], Any], memo: Memo, conn: Connection) -> None:
    """In the child: `compute()`, then the results and the memo's new pieces, pickled."""
    try:
        memo.added, memo.touched = [], set()
        hits = memo.hits
        results = compute()
        pieces, gzip = memo.since()
        payload = ("ok", results, pieces, gzip, memo.hits - hits)
        data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException:
        data = pickle.dumps(("error", traceback.format_exc()))
    try:
        conn.send_bytes(data)
    finally:
        conn.close()


class Child:
    """A forked process making some of an update's jobs."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn

    @classmethod
    def start(cls, compute: Callable[[], Any], memo: Memo) -> Child:
        """Fork a child that runs `compute()` (it must return picklable results)."""
        context = mp.get_context("fork")
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(target=_run, args=(compute, memo, writer), daemon=True)
        process.start()
        writer.close()
        return cls(process, reader)

    def results(self, memo: Memo) -> Any:
        """Wait for the child's results; its new memo pieces go into `memo`."""
        try:
            data = self.conn.recv_bytes()
        except EOFError as error:
            self.process.join()
            code = self.process.exitcode
            raise ChildFailed(f"the forked child ended (exit code {code})") from error
        finally:
            self.conn.close()
        self.process.join()
        status, *rest = pickle.loads(data)
        if status != "ok":
            raise ChildFailed(f"the forked child failed:\n{rest[0]}")
        results, pieces, gzip, hits = rest
        memo.merge(pieces, gzip)
        memo.hits += hits
        return results

    def stop(self) -> None:
        """End the child (this process failed first)."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()
