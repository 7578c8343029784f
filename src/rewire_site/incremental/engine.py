"""The incremental preview (`rewire serve`): a full preview build that records what each
page job read (`build`); per edit (`update`) the changed record files re-read
(`gather`), the facts whose inputs changed derived again (`derive`) and the edited
records' own pages remade at once; once edits stop, `settle` remakes every other job
whose recorded keys meet the changed keys, removes the files of jobs gone and writes the
search index, sitemap and release table. It makes them in this process: a pool of two
forked processes made the settle pass slower (bench_incremental's catalogue, 3 rounds,
load 10 on 2 cores, medians: an evaluation edit's settle 8.0 s wall and 3.5 CPU s in a
pool, 3.8 s and 2.8 CPU s here; the workers' files and keys cost 0.5-0.9 CPU s to pass
back). A file is
written only when its bytes differ; a settled site is byte-identical to `rewire build
--preview` of the same records (tests/test_incremental.py).
"""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from .. import write
from ..build import index_files, write_files
from ..build import render as render_all
from ..config import TEMPLATES_DIR
from ..link import Catalogue
from ..models import Dataset, ModelFamily, ResultTable
from ..problems import RecordsInvalid
from ..record_files import ROWS_SUFFIX
from ..render import Renderer, downloads, templates_dir
from ..render.plan import SITEMAP_JOBS, SitePlan
from ..render.pool import DataFile, Job, RenderStats
from ..validate import validate_paths
from ..write import Manifest, remove_files, update_file
from .derive import Derived
from .gather import Records
from .track import Key, Recorder, tracked_plan

Log = Callable[[str], None]
PAGE_JOBS = ("record", "protocol")
"""The kinds of the edited records' own pages, which an update makes at once (every other
dirty job waits for `settle`)."""


@dataclass
class Outcome:
    """What one build, update or settle did."""

    full: bool
    seconds: float
    jobs: int
    written: list[str] = field(default_factory=list)  # files whose bytes changed
    removed: int = 0
    why: str = ""
    done: dict[Job, float] = field(default_factory=dict)  # job -> seconds to its files
    left: int = 0  # jobs left for `settle`, or not made in it because an edit came

    def line(self) -> str:
        what = "full preview build" if self.full else "incremental rebuild"
        why = f" ({self.why})" if self.why else ""
        later = f"; {self.left} site-wide job(s) to follow" if self.left else ""
        return (
            f"{what}{why} in {self.seconds:.2f} s: {self.jobs} job(s) made, "
            f"{len(self.written)} file(s) written, {self.removed} removed{later}"
        )


def _touches_rows(old: Catalogue, new: Catalogue, ids: Iterable[str]) -> bool:
    """True when an edit of `ids` may change the result tables' rows: a result table, or
    a dataset or model family that carries (or carried) source labels. Rows are read by
    a full gather (`validate.check_tables`), not edit by edit."""
    for record_id in ids:
        for record in (old.by_id.get(record_id), new.by_id.get(record_id)):
            if isinstance(record, ResultTable):
                return True
            if isinstance(record, Dataset) and record.labels:
                return True
            if isinstance(record, ModelFamily) and (
                record.labels or any(c.labels for c in record.checkpoints)
            ):
                return True
    return False


