"""Rendering many pages: page jobs run in a pool of forked processes that inherit the
catalogue, the derived facts and the compiled templates; each renders its pages and
writes them through the build's one writer (`write.OutputWriter`, which refuses a path
written twice when the second write comes), and returns what it wrote (path, SHA-256,
size).
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from typing import Any, Protocol

from ..release import ManifestEntry
from ..write import OutputWriter
from .environment import Renderer

Job = tuple[str, ...]
"""A unit of page work, e.g. ('evaluation', '<id>') or ('home',): small and picklable."""
MakePages = Callable[[Job], Sequence[Any]]
"""Builds the page contexts of a job (each has `.template` and `.path`), or the
`DataFile`s it writes as they are."""


class Tracker(Protocol):
    """Records what a job reads (`rewire serve`'s dependency recorder,
    `incremental.track.Recorder`): `start` before the job is made, `stop` after its
    pages are rendered returns the keys it read."""

    def start(self) -> None: ...

    def stop(self) -> frozenset[Any]: ...


@dataclass(frozen=True)
class DataFile:
    """A file that is not a page (JSON, gzip CSV), written by the pool as it is."""

    path: str
    data: bytes


@dataclass
class RenderStats:
    """What rendering wrote, and where the time went (seconds summed over workers)."""

    files: list[ManifestEntry] = field(default_factory=list)
    """Rendered pages."""
    data_files: list[ManifestEntry] = field(default_factory=list)
    """Files no template made (`DataFile`s)."""
    pages_by_job: dict[str, list[str]] = field(default_factory=dict)
    """Job kind ('record', 'chooser', ...) -> paths of the pages its jobs rendered."""
    deps: dict[Job, frozenset[Any]] = field(default_factory=dict)
    """Job -> the dependency keys it read (only with a `Tracker`)."""
    outputs: dict[Job, tuple[str, ...]] = field(default_factory=dict)
    """Job -> the paths it wrote (only with a `Tracker`)."""
    costs: dict[Job, float] = field(default_factory=dict)
    """Job -> CPU seconds to make and render it (only with a `Tracker`)."""
    context_seconds: float = 0.0
    render_seconds: float = 0.0
    write_seconds: float = 0.0
    workers: int = 1

    def merge(self, other: RenderStats) -> None:
        self.files.extend(other.files)
        self.data_files.extend(other.data_files)
        for kind, paths in other.pages_by_job.items():
            self.pages_by_job.setdefault(kind, []).extend(paths)
        self.deps.update(other.deps)
        self.outputs.update(other.outputs)
        self.costs.update(other.costs)
        self.context_seconds += other.context_seconds
        self.render_seconds += other.render_seconds
        self.write_seconds += other.write_seconds


PARALLEL_MIN_JOBS = 200
"""Fewer jobs than this render in this process (a pool costs more than it saves)."""


def default_workers(jobs: int = PARALLEL_MIN_JOBS) -> int:
    """Render processes for `jobs` jobs: the CPUs this process may use, at most 4; one
    for fewer than `PARALLEL_MIN_JOBS`."""
    if jobs < PARALLEL_MIN_JOBS:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


_STATE: dict[str, Any] = {}
"""Set in the parent before the pool forks: workers inherit it instead of unpickling it."""


def _run(indices: Sequence[int]) -> RenderStats:
    jobs: Sequence[Job] = _STATE["jobs"]
    make: MakePages = _STATE["make"]
    renderer: Renderer = _STATE["renderer"]
    writer: OutputWriter = _STATE["writer"].for_process()
    tracker: Tracker | None = _STATE["tracker"]
    stats = RenderStats()
    # What earlier batches left (caches of markdown and citations) lives until
    # the end: out of the collector's sight, or each full collection walks it again
    # (what the freezes save: see build.build_site).
    gc.collect(1)
    gc.freeze()
    clock = time.process_time  # CPU seconds of this worker: wall time lies on a busy machine
    for index in indices:
        t0 = clock()
        job = jobs[index]
        if tracker is not None:
            tracker.start()
        pages = make(job)
        t1 = clock()
        rendered = [
            (page.path, page.data, stats.data_files)
            if isinstance(page, DataFile)
            else (page.path, renderer.render(page.template, page), stats.files)
            for page in pages
        ]
        t2 = clock()
        if tracker is not None:
            stats.deps[job] = tracker.stop()
            stats.outputs[job] = tuple(path for path, _, _ in rendered)
            stats.costs[job] = t2 - t0
        by = "page job " + " ".join(job)
        paths = stats.pages_by_job.setdefault(job[0], [])
        for path, data, written in rendered:
            written.append(writer.write_bytes(path, data, by))
            if written is stats.files:
                paths.append(path)
        stats.context_seconds += t1 - t0
        stats.render_seconds += t2 - t1
        stats.write_seconds += clock() - t2
    return stats


def _default_sigterm() -> None:
    """In a pool worker: SIGTERM ends it, whatever handler the forking process had.
    `Pool.terminate` (run when the pool's block ends) ends its workers with SIGTERM while
    holding the task queue's lock; a worker that inherited a handler that does not end
    it (a launcher's, a test's) would wait for that lock for ever, and the build with it."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def fork_pool(workers: int) -> Pool:
    """A pool of `workers` forked processes (they inherit this process's memory) that
    SIGTERM ends (`Pool.terminate`), whatever handler this process has."""
    return mp.get_context("fork").Pool(workers, initializer=_default_sigterm)


def render_jobs(
    jobs: Sequence[Job],
    make: MakePages,
    renderer: Renderer,
    writer: OutputWriter,
    workers: int = 1,
    chunk: int | None = None,
    tracker: Tracker | None = None,
) -> RenderStats:
    """Build, render and write the pages of every job through `writer`.

    With `workers` > 1 the jobs run in a pool of forked processes that inherit the
    catalogue, the derived facts and the compiled templates; each writes its own files
    (through its own `writer.for_process()`) and returns their entries, which `writer`
    adopts. The files are the same bytes whatever the split. With a `tracker`, the
    stats also give each job's dependency keys and the paths it wrote (`rewire serve`).
    """
    _STATE.update(jobs=jobs, make=make, renderer=renderer, writer=writer, tracker=tracker)
    if chunk is None:  # about 8 batches per worker, at most 64 jobs each
        chunk = max(1, min(64, -(-len(jobs) // (8 * max(1, workers)))))
    batches = [list(range(i, min(i + chunk, len(jobs)))) for i in range(0, len(jobs), chunk)]
    total = RenderStats()
    try:
        if workers <= 1 or len(batches) <= 1 or "fork" not in mp.get_all_start_methods():
            for batch in batches:
                total.merge(_run(batch))
        else:
            total.workers = workers
            with fork_pool(workers) as pool:
                for stats in pool.imap_unordered(_run, batches):
                    total.merge(stats)
    finally:
        _STATE.clear()
    writer.adopt(total.files)
    writer.adopt(total.data_files)
    total.files.sort(key=lambda f: f.path)
    total.data_files.sort(key=lambda f: f.path)
    return total
