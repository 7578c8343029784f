"""Load many record files fast: a content-keyed parse cache and a second process.

Parsing YAML dominates validation time (libyaml's events cost about 0.2 ms per record
file in Python). Two measures, both invisible in the results:

- `ParseCache`: what `load.parse_bytes` returned for a file's bytes (values, line map,
  problems), keyed by the SHA-256 of the bytes, in one `marshal` file under
  `<root>/.rewire-cache/` (gitignored). The file name carries a digest of the loader's
  source, PyYAML's version and Python's, so a change to any of them starts a new cache.
  Only parsing is cached: every check runs on every run.
- `load_files`: files not in the cache are parsed in two processes (fork) when there
  are many of them; results come back in the order given.
"""

from __future__ import annotations

import hashlib
import marshal
import multiprocessing
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from . import load
from .load import LazyLines, LoadedFile, parse_bytes
from .problems import Problem

CACHE_DIR = ".rewire-cache"
PARALLEL_MIN_FILES = 400
"""Fewer files than this are parsed in this process alone."""
PARENT_SHARE = 0.7
"""This process parses this fraction of an equal share (see `_parallel`)."""

Entry = tuple[Any, list[tuple[int, str, str, str]], list[str], str | None]
"""(values, problems as (line, field, message, severity), non-finite paths, modeline)."""


def _loader_version() -> str:
    digest = hashlib.sha256(Path(load.__file__).read_bytes())
    digest.update(Path(__file__).read_bytes())
    digest.update(f"{yaml.__version__} {sys.version_info[:2]}".encode())
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


def yaml_names(folder: Path) -> list[str]:
    """`*.yaml` files under `folder` as strings, sorted."""
    names: list[str] = []
    for directory, _, files in os.walk(folder):  # os.walk and str: 10x faster than rglob
        names.extend(f"{directory}/{name}" for name in files if name.endswith(".yaml"))
    return sorted(names)


def yaml_files(folder: Path) -> list[Path]:
    """`*.yaml` files under `folder`, sorted by path."""
    return [Path(name) for name in yaml_names(folder)]


def _read(path: Path) -> bytes | LoadedFile:
    try:
        return path.read_bytes()
    except OSError as error:
        return LoadedFile(path, None, {}, [Problem(path, 1, "", f"cannot read: {error.strerror}")])


def _parse_chunk(paths: list[str]) -> bytes:
    """Worker: parse files, return marshalled (digest, entry) pairs (None: unreadable)."""
    out: list[tuple[str, Entry] | None] = []
    for name in paths:
        raw = _read(Path(name))
        if isinstance(raw, LoadedFile):
            out.append(None)
            continue
        loaded = parse_bytes(raw, Path(name))
        out.append((loaded.sha256, _entry(loaded)))
    return marshal.dumps(out)


def _parallel(todo: list[Path], jobs: int, raws: dict[Path, bytes]) -> dict[Path, LoadedFile]:
    """Parse `todo`: this process takes the first share, a forked pool the rest.

    This process takes a smaller share than each worker: the checks that follow parsing
    run here, so the workers' extra files balance them."""
    share = int(len(todo) / jobs * PARENT_SHARE)
    mine, theirs = todo[:share], todo[share:]
    chunks = [[str(p) for p in theirs[i :: jobs - 1]] for i in range(jobs - 1)]
    results: dict[Path, LoadedFile] = {}
    context = multiprocessing.get_context("fork")
    with context.Pool(jobs - 1) as pool:
        pending = pool.map_async(_parse_chunk, chunks)
        for path in mine:
            results[path] = parse_bytes(raws[path], path)
        for chunk, payload in zip(chunks, pending.get(), strict=True):
            for name, item in zip(chunk, marshal.loads(payload), strict=True):
                path = Path(name)
                results[path] = load.load_file(path) if item is None else _loaded(path, *item)
    return results


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
    if not paths:
        return []
    owned = store is None and cache
    if owned:
        store = ParseCache(root)
    results: dict[Path, LoadedFile] = {}
    todo: list[Path] = []
    raws: dict[Path, bytes] = {}
    for path in paths:
        raw = _read(path)
        if isinstance(raw, LoadedFile):
            results[path] = raw
            continue
        if store is not None:
            digest = hashlib.sha256(raw).hexdigest()
            entry = store.get(digest)
            if entry is not None:
                results[path] = _loaded(path, digest, entry)
                continue
        todo.append(path)
        raws[path] = raw  # parsed from these bytes: each file is read once
    workers = jobs if jobs is not None else min(2, os.cpu_count() or 1)
    if workers > 1 and len(todo) >= PARALLEL_MIN_FILES and sys.platform != "win32":
        parsed = _parallel(todo, workers, raws)
    else:
        parsed = {path: parse_bytes(raws[path], path) for path in todo}
    del raws
    results.update(parsed)
    if store is not None:
        for loaded in parsed.values():
            if loaded.sha256:
                store.put(loaded.sha256, _entry(loaded))
        if owned:
            store.save()
    return [results[path] for path in paths]


__all__ = ["CACHE_DIR", "ParseCache", "absolute", "load_files", "yaml_files", "yaml_names"]
