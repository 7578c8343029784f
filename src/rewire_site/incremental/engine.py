"""The incremental preview (`rewire serve`): one full preview build that records what
each page job read, then, on each edit, only the jobs whose inputs changed.

`IncrementalSite.build()` gathers, derives (`derive.Derived`, tracked) and renders every
job in the render pool with a `track.Recorder`, through the builder's atomic swap, and
keeps each job's dependency keys, the paths it wrote and the manifest of every file.
`IncrementalSite.update(paths)`:

1. gather: re-read the changed record files (`gather.Records.apply`); an edit with
   errors raises `RecordsInvalid` and leaves the site and this state as they were;
2. derive: recompute the derived facts whose recorded inputs changed;
3. render: the dirty jobs (new jobs, and jobs whose keys meet the changed keys), made
   and rendered, the edited records' own pages first; when they cost enough, a forked
   replica claims jobs from the other end of the list (`parallel.py`) and writes their
   files itself; a file is written (atomically) only when its SHA-256 differs from the
   manifest's; files of jobs that no longer exist, or that a job no longer writes, are
   removed;
4. write: the search index, the sitemap and the release table when they change.

The result is byte-identical to `rewire build --preview` of the same records (tested:
tests/test_incremental.py). A template or static file change, or an unexpected error in
the incremental path, rebuilds everything (`build`), and says so.
"""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from .. import write
from ..build import KeptIndex, index_files, write_files
from ..build import render as render_all
from ..config import TEMPLATES_DIR
from ..export.sitemap import KeptSitemap
from ..problems import RecordsInvalid
from ..release import ManifestEntry
from ..render import Renderer, downloads, templates_dir
from ..render.plan import LISTING_PAGES, SitePlan
from ..render.pool import DataFile, Job, RenderStats
from ..render.search import KeptSearchIndex
from ..validate import validate_paths
from .derive import Derived
from .gather import Records
from .memo import Memo
from .output import Manifest, remove_files, update_file
from .parallel import (
    CAN_FORK,
    FORK_SECONDS,
    PARALLEL_MIN_SECONDS,
    REPLICA_MIN_SECONDS,
    Deps,
    Files,
    Pieces,
    Replica,
    lay_out,
)
from .track import MEMO_DATA, Key, Recorder, tracked_plan

Log = Callable[[str], None]
Built = tuple[Manifest, RenderStats]
"""What a full build keeps: the manifest and the render stats (each job's keys, paths and
cost)."""