class IncrementalSite:
    """A preview site and what each of its files was made from."""

    def __init__(
        self,
        root: Path,
        records_dir: Path,
        site_dir: Path,
        *,
        release_date: date | str | None = None,
        workers: int | None = None,
        log: Log = print,
    ) -> None:
        self.root = root.resolve()
        self.records_dir = records_dir.resolve()
        self.site_dir = site_dir.absolute()
        self.derived = Derived(self.root, release_date)
        self.workers = workers
        self.log = log
        self.records: Records | None = None
        self.plan: SitePlan | None = None
        self.deps: dict[Job, frozenset[Key]] = {}
        self.outputs: dict[Job, tuple[str, ...]] = {}
        self.costs: dict[Job, float] = {}  # CPU seconds of each job, as last made
        self.manifest: Manifest = {}
        self.renderer: Renderer | None = None
        self.pending: set[Path] = set()  # record files of an edit with errors
        self.stale: set[Job] = set()  # dirty jobs left for `settle`
        self.unsettled = False  # True from an update to the end of its `settle`

    def build(self, why: str = "") -> Outcome:
        """A full preview build, recording every job's dependencies."""
        started = time.perf_counter()
        report = validate_paths([self.records_dir], self.root)
        if not report.ok:
            raise RecordsInvalid(report.problems)
        records = Records.from_report(self.root, report)
        derived = Derived(self.root, self.derived.day)
        plan, _ = derived.derive(records.catalogue, None)
        recorder = Recorder()
        tracked = tracked_plan(plan, recorder)
        renderer = Renderer(templates_dir(self.root))
        renderer.warm()
        jobs = plan.jobs()

        def build_into(writer: write.OutputWriter) -> tuple[Manifest, RenderStats]:
            stats = render_all(
                tracked,
                self.root,
                writer,
                self.workers,
                jobs=jobs,
                tracker=recorder,
                renderer=renderer,
            )
            write_files(plan, self.root, writer, stats)
            return {e.path: e for e in writer.entries()}, stats

        manifest, stats = write.atomic_write_site(build_into, self.site_dir)
        self.records, self.derived, self.plan, self.renderer = records, derived, plan, renderer
        self.deps, self.manifest = stats.deps, manifest
        self.outputs = {j: tuple(map(_key, paths)) for j, paths in stats.outputs.items()}
        self.costs = stats.costs
        self.pending.clear()
        self.stale.clear()
        self.unsettled = False
        gc.collect()  # once per full build: what a build left behind, then
        gc.freeze()  # the rest out of the collector's sight (see `settle`)
        return Outcome(True, time.perf_counter() - started, len(jobs), sorted(manifest), why=why)

    def update(self, changed: Iterable[str | Path]) -> Outcome:
        """Apply the changed files: records incrementally; anything else (templates,
        static files), a first build or an unexpected error: a full build."""
        paths = {Path(p).parent.resolve() / Path(p).name for p in changed}
        if self.records is None:
            return self.build("no previous build")
        templates = self.root / TEMPLATES_DIR
        if any(p.is_relative_to(templates) for p in paths):
            return self.build("templates changed")
        if any(p.suffix == ROWS_SUFFIX and p.is_relative_to(self.records_dir) for p in paths):
            return self.build("a result table's rows changed")
        records = {p for p in paths if p.suffix == ".yaml" and p.is_relative_to(self.records_dir)}
        if not records and not self.pending:
            return Outcome(False, 0.0, 0)
        try:
            return self._update(records | self.pending)
        except RecordsInvalid:
            self.pending |= records
            raise
        except Exception as error:
            self.log(f"incremental rebuild failed ({type(error).__name__}: {error}); full build")
            return self.build(f"after {type(error).__name__}")

    def _update(self, paths: set[Path]) -> Outcome:
        started = time.perf_counter()
        assert self.records is not None and self.plan is not None
        before = self.records.catalogue
        change = self.records.apply(paths)
        self.pending.clear()
        if _touches_rows(before, self.records.catalogue, change.ids):
            return self.build("a result table or a label its rows map through changed")
        plan, keys = self.derived.derive(self.records.catalogue, change.keys)
        self.plan = plan
        dirty = {j for j in plan.jobs() if j not in self.deps or not self.deps[j].isdisjoint(keys)}
        now = sorted(j for j in dirty if j[0] in PAGE_JOBS and j[1] in change.ids)
        self.stale |= dirty - set(now)
        self.unsettled = True
        outcome = self._make_all(now, started)
        outcome.left = len(self.stale)
        return outcome

    def settle(self, stop: Callable[[], bool] = lambda: False) -> Outcome:
        """Remake the jobs updates left, remove the files of jobs gone, then write the
        search index, the sitemap and the release table: the site a full build makes.
        `stop()` is asked before each job: True leaves the rest for the next call."""
        started = time.perf_counter()
        assert self.plan is not None
        plan = self.plan
        alive = plan.jobs()
        outcome = self._make_all(sorted(self.stale.intersection(alive)), started, stop)
        if outcome.left:
            return outcome
        self.stale.clear()
        gone = self.deps.keys() - set(alive)
        old = {p for j in gone for p in self.outputs.pop(j, ())}
        for job in gone:
            self.deps.pop(job)
            self.costs.pop(job, None)
        kept = {p for paths in self.outputs.values() for p in paths}
        outcome.removed = remove_files(self.site_dir, self.manifest, old - kept)
        listed = [p for job, paths in self.outputs.items() if job[0] in SITEMAP_JOBS for p in paths]
        self._write(index_files(plan, listed), outcome.written)
        self._write(downloads.release_file(plan.release, self.manifest.values()), outcome.written)
        self.unsettled = False
        # The records, facts and dependencies kept between edits: out of the cyclic
        # collector's sight, so that no edit pays a full collection over them (one took
        # 2.2 of a configuration edit's 3.0 CPU s at 10,000 evaluations; figures in
        # bench_incremental.py). Refcounting still frees what an edit replaces.
        gc.freeze()
        outcome.seconds = time.perf_counter() - started
        return outcome

    def _make_all(
        self, jobs: list[Job], started: float, stop: Callable[[], bool] = lambda: False
    ) -> Outcome:
        """Make, render and write `jobs`, recording each one's keys; a path a job no longer
        writes is removed when no other job writes it. `stop()` is asked before each job:
        True leaves the rest (`Outcome.left`)."""
        plan, renderer = self.plan, self.renderer
        assert plan is not None and renderer is not None
        recorder = Recorder()
        tracked = tracked_plan(plan, recorder)
        outcome = Outcome(False, 0.0, 0)

        def make(job: Job) -> dict[str, bytes]:
            return {
                p.path: p.data if isinstance(p, DataFile) else renderer.render(p.template, p)
                for p in tracked.make(job)
            }

        for count, job in enumerate(jobs):
            if stop():
                outcome.left = len(jobs) - count
                break
            cpu = time.process_time()
            files, self.deps[job] = recorder.run(functools.partial(make, job))
            self.costs[job] = time.process_time() - cpu
            self.stale.discard(job)
            before = set(self.outputs.get(job, ()))
            self.outputs[job] = tuple(_key(path) for path in files)
            self._write(files, outcome.written)
            dropped = before - set(self.outputs[job])
            if dropped:
                kept = {p for paths in self.outputs.values() for p in paths}
                outcome.removed += remove_files(self.site_dir, self.manifest, dropped - kept)
            outcome.jobs += 1
            outcome.done[job] = time.perf_counter() - started
        outcome.seconds = time.perf_counter() - started
        return outcome

    def _write(self, files: dict[str, bytes], written: list[str]) -> None:
        for path, data in files.items():
            if update_file(self.site_dir, self.manifest, _key(path), data):
                written.append(_key(path))


def _key(path: str) -> str:
    """The manifest's key of a site path."""
    return write.OutputWriter.normalise(path)
