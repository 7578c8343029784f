"""`rewire build`: records in, static site out.

The stages, in order (each timed; `BuildReport.stages` lists them):

1. load     read and validate every record file (`validate.validate_paths`);
2. link     resolve ids into one graph (`link.Catalogue`);
3. derive   facts computed once for the whole build: release id, concern flags,
            filter facets, artifact hashes, the search index, the page plan;
4. render   page contexts (`pages`, `index_pages`) rendered with templates compiled
            once, in a pool of forked processes, each page written as it is rendered
            into a staging folder beside the site; the same pool writes the gzip CSVs
            and the JSON API (one file per record), which need no template;
5. files    static assets, search index, the release table (every output's SHA-256);
6. swap     the staging folder replaces the site (`write.atomic_write_site`): two
            renames, under a lock on the folder that holds the site (a second build
            waits), and only when the site folder is one the builder made (it holds
            `.rewire-site`) or an empty one. The previous site, renamed aside, is
            removed afterwards in a background thread (`BuildReport.removal`),
            outside the timed stages:
            `build_site(wait=True)`, the default, joins it before returning and
            `BuildReport.removal_seconds` says how long it took.

Everything the pages need is gathered before the first byte is written, and all writing
goes to the staging folder: a build that fails at any stage leaves the previous site
as it was. A record file that changes while the build runs (between the load and the
swap) fails the build (`RecordsChanged`): the site is never a mix of two versions.
Same records in, same bytes out: no clock is read except the release date.
"""

from __future__ import annotations

import errno
import gc
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from . import downloads, index_pages, pages, release, write
from .chooser.pages import chooser_pages
from .config import RECORDS_DIR, SITE_DIR
from .derive.concerns import flags_by_evaluation
from .derive.filters import filter_index
from .export import SITE_URL, export_files
from .export.jsonld import with_json_ld
from .link import Catalogue
from .models import (
    Configuration,
    Dataset,
    Evaluation,
    ModelFamily,
    Protocol,
    Question,
    RecordBase,
    Source,
)
from .problems import Problem, RecordsInvalid
from .render import DataFile, Job, Renderer, RenderStats, render_jobs, templates_dir
from .search import search_entries, search_index_json
from .sections import Link
from .urls import kind_of
from .validate import find_files, validate_paths

STAGES = ("load", "link", "derive", "render", "files", "swap")

PARALLEL_MIN_JOBS = 200
"""Fewer page jobs than this render in this process (a pool costs more than it saves)."""

API_CHUNK = 250
"""Records per job that writes their JSON files (`api/<kind>/<id>.json`)."""

RECORD_PAGES: dict[type[RecordBase], Any] = {
    Evaluation: pages.evaluation_page,
    Configuration: pages.configuration_page,
    Dataset: pages.dataset_page,
    ModelFamily: pages.family_page,
    Source: pages.source_page,
    Question: pages.question_page,
}


def shared_titles(records: Iterable[RecordBase]) -> frozenset[str]:
    """Titles more than one record carries (their pages' <title> adds the record id)."""
    counts = Counter(r.title for r in records)
    return frozenset(title for title, count in counts.items() if count > 1)


class RecordsChanged(Exception):
    """A record file changed, appeared or vanished while the build was running."""


FileState = dict[Path, tuple[int, int, int, int]]


