"""`rewire build`: records in, static site out, in four named stages (each timed;
`BuildReport.stages` lists them):

1. gather   read and validate every record file (`validate.validate_paths`) and resolve
            ids into one graph (`link.Catalogue`): `gather`;
2. derive   facts computed once for the whole build: release id, concern flags, filter
            facets, artifact hashes, the search index, the page jobs
            (`render.derive_stage.plan_site`);
3. render   page contexts rendered with templates compiled once, in a pool of forked
            processes (`render.pool`); the same pool writes the gzip CSVs and the JSON
            API (one file per record), which need no template: `render`;
4. write    static assets, the search index, the release table (every output's
            SHA-256), then the swap: the staging folder replaces the site
            (`write.atomic_write_site`) under a lock on the folder that holds the site
            (a second build waits), and only when the site folder is one the builder
            made (it holds `.rewire-site`) or an empty one: `write_files`. The previous
            site, renamed aside, is removed afterwards in a background thread
            (`BuildReport.removal`), outside the timed stages: `build_site(wait=True)`,
            the default, joins it before returning.

Every output file, pages from the render workers included, goes through one writer
(`write.OutputWriter`) into a staging folder beside the site; it refuses a path written
twice when the second write comes. Everything the pages need is gathered before the
first byte is written: a build that fails at any stage leaves the previous site as it
was. A record file that changes while the build runs (between the gather and the swap)
fails the build (`RecordsChanged`): the site is never a mix of two versions. Same records
in, same bytes out: no clock is read except the release date.
"""

from __future__ import annotations

import errno
import gc
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from . import record_files, write
from .config import RECORDS_DIR, SITE_DIR
from .link import Catalogue
from .problems import Problem, RecordsInvalid, printable
from .render import Renderer, RenderStats, downloads, render_jobs, templates_dir
from .render.derive_stage import plan_site
from .render.export import SITEMAP, sitemap_file
from .render.plan import SITEMAP_JOBS, SitePlan
from .render.pool import PARALLEL_MIN_JOBS, Job, Tracker, default_workers
from .render.search import search_index_json
from .validate import validate_paths

STAGES = ("gather", "derive", "render", "write")


class RecordsChanged(Exception):
    """A record file changed, appeared or vanished while the build was running."""


class BuildRefused(ValueError):
    """The build would replace the site with nothing, or read or write where it must
    not: records outside the project, no records at all (without `allow_empty`), or a
    site folder inside the records folder. Raised before anything is written."""


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_places(root: Path, folder: Path, site_dir: Path) -> None:
    """Refuse (`BuildRefused`) records that lie outside the project (`--records /etc`,
    or a `records/` that is a link out of it) and a site folder inside the records."""
    real_root, real_folder = root.resolve(), folder.resolve()
    if not _inside(real_folder, real_root):
        raise BuildRefused(
            f"the records folder {folder} leads outside the project {root}: a site is built "
            "only from records inside its project"
        )
    real_site = site_dir.resolve()
    if _inside(real_site, real_folder):
        raise BuildRefused(
            f"the site folder {site_dir} is inside the records folder {folder}: choose an "
            "--out outside it"
        )


def check_not_empty(gathered: Gathered, folder: Path, allow_empty: bool) -> None:
    """Refuse (`BuildRefused`) a build from zero records, unless `allow_empty`: it would
    replace the site with an empty one."""
    if not gathered.catalogue.by_id and not allow_empty:
        raise BuildRefused(
            f"no records under {folder}: building would replace the site with an empty "
            "one; pass --allow-empty to build it anyway"
        )


FileState = dict[Path, tuple[int, int, int, int]]


