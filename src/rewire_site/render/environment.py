"""Jinja2 environment: compiled once, autoescape on, StrictUndefined, filters in one place.

Templates only display what `pages` and `derive` computed: loops and conditionals, no
arithmetic, no lookups. Every filter they may use is registered here.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing as mp
import os
import time
from collections.abc import Callable, Hashable, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import markupsafe
from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template
from markupsafe import Markup, escape

from .config import TEMPLATES_DIR
from .markdown import render_block, render_inline

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""The repository root when the package runs from a checkout (src layout)."""


def templates_dir(root: Path) -> Path:
    """`templates/` of the project at `root`, else the one beside this checkout."""
    for candidate in (root / TEMPLATES_DIR, PACKAGE_ROOT / TEMPLATES_DIR):
        if (candidate / "base.html").is_file():
            return candidate
    raise FileNotFoundError(f"{root / TEMPLATES_DIR}: no base.html (templates folder missing)")


_new_str = str.__new__
_escape_inner: Callable[[str], str] | None = getattr(markupsafe, "_escape_inner", None)
"""markupsafe 3's C escaping of a plain str (None on markupsafe 2, whose `escape` is C)."""


def fast_escape(value: Any) -> Markup:
    """`markupsafe.escape` with the same result, faster for plain strings (most template
    output): markupsafe 3's `Markup(...)` constructor runs in Python, `str.__new__` not."""
    if _escape_inner is not None and type(value) is str:
        return _new_str(Markup, _escape_inner(value))
    return escape(value)


class FastEscapeTemplate(Template):
    """A template whose `{{ ... }}` output goes through `fast_escape`. Compiled templates
    look `escape` up in their module namespace at call time; this sets it there."""

    @classmethod
    def _from_namespace(
        cls,
        environment: Environment,
        namespace: MutableMapping[str, Any],
        globals: MutableMapping[str, Any],
    ) -> Template:
        namespace["escape"] = fast_escape
        return super()._from_namespace(environment, namespace, globals)