def record_state(folder: Path) -> FileState:
    """(inode, size, mtime ns, ctime ns) of every record file under `folder`."""
    state: FileState = {}
    for path in find_files([folder])[0]:
        try:
            stat = path.stat()
        except FileNotFoundError:
            continue
        state[path] = (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    return state


def check_unchanged(folder: Path, before: FileState) -> None:
    """Raise `RecordsChanged` when a record file under `folder` differs from `before`."""
    after = record_state(folder)
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

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.stages.append((name, time.perf_counter() - start))


@dataclass(frozen=True)
class _Plan:
    """Everything the render workers need, computed before anything is written."""

    catalogue: Catalogue
    facts: pages.SiteFacts
    entries: tuple[Any, ...]
    members: dict[tuple[str, str], tuple[str, ...]]
    download_items: tuple[index_pages.DownloadItem, ...]
    record_ids: tuple[str, ...]
    """Every record id, sorted (the JSON API jobs take slices of it)."""

    def make(self, job: Job) -> Sequence[Any]:
        """The page contexts of one job."""
        kind = job[0]
        if kind == "protocol":
            protocol = self.catalogue.get(job[1], Protocol)
            table = pages.protocol_table(protocol, self.catalogue, self.facts)
            return [
                with_json_ld(
                    pages.protocol_page(protocol, self.catalogue, self.facts, table),
                    protocol,
                    self.catalogue,
                    SITE_URL,
                ),
                *pages.sorted_pages(protocol, self.catalogue, self.facts, table),
            ]
        if kind == "record":
            record = self.catalogue.by_id[job[1]]
            page = RECORD_PAGES[type(record)](record, self.catalogue, self.facts)
            return [with_json_ld(page, record, self.catalogue, SITE_URL)]
        if kind == "filter":
            key, value = job[1], job[2]
            ids = self.members[(key, value)]
            return [index_pages.filter_page(key, value, ids, self.catalogue, self.facts)]
        if kind == "chooser":
            return chooser_pages(self.catalogue, self.facts.flags, self.facts.release_id)
        if kind == "home":
            return [index_pages.home_page(self.catalogue, self.facts)]
        if kind == "search":
            return [index_pages.search_page(self.entries, self.facts)]
        if kind == "downloads":
            return [index_pages.downloads_page(self.download_items, self.facts)]
        if kind == "data":  # the gzip CSVs (but the release table) and the API index
            found = downloads.download_files(self.catalogue, self.facts.flags)
            found[downloads.API_INDEX] = downloads.api_index(self.catalogue)
            found[downloads.API_DERIVED] = downloads.derived_json(self.catalogue, self.facts.flags)
            found.update(export_files(self.catalogue, self.facts.release_id))
            return [DataFile(path, data) for path, data in sorted(found.items())]
        if kind == "api":
            start, stop = int(job[1]), int(job[2])
            by_id = self.catalogue.by_id
            return [
                DataFile(downloads.api_path(kind_of(r), r.id), downloads.record_json(r))
                for r in (by_id[i] for i in self.record_ids[start:stop])
            ]
        raise ValueError(f"unknown page job {job!r}")

    def jobs(self) -> list[Job]:
        """Every page job: the heavy record pages first, so the pool stays balanced."""
        found: list[Job] = [("data",)]
        found += [("protocol", p.id) for p in self.catalogue.protocols()]
        found += [
            ("record", r.id)
            for r in sorted(self.catalogue.by_id.values(), key=lambda r: (kind_of(r), r.id))
            if not isinstance(r, Protocol)
        ]
        found += [("filter", key, value) for key, value in self.members]
        found += [("home",), ("search",), ("downloads",), ("chooser",)]
        found += [  # light jobs last: they fill the gaps at the end
            ("api", str(i), str(i + API_CHUNK)) for i in range(0, len(self.record_ids), API_CHUNK)
        ]
        return found


def default_workers() -> int:
    """Render processes: the CPUs this process may use, at most 4."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


def load_records(root: Path, records_dir: Path | None = None) -> tuple[Catalogue, list[Problem]]:
    """Validated, linked records; `RecordsInvalid` with every problem when any has errors."""
    folder = records_dir or root / RECORDS_DIR
    report = validate_paths([folder], root)
    if not report.ok:
        raise RecordsInvalid(report.problems)
    return Catalogue.from_records(report.records.values()), report.warnings


def build_site(
    root: Path,
    out_dir: Path | None = None,
    *,
    release_date: date | str | None = None,
    records_dir: Path | None = None,
    workers: int | None = None,
    wait: bool = True,
    on_wait: Callable[[str], None] | None = None,
) -> BuildReport:
    """Build the site of the records under `root` (or `records_dir`) into `out_dir`
    (default `root/site`). Raises `RecordsInvalid` when the records have errors.

    The previous site is removed in a background thread after the swap; `wait=False`
    returns without waiting for it (`report.removal.wait()` does). `on_wait` hears why
    the build waits, when another build writes into the same folder.

    Raises `write.TargetRefused` when `out_dir` is not the builder's to replace and
    `RecordsChanged` when a record file changes during the build; the site is unchanged."""
    root = root.resolve()
    if records_dir is not None:
        records_dir = records_dir.resolve()
        if records_dir.name == RECORDS_DIR and records_dir.parent != root:
            root = records_dir.parent  # artifact paths are relative to that project
    site_dir = (out_dir or root / SITE_DIR).resolve()
    timer = _Timer()
    started = os.times()

    with timer.stage("load"):
        folder = records_dir or root / RECORDS_DIR
        state = record_state(folder)
        report = validate_paths([folder], root)
        if not report.ok:
            raise RecordsInvalid(report.problems)
    with timer.stage("link"):
        catalogue = Catalogue.from_records(report.records.values())
        # The records live until the end of the build: move them out of the collector's
        # sight, or every collection in the stages below walks the whole catalogue again.
        gc.collect()
        gc.freeze()
    with timer.stage("derive"):
        made = release.make_release(catalogue.by_id.values(), release_date)
        flags = flags_by_evaluation(catalogue)
        filters = filter_index(catalogue)
        links = tuple(Link(d.label, d.path) for d in (*downloads.DOWNLOADS, *downloads.EXPORTS))
        facts = pages.SiteFacts(
            release_id=made.id,
            flags=flags,
            artifact_hashes=release.hash_artifacts(catalogue, root),
            filters=filters,
            filter_hrefs=index_pages.filter_hrefs(filters),
            downloads=links,
            release_download=Link(downloads.RELEASE_LINK_TEXT, downloads.RELEASE_PAGE),
            shared_titles=shared_titles(catalogue.by_id.values()),
        )
        entries = search_entries(catalogue)
        plan = _Plan(
            catalogue,
            facts,
            entries,
            index_pages.filter_members(filters),
            index_pages.download_items(links),
            tuple(sorted(catalogue.by_id)),
        )
        jobs = plan.jobs()
        renderer = Renderer(templates_dir(root))
        renderer.warm()
        gc.freeze()  # the derived facts too (the records were frozen after linking)
    count = workers or default_workers()
    if len(jobs) < PARALLEL_MIN_JOBS:
        count = 1
    stats = RenderStats()

    files = 0

    def build_into(writer: write.OutputWriter) -> None:
        nonlocal stats, files
        with timer.stage("render"):
            stats = render_jobs(jobs, plan.make, renderer, writer, count)
        with timer.stage("files"):
            static = templates_dir(root) / "static"
            for file in sorted(static.rglob("*")):
                if file.is_file():
                    name = "static/" + file.relative_to(static).as_posix()
                    writer.copy_file(name, file, "the static files")
            writer.write_bytes("search/index.json", search_index_json(entries), "the search index")
            for path, data in downloads.release_file(made, writer.entries()).items():
                writer.write_bytes(path, data, "the release table")
            # + 1: the marker that says the builder made this folder (write.MARKER)
            files = len(writer.entries()) + 1
            check_unchanged(folder, state)

    swap_started = 0.0
    removal = write.Removal(None)

    def build_and_mark(writer: write.OutputWriter) -> None:
        nonlocal swap_started
        build_into(writer)
        swap_started = time.perf_counter()

    def swapped(old: Path | None) -> None:
        nonlocal removal
        # the swap: the new site renamed in, the previous one renamed aside
        timer.stages.append(("swap", time.perf_counter() - swap_started))
        removal = write.Removal(old)  # removed in a background thread

    try:
        write.atomic_write_site(build_and_mark, site_dir, swapped, on_wait)
    finally:
        gc.unfreeze()
    ended = os.times()
    cpu = sum(ended[:4]) - sum(started[:4])
    built = BuildReport(
        site_dir=site_dir,
        release_id=made.id,
        records=len(catalogue.by_id),
        pages=len(stats.files),
        files=files,
        stages=timer.stages,
        render=stats,
        warnings=report.warnings,
        cpu_seconds=cpu,
        removal=removal,
    )
    if wait:
        removal.wait()
    return built


def build_command(
    root: Path | None,
    records: Path | None,
    out: Path | None,
    release_date: str | None,
    workers: int | None,
) -> int:
    """`rewire build`: print the stage timings, or the problems as `path:line: field:
    message` lines; returns the exit status (no traceback for a problem in the input)."""
    import typer

    from .config import find_root
    from .validate import display_path

    project = (root or find_root()).resolve()
    try:
        report = build_site(
            project,
            out,
            release_date=release_date,
            records_dir=records,
            workers=workers,
            wait=False,
            on_wait=lambda message: typer.echo(message, err=True),
        )
    except RecordsInvalid as error:
        for problem in error.problems:
            shown = Problem(
                Path(display_path(problem.path)), problem.line, problem.field,
                problem.message, problem.severity,
            )  # fmt: skip
            typer.echo(str(shown), err=True)
        typer.echo(f"build failed: {error}; the site was not changed", err=True)
        return 1
    except write.TargetRefused as error:
        typer.echo(f"build failed: {error}", err=True)
        return 1
    except OSError as error:
        if error.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            where = (out or project / SITE_DIR).absolute().parent
            typer.echo(
                f"build failed: {error.strerror} while writing the new site in {where} "
                f"({error.filename}); the site was not changed; free some space and build "
                "again",
                err=True,
            )
        else:
            typer.echo(f"build failed: {error}; the site was not changed", err=True)
        return 1
    except (ValueError, write.OutputError, RecordsChanged) as error:
        typer.echo(f"build failed: {error}; the site was not changed", err=True)
        return 1
    for problem in report.warnings:
        typer.echo(str(problem), err=True)
    for line in report.lines():
        typer.echo(line)
    if report.removal.path is not None:
        seconds = report.removal.wait()
        typer.echo(f"previous site removed in {seconds:.3f} s (after the swap, not timed above)")
    return 0