def record_state(folder: Path, root: Path | None = None) -> FileState:
    """(inode, size, mtime ns, ctime ns) of every record file and result table rows file
    under `folder`."""
    state: FileState = {}
    found = record_files.find([folder], root)
    for path in map(Path, [*found.names, *found.tables]):
        try:
            stat = path.stat()
        except FileNotFoundError:
            continue
        state[path] = (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    return state


def check_unchanged(folder: Path, before: FileState, root: Path | None = None) -> None:
    """Raise `RecordsChanged` when a record file under `folder` differs from `before`."""
    after = record_state(folder, root)
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    if changed:
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        names = ", ".join(str(p) for p in changed[:3])
        raise RecordsChanged(
            f"record files changed while the build read them: {names}{more}; build again "
            "once they are saved"
        )


@dataclass
class BuildReport:
    """What a build did, and how long each stage took."""

    site_dir: Path
    release_id: str
    records: int
    pages: int
    """HTML pages rendered."""
    files: int
    """Every file in the site (pages, downloads, JSON, static)."""
    stages: list[tuple[str, float]] = field(default_factory=list)
    """(stage, wall seconds), in order."""
    render: RenderStats = field(default_factory=RenderStats)
    warnings: list[Problem] = field(default_factory=list)
    cpu_seconds: float = 0.0
    """CPU time of the build and its workers (user + system): on a busy machine the
    wall-clock figures grow, this one does not."""
    removal: write.Removal = field(default_factory=lambda: write.Removal(None))
    """Removal of the previous site (after the swap, not in `stages`)."""

    @property
    def removal_seconds(self) -> float:
        """Seconds the previous site took to remove: waits for the removal to end."""
        return self.removal.wait()

    @property
    def seconds(self) -> float:
        return sum(s for _, s in self.stages)

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    def lines(self) -> list[str]:
        """Human-readable summary: one line per stage, then the totals."""
        out = [f"{name:<8} {seconds:8.3f} s" for name, seconds in self.stages]
        r = self.render
        out.append(
            f"render detail (CPU seconds summed over {r.workers} worker(s)): contexts "
            f"{r.context_seconds:.3f}, templates {r.render_seconds:.3f}, "
            f"writes {r.write_seconds:.3f}"
        )
        out.append(f"CPU time {self.cpu_seconds:.2f} s (build process and render workers)")
        out.append(
            f"built {self.pages} pages ({self.files} files) from {self.records} records in "
            f"{self.seconds:.2f} s ({self.pages_per_second:.0f} pages/s); release "
            f"{self.release_id} -> {self.site_dir}"
        )
        return out


class _Timer:
    def __init__(self) -> None:
        self.stages: list[tuple[str, float]] = []
        self._open: tuple[str, float] | None = None

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        self.start(name)
        try:
            yield
        finally:
            self.stop()

    def start(self, name: str) -> None:
        self._open = (name, time.perf_counter())

    def stop(self) -> None:
        if self._open is not None:
            name, started = self._open
            self.stages.append((name, time.perf_counter() - started))
            self._open = None


@dataclass(frozen=True)
class Gathered:
    """The records of a build, validated and linked."""

    catalogue: Catalogue
    warnings: list[Problem]
    state: FileState
    """Each record file's state when read (`check_unchanged` compares it at the end)."""


def gather(folder: Path, root: Path) -> Gathered:
    """Load, validate and link the records under `folder` (artifact paths relative to
    `root`); `RecordsInvalid` with every problem when any record has errors."""
    state = record_state(folder, root)
    report = validate_paths([folder], root)
    if not report.ok:
        raise RecordsInvalid(report.problems)
    catalogue = Catalogue.from_records(report.records.values(), report.result_rows)
    return Gathered(catalogue, report.warnings, state)


def render(
    plan: SitePlan,
    root: Path,
    writer: write.OutputWriter,
    workers: int | None,
    *,
    jobs: list[Job] | None = None,
    tracker: Tracker | None = None,
    renderer: Renderer | None = None,
) -> RenderStats:
    """Every page job of `plan` (or `jobs`), rendered with the templates of the project
    at `root` (or `renderer`) and written through `writer`, by `workers` processes
    (default: `default_workers`). `tracker`: record each job's dependencies (serve)."""
    jobs = plan.jobs() if jobs is None else jobs
    if renderer is None:
        renderer = Renderer(templates_dir(root))
        renderer.warm()
    count = 1 if len(jobs) < PARALLEL_MIN_JOBS else workers or default_workers()
    return render_jobs(jobs, plan.make, renderer, writer, count, tracker=tracker)


def index_files(plan: SitePlan, chooser: list[str]) -> dict[str, bytes]:
    """The search index and the sitemap (which lists the `chooser` and fits pages
    written), by site path: made after every page job, by the build and by serve."""
    return {
        "search/index.json": search_index_json(plan.entries),
        SITEMAP: sitemap_file(plan.catalogue, plan.release.id, chooser),
    }


def write_files(plan: SitePlan, root: Path, writer: write.OutputWriter, stats: RenderStats) -> int:
    """The files no page job makes: static assets, the search index, the sitemap (from
    the chooser pages `stats` says were rendered) and last the release table of every
    other file. Returns the number of files in the site."""
    static = templates_dir(root) / "static"
    for file in sorted(static.rglob("*")):
        if file.is_file():
            writer.copy_file("static/" + file.relative_to(static).as_posix(), file, "static files")
    chooser = [path for kind in SITEMAP_JOBS for path in stats.pages_by_job.get(kind, [])]
    for path, data in index_files(plan, chooser).items():
        writer.write_bytes(path, data, "the search index and sitemap")
    for path, data in downloads.release_file(plan.release, writer.entries()).items():
        writer.write_bytes(path, data, "the release table")
    return len(writer.entries()) + 1  # + 1: the marker that says the builder made the folder


def _paths(root: Path, out_dir: Path | None, records_dir: Path | None) -> tuple[Path, Path, Path]:
    """(project root, records folder, site folder), absolute."""
    root = root.resolve()
    if records_dir is not None:
        records_dir = records_dir.resolve()
        if records_dir.name == RECORDS_DIR and records_dir.parent != root:
            root = records_dir.parent  # artifact paths are relative to that project
    return root, records_dir or root / RECORDS_DIR, (out_dir or root / SITE_DIR).resolve()


def build_site(
    root: Path,
    out_dir: Path | None = None,
    *,
    release_date: date | str | None = None,
    records_dir: Path | None = None,
    workers: int | None = None,
    wait: bool = True,
    on_wait: Callable[[str], None] | None = None,
    preview: bool = False,
    allow_empty: bool = False,
) -> BuildReport:
    """Build the site of the records under `root` (or `records_dir`) into `out_dir`
    (default `root/site`): gather, derive, render, write. Raises `RecordsInvalid` when
    the records have errors, `write.TargetRefused` when `out_dir` is not the builder's
    to replace and `RecordsChanged` when a record file changes during the build; the
    site is then unchanged. The previous site is removed in a background thread;
    `wait=False` returns without waiting for it (`report.removal.wait()` does).
    `on_wait` hears why the build waits for another build into the same folder.
    `preview`: a preview of unreleased records (`release.preview_release`: the date and
    a preview marker instead of the content hash), the site `rewire serve` shows.
    `BuildRefused`, before anything is written, for records outside the project, a site
    folder inside the records, or no records at all (unless `allow_empty`)."""
    root, folder, site_dir = _paths(root, out_dir, records_dir)
    check_places(root, folder, site_dir)
    timer, started = _Timer(), os.times()
    with timer.stage("gather"):
        gathered = gather(folder, root)
        check_not_empty(gathered, folder, allow_empty)
        # The records live until the end: out of the collector's sight. Pays, with the
        # derive freeze below, the render workers' (render/pool.py) and validate's
        # gc.disable: a cold build of the 10,000-evaluation synthetic catalogue took
        # 43.5 / 45.0 CPU s, 53.7 / 51.3 with gc.freeze, unfreeze and disable made
        # no-ops (two alternating runs each, load 9-11, 2026-12-02).
        gc.collect()
        gc.freeze()
    with timer.stage("derive"):
        plan = plan_site(gathered.catalogue, root, release_date, preview=preview)
        gc.freeze()  # the derived facts too
    stats, removal = RenderStats(), write.Removal(None)

    def build_into(writer: write.OutputWriter) -> int:
        nonlocal stats
        with timer.stage("render"):
            stats = render(plan, root, writer, workers)
        timer.start("write")
        files = write_files(plan, root, writer, stats)
        check_unchanged(folder, gathered.state, root)
        return files

    def swapped(old: Path | None) -> None:
        nonlocal removal
        timer.stop()  # the write stage ends with the swap
        removal = write.Removal(old)  # the previous site, removed in a background thread

    try:
        files = write.atomic_write_site(build_into, site_dir, swapped, on_wait)
    finally:
        gc.unfreeze()
    cpu = sum(os.times()[:4]) - sum(started[:4])
    if wait:
        removal.wait()
    return BuildReport(
        site_dir, plan.release.id, len(gathered.catalogue.by_id), len(stats.files), files,
        timer.stages, stats, gathered.warnings, cpu, removal,
    )  # fmt: skip


def build_command(
    root: Path | None,
    records: Path | None,
    out: Path | None,
    release_date: str | None,
    workers: int | None,
    preview: bool = False,
    allow_empty: bool = False,
) -> int:
    """`rewire build`: print the stage timings, or the problems as `path:line: field:
    message` lines; returns the exit status (no traceback for a problem in the input)."""
    import typer

    from .config import find_root
    from .validate import display_path

    def say(line: str) -> None:
        typer.echo(printable(line), err=True)

    project = (root or find_root()).resolve()
    try:
        report = build_site(
            project,
            out,
            release_date=release_date,
            records_dir=records,
            workers=workers,
            preview=preview,
            allow_empty=allow_empty,
            wait=False,
            on_wait=say,
        )
    except RecordsInvalid as error:
        for problem in error.problems:
            shown = Problem(
                Path(display_path(problem.path)), problem.line, problem.field,
                problem.message, problem.severity,
            )  # fmt: skip
            typer.echo(str(shown), err=True)
        say(f"build failed: {error}; the site was not changed")
        return 1
    except write.TargetRefused as error:
        say(f"build failed: {error}")
        return 1
    except OSError as error:
        if error.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            where = (out or project / SITE_DIR).absolute().parent
            say(
                f"build failed: {error.strerror} while writing the new site in {where} "
                f"({error.filename}); the site was not changed; free some space and build "
                "again"
            )
        else:
            say(f"build failed: {error}; the site was not changed")
        return 1
    except (ValueError, write.OutputError, RecordsChanged) as error:
        say(f"build failed: {error}; the site was not changed")
        return 1
    for problem in report.warnings:
        typer.echo(str(problem), err=True)
    for line in report.lines():
        typer.echo(printable(line))
    if report.removal.path is not None:
        seconds = report.removal.wait()
        typer.echo(f"previous site removed in {seconds:.3f} s (after the swap, not timed above)")
    return 0