def make_environment(template_root: Path) -> Environment:
    """The one Jinja2 environment of a build."""
    env = Environment(
        loader=FileSystemLoader(str(template_root)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=-1,
    )
    env.template_class = FastEscapeTemplate
    env.globals["fragment"] = FragmentCache()
    env.filters["md"] = render_block
    env.filters["md_inline"] = render_inline
    return env


class FragmentCache:
    """`fragment(name, key, render, *args)` in templates: calls the macro `render(*args)`
    once per distinct `(name, key)` in this process and reuses the HTML. For sections many
    pages share word for word (the readiness checks of evaluations in the same state);
    `key` must hold everything the section shows."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self.cache: dict[tuple[str, Hashable], Markup] = {}
        self.hits = 0

    def __call__(self, name: str, key: Hashable, render: Callable[..., Any], *args: Any) -> Markup:
        found = self.cache.get((name, key))
        if found is not None:
            self.hits += 1
            return found
        html = Markup(render(*args))
        if len(self.cache) >= self.limit:
            self.cache.clear()
        self.cache[(name, key)] = html
        return html


class Renderer:
    """Renders page contexts with templates compiled once per process."""

    def __init__(self, template_root: Path) -> None:
        self.env = make_environment(template_root)
        self._templates: dict[str, Template] = {}

    def template(self, name: str) -> Template:
        found = self._templates.get(name)
        if found is None:
            found = self._templates[name] = self.env.get_template(name)
        return found

    def warm(self) -> None:
        """Compile every page template now (before a pool forks, so workers share them)."""
        for name in self.env.list_templates(extensions=["html"]):
            if not name.startswith("_"):
                self.template(name)

    def render(self, name: str, page: Any) -> bytes:
        """One page as UTF-8 bytes; the context object is available as `page`."""
        return self.template(name).render(page=page).encode("utf-8")


# ------------------------------------------------------------ rendering many pages

Job = tuple[str, ...]
"""A unit of page work, e.g. ('evaluation', '<id>') or ('home',): small and picklable."""
MakePages = Callable[[Job], Sequence[Any]]
"""Builds the page contexts of a job (each has `.template` and `.path`), or the
`DataFile`s it writes as they are."""


@dataclass(frozen=True)
class DataFile:
    """A file that is not a page (JSON, gzip CSV), written by the pool as it is."""

    path: str
    data: bytes


@dataclass(frozen=True)
class WrittenFile:
    path: str
    """Path under the output folder, POSIX separators."""
    sha256: str
    size: int


@dataclass
class RenderStats:
    """What rendering wrote, and where the time went (seconds summed over workers)."""

    files: list[WrittenFile] = field(default_factory=list)
    """Rendered pages."""
    data_files: list[WrittenFile] = field(default_factory=list)
    """`DataFile`s the jobs made."""
    context_seconds: float = 0.0
    render_seconds: float = 0.0
    write_seconds: float = 0.0
    workers: int = 1

    def merge(self, other: RenderStats) -> None:
        self.files.extend(other.files)
        self.data_files.extend(other.data_files)
        self.context_seconds += other.context_seconds
        self.render_seconds += other.render_seconds
        self.write_seconds += other.write_seconds


_STATE: dict[str, Any] = {}
"""Set in the parent before the pool forks: workers inherit it instead of unpickling it."""


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)


def _write_new(path: str, data: bytes) -> None:
    """Write a new file in three system calls (no buffered file object); O_EXCL: a path
    written twice in one build is an error (FileExistsError)."""
    fd = os.open(path, _NEW_FILE, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _run(indices: Sequence[int]) -> RenderStats:
    jobs: Sequence[Job] = _STATE["jobs"]
    make: MakePages = _STATE["make"]
    renderer: Renderer = _STATE["renderer"]
    out: Path = _STATE["out"]
    stats = RenderStats()
    # What earlier batches left (caches of markdown, fragments, citations) lives until
    # the end: out of the collector's sight, or each full collection walks it again.
    gc.collect(1)
    gc.freeze()
    clock = time.process_time  # CPU seconds of this worker: wall time lies on a busy machine
    made_dirs: set[str] = set()
    root = os.fspath(out)
    for index in indices:
        t0 = clock()
        pages = make(jobs[index])
        t1 = clock()
        rendered = [
            (page.path, page.data, stats.data_files)
            if isinstance(page, DataFile)
            else (page.path, renderer.render(page.template, page), stats.files)
            for page in pages
        ]
        t2 = clock()
        for path, data, written in rendered:
            folder, _, _ = path.rpartition("/")
            if folder not in made_dirs:
                os.makedirs(f"{root}/{folder}", exist_ok=True)  # noqa: PTH103 (str: no Path per page)
                made_dirs.add(folder)
            _write_new(f"{root}/{path}", data)
            written.append(WrittenFile(path, hashlib.sha256(data).hexdigest(), len(data)))
        stats.context_seconds += t1 - t0
        stats.render_seconds += t2 - t1
        stats.write_seconds += clock() - t2
    return stats


def render_jobs(
    jobs: Sequence[Job],
    make: MakePages,
    renderer: Renderer,
    out: Path,
    workers: int = 1,
    chunk: int | None = None,
) -> RenderStats:
    """Build, render and write the pages of every job into `out`.

    With `workers` > 1 the jobs run in a pool of forked processes that inherit the
    catalogue, the derived facts and the compiled templates; each writes its own files
    and returns their hashes. The files are the same bytes whatever the split.
    """
    _STATE.update(jobs=jobs, make=make, renderer=renderer, out=out)
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
            with mp.get_context("fork").Pool(workers) as pool:
                for stats in pool.imap_unordered(_run, batches):
                    total.merge(stats)
    finally:
        _STATE.clear()
    total.files.sort(key=lambda f: f.path)
    total.data_files.sort(key=lambda f: f.path)
    return total
