"""Load many record files fast: a content-keyed parse cache and a second process.

Parsing YAML is most of validation time (libyaml's events cost about 0.15 ms per record
file in Python; `load`'s native path reads most files in a fraction of that).
Three measures, none of them visible in the results:

- lines later: files are parsed without their line map (`load.parse_bytes(lines=False)`);
  the map is built from the file again only where a check reports a problem.
- `ParseCache`: what `load.parse_bytes` returned for a file's bytes (values, problems),
  keyed by the SHA-256 of the bytes, in one `marshal` file under `<root>/.rewire-cache/`
  (gitignored). The file name carries a digest of the loader's source, the versions of
  PyYAML, yaml_rs and Python, so a change to any of them starts a new cache. Only
  parsing is cached: every check runs on every run.
- `iter_files`: files not in the cache are parsed in this process and a forked one
  when there are many of them, and handed to the caller as each is ready, so that the
  per-file checks run while the other process parses (`load_files`: the same as a list
  in the order given).
"""

from __future__ import annotations

import hashlib
import marshal
import multiprocessing
import os
import queue
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
import yaml_rs

from . import load, record_files
from .load import LazyLines, LoadedFile, parse_bytes, read_bounded
from .problems import Problem

CACHE_DIR = ".rewire-cache"
PARALLEL_MIN_FILES = 400
"""Fewer files than this are parsed in this process alone."""
CHUNKS_PER_PROCESS = 24
"""The files to parse are cut into about this many chunks per process (see
`_parallel`): small enough to balance, large enough that handing them over is cheap."""
CHUNK_MIN_FILES = 50
"""Fewest files in a chunk."""
OWN_SECONDS_PER_FILE = 0.0005
"""What parsing and checking one file here is taken to cost until it is measured (see
`_parallel`; about twice the real cost)."""

Entry = tuple[Any, list[tuple[int, str, str, str]], list[str], str | None]
"""(values, problems as (line, field, message, severity), non-finite paths, modeline)."""


def _loader_version() -> str:
    digest = hashlib.sha256(Path(load.__file__).read_bytes())
    digest.update(Path(__file__).read_bytes())
    digest.update(f"{yaml.__version__} {yaml_rs.__version__} {sys.version_info[:2]}".encode())
    return digest.hexdigest()[:16]


def _entry(loaded: LoadedFile) -> Entry:
    problems: list[tuple[int, str, str, str]] = [
        (p.line, p.field, p.message, p.severity) for p in loaded.problems
    ]
    return (loaded.data, problems, loaded.nonfinite, loaded.schema)


def _loaded(path: Path, digest: str, entry: Entry) -> LoadedFile:
    data, problems, nonfinite, schema = entry
    found = [
        Problem(path, line, field, message, "warning" if severity == "warning" else "error")
        for line, field, message, severity in problems
    ]
    lines = LazyLines(path, digest)
    return LoadedFile(path, data, lines, found, list(nonfinite), digest, schema)


class ParseCache:
    """Parse results by SHA-256 of the file bytes, stored in one marshal file."""

    def __init__(self, root: Path) -> None:
        self.path = root / CACHE_DIR / f"parse-{_loader_version()}.marshal"
        self._entries: dict[str, Entry] | None = None
        self.used: set[str] = set()
        self.added = 0

    @property
    def entries(self) -> dict[str, Entry]:
        """The stored entries, read on first use."""
        if self._entries is None:
            try:
                stored = marshal.loads(self.path.read_bytes())
            except (OSError, ValueError, EOFError, TypeError):
                stored = None
            self._entries = stored if isinstance(stored, dict) else {}
        return self._entries

    def get(self, digest: str) -> Entry | None:
        entry = self.entries.get(digest)
        if entry is not None:
            self.used.add(digest)
        return entry

    def put(self, digest: str, entry: Entry) -> None:
        self.entries[digest] = entry
        self.used.add(digest)
        self.added += 1

    def save(self) -> None:
        """Write the cache when it gained entries; keep at most twice the entries used."""
        if not self.added:
            return
        entries = self.entries
        if len(entries) > 2 * len(self.used):
            entries = {digest: entries[digest] for digest in self.used}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_bytes(marshal.dumps(entries))
            temporary.replace(self.path)
            for old in self.path.parent.glob("parse-*.marshal"):
                if old != self.path:  # written by another version of the loader
                    old.unlink(missing_ok=True)
        except OSError:
            pass  # a cache that cannot be written only costs time


