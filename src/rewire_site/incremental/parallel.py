"""An update's jobs on two cores: this process and a replica, a forked copy of the serve
state kept from one update to the next.

An edit to a much-read record (a protocol, a cited source) re-makes hundreds of pages,
and every edit re-makes the site-wide data files; one process leaves the second core
idle. The replica is forked once, at the first update of a large enough site
(`REPLICA_MIN_SECONDS`), and then follows every update: this process sends it the record
files it applied (the replica reads and derives them itself, while this process does the
same), the memo pieces this process computed and the manifest entries it changed in its
last update, so both memos, both manifests and both maps of jobs to their dependency
keys hold the same. Then the two claim the
dirty jobs from the two ends of one list (`lay_out`, `Claims`): this process from the
front (the edited records' own pages, then the cheapest), the replica from the back (the
costliest first), one job at a time, until they meet, so neither waits while jobs are
left however far the last measured costs are off. The replica writes the files of its
jobs itself (atomically, those whose bytes changed) and sends back, pickled through a
pipe, each job's paths, manifest entries and cost, its keys only when they changed, and
the memo pieces and the gzip segments it computed (`memo.Memo.since`,
`GzipSegments.delta`): neither pages' bytes nor unchanged keys cross the pipe (at 10,000
evaluations the data files were 30 MB a round trip, the keys of api/derived.json alone
1.3 MB). This process keeps the manifest of every file and writes the rest: the search
index, the sitemap, the release table. A fork per update would cost more: every page
either process writes after a fork is copied (at 10,000 evaluations, about 65,000 page
faults and 0.15 CPU-s on each side per update, measured); a replica's pages are its own
after its first update.

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
import itertools
import multiprocessing as mp
import pickle
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
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
"""The replica's overhead in an update (the messages): `lay_out` gives it no jobs that
cost less in all."""
REPLICA_MIN_SECONDS = 2.0
"""A site whose jobs cost less than this in all (CPU seconds) is served by one process:
no update of it is worth a second."""
LOCK_SECONDS = 5.0
"""How long either process waits for the job list's lock (held for microseconds) before
it takes the other for dead (`Claims`)."""
NEW_JOB_SECONDS = 0.005
"""The cost assumed for a job never made before (a new record's page)."""
HERE_ONLY = frozenset({"filter"})
"""Job kinds whose reuse rests on object identity in this process (see the docstring)."""
CAN_FORK = "fork" in mp.get_all_start_methods()


class ChildFailed(RuntimeError):
    """The replica raised or died; the engine falls back to a full build."""


@dataclass(frozen=True)
class Layout:
    """An update's dirty jobs as the two processes claim them (`Claims`): this process
    from the front, the replica from the back, until they meet, so neither waits while
    the other has jobs left, whatever the costs turn out to be."""

    jobs: list[Job]
    """The front: the jobs only this process makes (`fixed`), in `dirty`'s order (the
    edited records' own pages first); then the movable jobs, cheapest first: the
    replica starts with the costliest."""
    costs: list[float]
    """Each job's cost as last made (CPU seconds; `NEW_JOB_SECONDS` for a new one)."""
    fixed: int
    """`jobs[:fixed]` are made here only: the edited records' own pages and `HERE_ONLY`."""
    reserve: int
    """`jobs[-reserve:]` are the replica's alone (0 or 1)."""
    leave: float
    """What the replica leaves to this process: it claims no job once the unclaimed
    jobs cost no more than this, what sending its results back cost last time
    (`Replica.returned`), so that they arrive as this process ends its own jobs."""


def lay_out(
    dirty: list[Job],
    costs: Mapping[Job, float],
    owned: Callable[[Job], bool],
    minimum: float = PARALLEL_MIN_SECONDS,
    tail: float = 0.0,
    fork: float = FORK_SECONDS,
    returned: float = 0.0,
) -> Layout | None:
    """How the replica and this process share `dirty`; None when this process makes
    them all: the jobs and the `tail` cost less than `minimum`, or no job can move.
    With no charge for the replica (`fork` 0, the tests' setting) the replica keeps the
    costliest movable job, so that every update exercises it."""
    cost = {j: costs.get(j, NEW_JOB_SECONDS) for j in dirty}
    if not CAN_FORK or sum(cost.values()) + tail < minimum:
        return None
    fixed = [j for j in dirty if j[0] in HERE_ONLY or owned(j)]
    kept = set(fixed)
    movable = sorted((j for j in dirty if j not in kept), key=lambda j: cost[j])
    if not movable or (fork > 0 and sum(cost[j] for j in movable) <= fork):
        return None
    jobs = fixed + movable
    return Layout(jobs, [cost[j] for j in jobs], len(fixed), 0 if fork > 0 else 1, returned)


class Claims:
    """The two ends of an update's `Layout`, shared with the replica (made before the
    fork: a lock and two integers in shared memory): `front` claims for this process,
    `back` for the replica; each job is claimed once."""

    def __init__(self) -> None:
        context = mp.get_context("fork")
        self.lock = context.Lock()
        self.ends = context.RawArray("q", 2)  # the next front job; one past the last back

    @contextmanager
    def _held(self) -> Iterator[None]:
        """The lock, held for a few reads and writes of `ends`; a replica killed while it
        held it would leave it held: after `LOCK_SECONDS` this raises `ChildFailed` (the
        engine rebuilds everything) instead of waiting for ever."""
        if not self.lock.acquire(timeout=LOCK_SECONDS):
            raise ChildFailed(f"the replica held the job list's lock for {LOCK_SECONDS} s")
        try:
            yield
        finally:
            self.lock.release()

    def reset(self, layout: Layout) -> None:
        """Before the replica gets `layout`: every job unclaimed but the reserved."""
        with self._held():
            self.ends[0], self.ends[1] = 0, len(layout.jobs) - layout.reserve

    def front(self, layout: Layout) -> Iterator[Job]:
        """This process's jobs, claimed one at a time from the front (the fixed ones
        first) until it meets the replica's claims."""
        while True:
            with self._held():
                head = self.ends[0]
                if head >= self.ends[1]:
                    return
                self.ends[0] = head + 1
            yield layout.jobs[head]

    def back(self, layout: Layout) -> Iterator[Job]:
        """The replica's jobs: the reserved ones, then claimed one at a time from the
        back (the costliest first) down to the fixed jobs or the front."""
        n = len(layout.jobs)
        yield from reversed(layout.jobs[n - layout.reserve :])
        before = [0.0, *itertools.accumulate(layout.costs)]  # cost of jobs[:i]
        while True:
            with self._held():
                end = self.ends[1]
                start = max(self.ends[0], layout.fixed)
                if end <= start or before[end] - before[start] <= layout.leave:
                    return  # the rest is this process's (see `Layout.leave`)
                self.ends[1] = end - 1
            yield layout.jobs[end - 1]


class Replicated(Protocol):
    """What a replica runs: the serve state it was forked from (`IncrementalSite`)."""

    def follow(self, paths: set[Path], pieces: Pieces, files: Files, deps: Deps) -> None:
        """Apply an update's record files as the parent did (and the memo pieces the
        parent computed, the manifest entries and the jobs' keys it changed in its last
        update)."""
        ...

    def make_jobs(self, jobs: Iterable[Job]) -> tuple[Any, Pieces]:
        """Make, render and write `jobs` (claimed as they are taken); their results and
        the memo pieces computed."""
        ...


Pieces = tuple[list[Any], dict[str, Any]]
"""Memo pieces and gzip segments (`Memo.since`)."""
Files = dict[str, Any]
"""Site path -> its new manifest entry, or None for a file removed."""
Deps = dict[Job, Any]
"""Job -> the dependency keys it read when last made, or None for a job gone."""


def _serve(site: Replicated, conn: Connection, claims: Claims) -> None:
    """The replica's loop: per update, ('update', paths, pieces) then ('jobs', layout),
    whose jobs it claims from the back (`Claims.back`); answers each with one pickle,
    ('ok', results, pieces) or ('error', traceback). Ends when the parent closes its
    end."""
    dumped = 0.0  # CPU seconds the last answer took to pickle (sent with the next)
    while True:
        try:
            _, paths, pieces, files, deps = conn.recv()
        except (EOFError, OSError):
            return
        gc.disable()  # as in the parent's update: few cycles, and no full collection
        try:
            try:
                site.follow(paths, pieces, files, deps)
                error = None
            except BaseException:
                error = traceback.format_exc()
            _, layout = conn.recv()
            try:
                if error is not None:
                    raise ChildFailed(f"the replica could not apply the update:\n{error}")
                results, made = site.make_jobs(claims.back(layout))
                cpu = time.process_time()
                data = pickle.dumps(("ok", results, made, dumped), protocol=pickle.HIGHEST_PROTOCOL)
                dumped = time.process_time() - cpu
            except BaseException:
                data = pickle.dumps(("error", traceback.format_exc()))
            conn.send_bytes(data)
        except (EOFError, OSError):
            return
        finally:
            gc.enable()


_STARTING: list[tuple[Replicated, Connection, Connection, Claims]] = []
"""What the replica being forked runs (read in the child: the `Process` object keeps no
reference to the site, which can then be collected here)."""


def _main() -> None:
    site, conn, other, claims = _STARTING.pop()
    other.close()
    try:
        _serve(site, conn, claims)
    finally:
        conn.close()


class Replica:
    """A forked copy of the serve state, kept from one update to the next, that makes
    the jobs it claims from the back of each update's `Layout` (see the module
    docstring)."""

    def __init__(self, process: BaseProcess, conn: Connection, claims: Claims) -> None:
        self.process = process
        self.conn = conn
        self.claims = claims
        self.returned = 0.0
        """CPU seconds the replica's last results took to pickle there and unpickle here
        (what `Layout.leave` leaves to this process)."""

    @classmethod
    def start(cls, site: Replicated) -> Replica:
        """Fork the replica of `site` (as it is now: start it before an update)."""
        context = mp.get_context("fork")
        here, there = context.Pipe(duplex=True)
        process = context.Process(target=_main, daemon=True)
        claims = Claims()
        _STARTING.append((site, there, here, claims))
        try:
            process.start()
        finally:
            _STARTING.clear()
        there.close()
        return cls(process, here, claims)

    def update(self, paths: set[Path], pieces: Pieces, files: Files, deps: Deps) -> None:
        """Send an update's record files (those this process applied), and the memo
        pieces this process computed, the manifest entries and the jobs' keys it changed
        in its last update."""
        self._send(("update", paths, pieces, files, deps))

    def jobs(self, layout: Layout | None) -> Iterator[Job]:
        """Send the update's `layout` (None: no job for the replica; every update sends
        one) and claim this process's jobs from its front, one at a time."""
        if layout is None:
            layout = Layout([], [], 0, 0, 0.0)
        self.claims.reset(layout)
        self._send(("jobs", layout))
        return self.claims.front(layout)

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
        cpu = time.process_time()
        status, *rest = pickle.loads(data)
        if status != "ok":
            raise ChildFailed(f"the replica failed:\n{rest[0]}")
        results, (pieces, gzip), dumped = rest
        memo.merge(pieces, gzip)
        self.returned = dumped + time.process_time() - cpu
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