@dataclass
class Outcome:
    """What one build or update did."""

    full: bool
    """True for a full build."""
    seconds: float
    jobs: int
    """Page jobs made."""
    written: list[str] = field(default_factory=list)
    """Files written (for an update: only those whose bytes changed)."""
    removed: int = 0
    changed_keys: int = 0
    derived: int = 0
    """Derived items recomputed."""
    why: str = ""
    stages: list[tuple[str, float]] = field(default_factory=list)
    """(stage, seconds after the update began when it ended): gather, derive, plan, own
    jobs (this process's made and written), the replica's results (received) and files
    (written), when there is a replica."""
    done: dict[Job, float] = field(default_factory=dict)
    """Job -> seconds after the update began when its files were written (cheapest
    jobs first)."""

    def line(self) -> str:
        what = "full preview build" if self.full else "incremental rebuild"
        why = f" ({self.why})" if self.why else ""
        return (
            f"{what}{why} in {self.seconds:.2f} s: {self.jobs} job(s) made, "
            f"{len(self.written)} file(s) written, {self.removed} removed"
        )


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
        self.release_date = release_date
        self.workers = workers
        self.log = log
        self.records: Records | None = None
        self.derived = Derived(self.root, release_date)
        self.plan: SitePlan | None = None
        self.deps: dict[Job, frozenset[Key]] = {}
        self.outputs: dict[Job, tuple[str, ...]] = {}
        self.costs: dict[Job, float] = {}
        """CPU seconds each job took last time: an update makes the cheap jobs first, so
        the edited record's own pages are served before the site-wide files."""
        self.manifest: Manifest = {}
        self.renderer: Renderer | None = None
        self.pending: set[Path] = set()
        """Record files changed by edits not yet applied (an edit with errors)."""
        self.memo = Memo()
        """Per-item pieces of the site-wide files (`memo.py`), kept between edits."""
        self.lines = downloads.ReleaseLines()
        """The release table's lines, kept between edits (every file's path, SHA-256 and
        size)."""
        self.parallel_min = PARALLEL_MIN_SECONDS
        """An update whose dirty jobs cost at least this (CPU seconds, as last made)
        shares them with the replica (`parallel.lay_out`)."""
        self.fork_cost = FORK_SECONDS
        """The replica's overhead per update (`parallel.lay_out`): tests set it and
        `parallel_min` to 0 so that every update gives the replica a job."""
        self.forked = 0
        """Jobs the last update's replica made."""
        self.tail = 0.0
        """CPU seconds the last update spent here after its own jobs (the replica's
        results taken, removals, the search index, the sitemap, the release table):
        counted with the jobs against `parallel_min` (`parallel.lay_out`)."""
        self.rendered: dict[str, tuple[object, bytes]] = {}
        """The pages of the jobs in `REUSED` by path: the page context last rendered there
        and its bytes. A context the memo kept is the same object: not rendered again."""
        self.added_pages: list[str] | None = None
        """In the replica: the paths rendered into `rendered` by the jobs it is making."""
        self.replica: Replica | None = None
        """The forked copy of this state that makes part of each update's jobs
        (`parallel.py`), started at the first update of a large enough site."""
        self.unsent: Pieces = ([], {})
        """The memo pieces this process computed in its last update: the replica gets them
        with the next update, so both memos hold the same pieces."""
        self.unsent_files: Files = {}
        """The manifest entries this process changed in its last update (None: removed),
        for the replica's copy of the manifest, with the next update."""
        self.unsent_deps: Deps = {}
        """The jobs whose keys this process changed in its last update (None: gone), for
        the replica's copy of `deps`: it sends back a job's keys only when they differ
        from that copy's."""
        self.indexed: dict[str, bytes] = {}
        """The search index and sitemap (`build.index_files`) of the last update, and in
        `indexed_from` what they were made from: the plan's search entries (derive keeps
        the same object while no entry changes; they hold every record page's path), the
        release id and the chooser pages written."""
        self.indexed_from: tuple[object, str, list[str]] = (None, "", [])
        self.kept_index: KeptIndex = (KeptSearchIndex(), KeptSitemap())
        """Each search entry's and each sitemap page's text, kept between edits."""

    # ------------------------------------------------------------ full build

    def build(self, why: str = "") -> Outcome:
        """A full preview build, recording every job's dependencies."""
        started = time.perf_counter()
        self.stop_replica()
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

        def build_into(writer: write.OutputWriter) -> Built:
            stats = render_all(
                tracked, self.root, writer, self.workers, jobs=jobs, tracker=recorder,
                renderer=renderer,
            )  # fmt: skip
            write_files(plan, self.root, writer, stats)
            return {e.path: e for e in writer.entries()}, stats

        manifest, stats = write.atomic_write_site(build_into, self.site_dir)
        self.records, self.derived, self.plan = records, derived, plan
        self.deps, self.outputs, self.manifest = stats.deps, stats.outputs, manifest
        self.costs = stats.costs
        self.renderer = renderer
        self.pending.clear()
        self.memo = Memo()
        self.rendered = {}
        self.indexed, self.indexed_from = {}, (None, "", [])
        self.kept_index = (KeptSearchIndex(), KeptSitemap())
        self._warm(plan)
        return Outcome(True, time.perf_counter() - started, len(jobs), sorted(manifest), why=why)

    def _warm(self, plan: SitePlan) -> None:
        """Fill the memo: the site-wide data jobs, the chooser, the filter pages and the
        pages that list evaluations (`LISTING_PAGES`: family, dataset, question) made
        once more here (the build made them in the render pool, whose processes keep
        nothing), so the first edit only recomputes its own pieces, then once again to
        measure what they cost with every piece kept. Their files were written already."""
        recorder = Recorder()
        tracked = tracked_plan(plan, recorder, self.memo)
        kept: list[Job] = [("data", name) for name in sorted(MEMO_DATA)] + [("chooser",)]
        listing = {r.id for r in plan.catalogue.by_id.values() if type(r) in LISTING_PAGES}
        kept += [  # rows and their HTML
            job
            for job in plan.jobs()
            if job[0] == "filter" or (job[0] == "record" and job[1] in listing)
        ]
        for job in kept:
            self._make(job, tracked, recorder)
        # made again, every piece kept: what these jobs cost in an update (the build's
        # figure, every piece computed, would mislead `parallel.lay_out`)
        for job in kept:
            self.costs[job] = self._make(job, tracked, recorder)[3]
        assert self.renderer is not None
        self.lines.file(plan.release, self.manifest)
        for name in self.renderer.env.list_templates(extensions=["html"]):
            self.renderer.env.get_template(name)  # the partials too: the pool compiled them
        # what stays (the catalogue, the plan, the memo) out of the collector's sight:
        # otherwise a full collection during an update walks all of it (a second or more)
        gc.unfreeze()
        gc.collect()
        gc.freeze()

    # ------------------------------------------------------------ an edit

    def update(self, changed: Iterable[str | Path]) -> Outcome:
        """Apply the changed files: records incrementally; anything else (templates,
        static files), a first build or an unexpected error: a full build."""
        paths = {Path(p).parent.resolve() / Path(p).name for p in changed}
        templates = self.root / TEMPLATES_DIR
        other = [p for p in paths if not p.is_relative_to(self.records_dir)]
        if self.records is None:
            return self.build("no previous build")
        if any(p.is_relative_to(templates) for p in other):
            return self.build("templates changed")
        records = {p for p in paths if p.suffix == ".yaml" and p.is_relative_to(self.records_dir)}
        if not records and not self.pending:
            return Outcome(False, 0.0, 0)
        try:
            return self._update(records)
        except RecordsInvalid:
            self.pending |= records
            raise
        except Exception as error:
            self.log(f"incremental rebuild failed ({type(error).__name__}: {error}); full build")
            return self.build(f"after {type(error).__name__}")

    def _update(self, paths: set[Path]) -> Outcome:
        gc.disable()  # an update makes few cycles; a full collection costs more than it
        try:
            return self._apply(paths)
        finally:
            gc.enable()

    def _apply(self, paths: set[Path]) -> Outcome:
        started = time.perf_counter()
        assert self.records is not None and self.plan is not None and self.renderer is not None
        records = self.records
        if self.replica is None and self._wants_replica():
            self.replica = Replica.start(self)  # a copy of the state before this update
            weakref.finalize(self, self.replica.stop)
            self.unsent, self.unsent_files, self.unsent_deps = ([], {}), {}, {}
        applied = paths | self.pending
        change = records.apply(applied)
        self.pending.clear()
        if self.replica is not None:  # it applies the same files while this process derives
            self.replica.update(applied, self.unsent, self.unsent_files, self.unsent_deps)
            self.unsent, self.unsent_files, self.unsent_deps = ([], {}), {}, {}
        stages = [("gather", time.perf_counter() - started)]
        plan, keys = self.derived.derive(records.catalogue, change.keys, change.ids)
        keys |= self.memo.invalidate(keys)  # a job that used a dropped piece is remade
        stages.append(("derive", time.perf_counter() - started))
        jobs = plan.jobs()
        dirty = [j for j in jobs if j not in self.deps or not self.deps[j].isdisjoint(keys)]
        alive = set(jobs)
        gone = [j for j in self.deps if j not in alive]
        stages.append(("plan", time.perf_counter() - started))
        # the edited records' own pages first, then the cheapest: the page an editor
        # looks at is served before the site-wide files (downloads, chooser, home)
        dirty.sort(key=lambda j: (not _owned(j, change.ids), self.costs.get(j, 0.0)))
        self.memo.hits = self.memo.misses = 0
        self.memo.begin()  # what this process computes goes to the replica next update
        recorder = Recorder()
        tracked = tracked_plan(plan, recorder, self.memo)
        produced: set[str] = set()
        stale: set[str] = set()
        written: list[str] = []
        done: dict[Job, float] = {}

        def took(result: Wrote) -> None:  # a job made and written, here or by the replica
            job, files, keys, cost = result
            if keys is not None:  # None: as they were (`_write`)
                self.deps[job] = keys
            self.costs[job] = cost
            stale.update(self.outputs.get(job, ()))
            self.outputs[job] = tuple(path for path, _, _, _ in files)
            for _, key, entry, changed in files:
                if key in produced:
                    raise write.DoubleWrite(key, "another page job", "page job " + " ".join(job))
                produced.add(key)
                self.manifest[key] = entry
                if changed:
                    written.append(key)
            done[job] = time.perf_counter() - started

        layout = None if self.replica is None else lay_out(
            dirty, self.costs, lambda j: _owned(j, change.ids), self.parallel_min, self.tail,
            self.fork_cost, self.replica.returned,
        )  # fmt: skip
        mine: Iterable[Job] = dirty
        if self.replica is not None:  # this process and the replica claim the jobs
            claimed = self.replica.jobs(layout)
            mine = dirty if layout is None else claimed
        for job in mine:
            result = self._write(self._make(job, tracked, recorder))
            if self.replica is not None and result[2] is not None:
                self.unsent_deps[result[0]] = result[2]  # for the replica's copy of `deps`
            took(result)
        stages.append(("own jobs", time.perf_counter() - started))
        tail = time.process_time()
        results: list[Wrote] = []
        if self.replica is not None:
            results, rendered = self.replica.results(self.memo)
            stages.append(("replica's results", time.perf_counter() - started))
            self.rendered.update(rendered)
            for made in results:
                took(made)
            stages.append(("replica's files", time.perf_counter() - started))
        self.unsent = self.memo.since()
        self.forked = len(results)
        for job in gone:
            stale.update(self.outputs.pop(job, ()))
            self.deps.pop(job, None)
            if self.replica is not None:
                self.unsent_deps[job] = None
            self.costs.pop(job, None)
        removing = stale - produced
        removed = remove_files(self.site_dir, self.manifest, removing)
        chooser = [*self.outputs.get(("chooser",), ()), *self.outputs.get(("fits",), ())]
        entries, release_id, pages = self.indexed_from
        if plan.entries is not entries or (plan.release.id, chooser) != (release_id, pages):
            self.indexed = index_files(plan, chooser, self.kept_index)
            self.indexed_from = (plan.entries, plan.release.id, chooser)
        for path, data in self.indexed.items():
            if update_file(self.site_dir, self.manifest, path, data):
                written.append(path)
        for path, data in self.lines.file(plan.release, self.manifest).items():
            if update_file(self.site_dir, self.manifest, path, data):
                written.append(path)
        self.plan = plan
        if self.replica is not None:  # what the replica's copy of the manifest lacks
            self.unsent_files = {p: self.manifest.get(p) for p in (*written, *removing)}
        self.tail = time.process_time() - tail
        return Outcome(
            False,
            time.perf_counter() - started,
            len(dirty),
            written,
            removed,
            len(keys),
            self.derived.recomputed,
            done=done,
            stages=stages,
        )

    def _make(self, job: Job, tracked: SitePlan, recorder: Recorder) -> Made:
        """One job made and rendered: (job, [(path, bytes)], keys read, CPU seconds)."""
        recorder.start()
        cpu = time.process_time()
        try:
            pages = tracked.make(job)
            made = [
                (p.path, p.data) if isinstance(p, DataFile) else (p.path, self._render(job, p))
                for p in pages
            ]
        finally:
            keys = recorder.stop()
        return job, made, keys, time.process_time() - cpu

    # ------------------------------------------------------------ the replica

    def _wants_replica(self) -> bool:
        """A second process pays for itself on a large site (or when tests force it)."""
        return CAN_FORK and (
            self.parallel_min <= 0 or sum(self.costs.values()) >= REPLICA_MIN_SECONDS
        )

    def stop_replica(self) -> None:
        if self.replica is not None:
            self.replica.stop()
            self.replica = None

    def follow(self, paths: set[Path], pieces: Pieces, files: Files, deps: Deps) -> None:
        """In the replica: the memo pieces the parent computed, and the manifest entries
        and jobs' keys it changed, in its last update, then this update's record files,
        applied and derived as the parent did."""
        assert self.records is not None
        self.memo.merge(*pieces)
        for job, keys in deps.items():
            if keys is None:
                self.deps.pop(job, None)
            else:
                self.deps[job] = keys
        for path, entry in files.items():
            if entry is None:
                self.manifest.pop(path, None)
            else:
                self.manifest[path] = entry
        change = self.records.apply(paths)
        plan, keys = self.derived.derive(self.records.catalogue, change.keys, change.ids)
        self.memo.invalidate(keys)
        self.plan = plan

    def make_jobs(self, jobs: Iterable[Job]) -> tuple[Any, Pieces]:
        """In the replica: the jobs made and written (claimed as they are taken), the
        pages it rendered for `rendered` (sent back in one pickle with the memo's new
        pieces, so a page kept by the memo and its entry there stay one object), and
        those pieces."""
        assert self.plan is not None
        recorder = Recorder()
        tracked = tracked_plan(self.plan, recorder, self.memo)
        self.memo.begin()
        self.added_pages = []
        try:
            results = [self._write(self._make(job, tracked, recorder)) for job in jobs]
            rendered = {path: self.rendered[path] for path in self.added_pages}
            return (results, rendered), self.memo.since()
        finally:
            self.added_pages = None

    def _write(self, made: Made) -> Wrote:
        """A job's files written (atomically, those whose bytes differ from the
        manifest's), and its keys: None when `deps` holds them already, else kept there.
        The replica writes its jobs' files itself, so no page's bytes go back through the
        pipe, nor keys the parent holds."""
        job, files, keys, cost = made
        wrote = []
        for path, data in files:
            key = write.OutputWriter.normalise(path)
            changed = update_file(self.site_dir, self.manifest, key, data)
            wrote.append((path, key, self.manifest[key], changed))
        if keys == self.deps.get(job):  # the parent holds them: not sent again
            return job, wrote, None, cost
        self.deps[job] = keys
        return job, wrote, keys, cost

    def _render(self, job: Job, page: Any) -> bytes:
        """The page's bytes; for the jobs in `REUSED`, the last bytes at its path when the
        context is the very object rendered there last time (kept by the memo: frozen)."""
        assert self.renderer is not None
        if job not in REUSED:
            return self.renderer.render(page.template, page)
        last = self.rendered.get(page.path)
        if last is not None and last[0] is page:
            return last[1]
        data = self.renderer.render(page.template, page)
        self.rendered[page.path] = (page, data)
        if self.added_pages is not None:
            self.added_pages.append(page.path)
        return data


Made = tuple[Job, list[tuple[str, bytes]], frozenset[Key], float]
"""A job made: (job, [(path, bytes)], the keys it read, CPU seconds)."""
Wrote = tuple[Job, list[tuple[str, str, ManifestEntry, bool]], frozenset[Key] | None, float]
"""A job made and written (`_write`): (job, [(path, site key, manifest entry, whether its
bytes changed)], the keys it read (None: the same as when it was last made), CPU
seconds)."""

REUSED: frozenset[Job] = frozenset({("chooser",)})
"""Jobs whose page contexts come from the memo (`chooser.pages`: task and family pages)."""


def _owned(job: Job, ids: frozenset[str]) -> bool:
    """True for the page job of one of `ids` (its record or protocol page)."""
    return job[0] in ("record", "protocol") and job[1] in ids