def absolute(path: Path) -> str:
    """Absolute path without resolving links (Path.resolve costs a syscall per part)."""
    return os.path.abspath(path)  # noqa: PTH100


def yaml_names(folder: Path, inside: str | None = None) -> list[str]:
    """The record files under `folder` as strings, sorted: regular `*.yaml` files and
    links to regular files inside the real folder `inside` (default: `folder`'s); none
    when `folder` itself leads out of `inside`. What `record_files.scan` refuses is
    left out: it is reported where `folder` itself is validated."""
    real = os.path.realpath(folder)
    inside = real if inside is None else inside
    if not (real == inside or real.startswith(inside.rstrip(os.sep) + os.sep)):
        return []
    found = record_files.Found()
    record_files.scan(folder, inside, found)
    return sorted(found.names)


def yaml_files(folder: Path) -> list[Path]:
    """`*.yaml` files under `folder`, sorted by path."""
    return [Path(name) for name in yaml_names(folder)]


def _read(path: Path) -> bytes | LoadedFile:
    raw = read_bounded(path)
    return LoadedFile(path, None, {}, [raw]) if isinstance(raw, Problem) else raw


def _parse_one(path: Path, raws: Mapping[Path, bytes] | None) -> LoadedFile:
    """Parse `path` from `raws` (read earlier) or, without them, from a read of its own."""
    raw = _read(path) if raws is None else raws[path]
    return raw if isinstance(raw, LoadedFile) else parse_bytes(raw, path, lines=False)


def _parse_to_entries(chunk: Sequence[Path], raws: Mapping[Path, bytes] | None) -> bytes:
    """Parse files; marshalled (digest, entry) pairs in order (None: unreadable)."""
    out: list[tuple[str, Entry] | None] = []
    for path in chunk:
        loaded = _parse_one(path, raws)
        out.append((loaded.sha256, _entry(loaded)) if loaded.sha256 else None)
    return marshal.dumps(out)


def _claim(counter: Any) -> int:
    with counter.get_lock():
        index: int = counter.value
        counter.value = index + 1
    return index


def _worker(
    chunks: Sequence[Sequence[Path]],
    raws: Mapping[Path, bytes] | None,
    counter: Any,
    results: Any,
) -> None:
    """Forked worker: claim the next chunk from the shared counter, parse it, send
    (chunk index, marshalled entries); stop when no chunk is left."""
    while (index := _claim(counter)) < len(chunks):
        results.put((index, _parse_to_entries(chunks[index], raws)))


