"""An update's jobs on two cores: this process and a replica, a forked copy of the serve
state kept from one update to the next.

An edit to a much-read record (a protocol, a cited source) re-makes hundreds of pages,
and every edit re-makes the site-wide data files; one process leaves the second core
idle. The replica is forked once, at the first update of a large enough site
(`REPLICA_MIN_SECONDS`), and then follows every update: this process sends it the record
files it applied (the replica reads and derives them itself, while this process does the
same) and the memo pieces this process computed in its last update, so both memos hold
the same pieces; then `split` gives it about half of the dirty jobs by their last
measured cost. It makes and renders them and sends back, pickled through a pipe, each
job's files, keys and cost and the memo pieces and gzip segments it computed
(`memo.Memo.since`). This process writes every file: the manifest and the written files
stay in one place. A fork per update would cost more: every page either process writes
after a fork is copied (at 10,000 evaluations, about 65,000 page faults and 0.15 CPU-s on
each side per update, measured); a replica's pages are its own after its first update.

The replica reads the record files after this process did: an editor who saves again in
between makes the two disagree until the watcher reports that second save, which both
then apply. A replica that fails or dies raises `ChildFailed`: the engine rebuilds
everything and forks a new replica at the next update.

Kept here: the edited records' own pages (made first, so the page an editor looks at is
served first) and the filter pages, whose shared rows are reused by object identity
(weak references, `render.contexts.SharedRows`): a copy sent back through a pipe is
another object. (The chooser's pages the memo kept go back in the same pickle as the
memo's pieces, so they stay the pieces' objects.) An update whose dirty jobs cost less
than `PARALLEL_MIN_SECONDS` is made here alone.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import pickle
import traceback
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Protocol

from ..render.pool import Job
from .memo import Memo

PARALLEL_MIN_SECONDS = 0.25
"""Dirty jobs cheaper than this in all (by their last CPU seconds) are made in this
process alone."""
FORK_SECONDS = 0.02
"""What the replica's side starts with in `split`: the messages, and pickling its
results here and unpickling them there."""
REPLICA_MIN_SECONDS = 2.0
"""A site whose jobs cost less than this in all (CPU seconds) is served by one process:
no update of it is worth a second."""
NEW_JOB_SECONDS = 0.005
"""The cost assumed for a job never made before (a new record's page)."""
HERE_ONLY = frozenset({"filter"})
"""Job kinds whose reuse rests on object identity in this process (see the docstring)."""
CAN_FORK = "fork" in mp.get_all_start_methods()


class ChildFailed(RuntimeError):
    """The replica raised or died; the engine falls back to a full build."""


def split(
    dirty: list[Job],
    costs: Mapping[Job, float],
    owned: Callable[[Job], bool],
    minimum: float = PARALLEL_MIN_SECONDS,
    tail: float = 0.0,
    fork: float = FORK_SECONDS,
) -> tuple[list[Job], list[Job]]:
    """(jobs for this process, in `dirty`'s order; jobs for the replica), balanced by
    cost: the movable jobs, costliest first, each go to whichever side has less so far
    (longest processing time first). This side starts with what it alone can make and
    with the `tail` it runs after the jobs (the search index, the release table); the
    replica with `fork`, its overhead (0 with `minimum` 0: every update gives it jobs, as
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


class Replicated(Protocol):
    """What a replica runs: the serve state it was forked from (`IncrementalSite`)."""

    def follow(self, paths: set[Path], pieces: Pieces) -> None:
        """Apply an update's record files as the parent did (and the memo pieces the
        parent computed in its last update)."""
        ...

    def make_jobs(self, jobs: list[Job]) -> tuple[Any, Pieces]:
        """Make and render `jobs`; their results and the memo pieces computed."""
        ...


Pieces = tuple[list[Any], dict[str, Any]]
"""Memo pieces and gzip segments (`Memo.since`)."""


def _serve(site: Replicated, conn: Connection) -> None:
    """The replica's loop: per update, ('update', paths, pieces) then ('jobs', jobs);
    answers each with one pickle, ('ok', results, pieces) or ('error', traceback). Ends
    when the parent closes its end."""
    while True:
        try:
            _, paths, pieces = conn.recv()
        except (EOFError, OSError):
            return
        gc.disable()  # as in the parent's update: few cycles, and no full collection
        try:
            try:
                site.follow(paths, pieces)
                error = None
            except BaseException:
                error = traceback.format_exc()
            _, jobs = conn.recv()
            try:
                if error is not None:
                    raise ChildFailed(f"the replica could not apply the update:\n{error}")
                results, made = site.make_jobs(jobs)
                data = pickle.dumps(("ok", results, made), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:
                data = pickle.dumps(("error", traceback.format_exc()))
            conn.send_bytes(data)
        except (EOFError, OSError):
            return
        finally:
            gc.enable()


_STARTING: list[tuple[Replicated, Connection, Connection]] = []
"""What the replica being forked runs (read in the child: the `Process` object keeps no
reference to the site, which can then be collected here)."""


def _main() -> None:
    site, conn, other = _STARTING.pop()
    other.close()
    try:
        _serve(site, conn)
    finally:
        conn.close()


class Replica:
    """A forked copy of the serve state, kept from one update to the next, that makes
    the jobs `split` gives it (see the module docstring)."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn

    @classmethod
    def start(cls, site: Replicated) -> Replica:
        """Fork the replica of `site` (as it is now: start it before an update)."""
        context = mp.get_context("fork")
        here, there = context.Pipe(duplex=True)
        process = context.Process(target=_main, daemon=True)
        _STARTING.append((site, there, here))
        try:
            process.start()
        finally:
            _STARTING.clear()
        there.close()
        return cls(process, here)

    def update(self, paths: set[Path], pieces: Pieces) -> None:
        """Send an update's record files (those this process applied) and the memo
        pieces this process computed in its last update."""
        self._send(("update", paths, pieces))

    def jobs(self, jobs: list[Job]) -> None:
        """Send the update's jobs for the replica (every update sends a list, maybe empty)."""
        self._send(("jobs", jobs))

    def _send(self, message: object) -> None:
        try:
            self.conn.send(message)
        except OSError as error:
            raise self._ended() from error

    def results(self, memo: Memo) -> Any:
        """Wait for the replica's results; the memo pieces it computed go into `memo`."""
        try:
            data = self.conn.recv_bytes()
        except (EOFError, OSError) as error:
            raise self._ended() from error
        status, *rest = pickle.loads(data)
        if status != "ok":
            raise ChildFailed(f"the replica failed:\n{rest[0]}")
        results, (pieces, gzip) = rest
        memo.merge(pieces, gzip)
        return results

    def _ended(self) -> ChildFailed:
        self.process.join(timeout=5)
        return ChildFailed(f"the replica ended (exit code {self.process.exitcode})")

    def stop(self) -> None:
        """End the replica (it leaves its loop when its pipe closes)."""
        self.conn.close()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