def _parallel(
    todo: list[Path], jobs: int, raws: Mapping[Path, bytes] | None
) -> Iterator[LoadedFile]:
    """Parse `todo` in this process and `jobs - 1` forked workers; yield each file as
    soon as it is parsed (in no fixed order).

    The files are cut into chunks that every process claims from one shared counter.
    This process also runs the caller's checks of every file it yields, which cost
    about as much as parsing: it takes the workers' chunks first, and claims a chunk of
    its own only with the time it has spent waiting for them (once that time adds up
    to what one of its own chunks costs), so that neither side waits long for the other
    (claiming a chunk whenever none had arrived made this process parse a third of the
    files and finish last). Each file is read once: by this process before (`raws`,
    given through the fork), or else by the process that parses it. A chunk that a
    worker claimed but never sent (it died) is parsed here."""
    size = max(CHUNK_MIN_FILES, len(todo) // (CHUNKS_PER_PROCESS * jobs))
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
    context = multiprocessing.get_context("fork")
    counter = context.Value("q", 0)
    results = context.Queue()
    workers = [
        context.Process(target=_worker, args=(chunks, raws, counter, results), daemon=True)
        for _ in range(jobs - 1)
    ]
    for worker in workers:
        worker.start()
    done: set[int] = set()
    clock = time.perf_counter
    idle = 0.0  # seconds spent waiting for the workers, not yet spent on a chunk here
    checked = [0.0, 0.0]  # seconds spent here on the workers' chunks, and their files
    own = [0.0, 0.0]  # seconds spent here on chunks parsed here, and their files

    def unpack(index: int, payload: bytes) -> Iterator[LoadedFile]:
        done.add(index)
        for path, item in zip(chunks[index], marshal.loads(payload), strict=True):
            yield load.load_file(path) if item is None else _loaded(path, *item)

    def timed(index: int, files: Iterator[LoadedFile], spent: list[float]) -> Iterator[LoadedFile]:
        """`files`, the time taken meanwhile (the caller's checks included) added to
        `spent`."""
        start = clock()
        yield from files
        spent[0] += clock() - start
        spent[1] += len(chunks[index])

    def own_cost() -> float:
        """Seconds a chunk of `size` files is expected to take here."""
        if own[1]:
            return own[0] / own[1] * size
        if checked[1]:  # parsing here costs about what checking does
            return 2 * checked[0] / checked[1] * size
        return OWN_SECONDS_PER_FILE * size

    def arrived(wait: bool) -> Iterator[LoadedFile]:
        while True:
            try:
                index, payload = results.get(timeout=0.05) if wait else results.get_nowait()
            except queue.Empty:
                return
            yield from unpack(index, payload)

    try:
        while counter.value < len(chunks):  # a hint: `_claim` decides
            try:
                index, payload = results.get_nowait()
            except queue.Empty:
                start = clock()
                try:
                    index, payload = results.get(timeout=0.01)
                except queue.Empty:
                    index = -1
                idle += clock() - start
            if index >= 0:
                yield from timed(index, unpack(index, payload), checked)
                continue
            if idle < own_cost() and any(worker.is_alive() for worker in workers):
                continue
            index = _claim(counter)
            if index >= len(chunks):
                break
            idle = max(0.0, idle - own_cost())
            done.add(index)
            yield from timed(index, (_parse_one(path, raws) for path in chunks[index]), own)
        while len(done) < len(chunks):
            before = len(done)
            yield from arrived(wait=True)
            if len(done) == before and not any(worker.is_alive() for worker in workers):
                yield from arrived(wait=False)
                break  # a worker died with a chunk claimed
        for index in range(len(chunks)):
            if index not in done:
                for path in chunks[index]:
                    yield _parse_one(path, raws)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.kill()
            worker.join()
        results.close()
        results.join_thread()


def iter_files(
    paths: Sequence[Path],
    root: Path,
    *,
    cache: bool = True,
    jobs: int | None = None,
    store: ParseCache | None = None,
) -> Iterator[LoadedFile]:
    """Load every file in `paths`, each yielded once, as soon as it is ready (cached
    files first; parsed ones in no fixed order). Parsed files are added to `store` (or
    to the cache under `root`, saved at the end, when `cache` and no `store`).

    Where many files are not in the cache they are parsed in `jobs` processes (default:
    up to 2): the caller's work on each file runs in this process meanwhile."""
    owned = store is None and cache
    if owned:
        store = ParseCache(root)
    workers = jobs if jobs is not None else min(2, os.cpu_count() or 1)
    parallel = workers > 1 and len(paths) >= PARALLEL_MIN_FILES and sys.platform != "win32"
    if parallel and (store is None or not store.entries):
        # nothing to look up: each process reads the files it parses
        yield from _stored(_parallel(list(paths), workers, None), store, owned)
        return
    todo: list[Path] = []
    raws: dict[Path, bytes] = {}
    for path in paths:
        raw = _read(path)
        if isinstance(raw, LoadedFile):
            yield raw
            continue
        if store is not None:
            digest = hashlib.sha256(raw).hexdigest()
            entry = store.get(digest)
            if entry is not None:
                yield _loaded(path, digest, entry)
                continue
        todo.append(path)
        raws[path] = raw  # parsed from these bytes: each file is read once
    parsed: Iterable[LoadedFile]
    if parallel and len(todo) >= PARALLEL_MIN_FILES:
        parsed = _parallel(todo, workers, raws)
    else:
        parsed = (parse_bytes(raws[path], path, lines=False) for path in todo)
    yield from _stored(parsed, store, owned)


def _stored(
    parsed: Iterable[LoadedFile], store: ParseCache | None, save: bool
) -> Iterator[LoadedFile]:
    """`parsed`, each added to `store` on the way; the store saved at the end if `save`."""
    for loaded in parsed:
        if store is not None and loaded.sha256:
            store.put(loaded.sha256, _entry(loaded))
        yield loaded
    if save and store is not None:
        store.save()


def load_files(
    paths: Sequence[Path],
    root: Path,
    *,
    cache: bool = True,
    jobs: int | None = None,
    store: ParseCache | None = None,
) -> list[LoadedFile]:
    """Load every file in `paths` (same order), using the cache under `root`.

    With `store` given, use it and leave saving it to the caller."""
    by_path = {
        loaded.path: loaded
        for loaded in iter_files(paths, root, cache=cache, jobs=jobs, store=store)
    }
    return [by_path[path] for path in paths]


__all__ = [
    "CACHE_DIR",
    "ParseCache",
    "absolute",
    "iter_files",
    "load_files",
    "yaml_files",
    "yaml_names",
]
