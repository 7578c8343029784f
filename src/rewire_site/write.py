"""Write the site atomically: build into a temporary folder beside the target, then swap
it in with renames. A build that raises (or is interrupted) leaves the previous site as
it was, byte for byte. The writer refuses to write one output path twice."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TypeVar

from .release import ManifestEntry, sha256_bytes

T = TypeVar("T")

_PROJECT_MARKERS = (".git", "pyproject.toml", "records")


class OutputError(Exception):
    """An output path written twice, or outside the site."""


class OutputWriter:
    """Writes files under `root`, each path once; remembers each file's SHA-256."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._entries: dict[str, ManifestEntry] = {}
        self._folders: set[Path] = set()

    @staticmethod
    def normalise(relative: str) -> str:
        """'a/b/../c' style paths are refused; returns the path with '/' separators."""
        pure = PurePosixPath(relative.replace("\\", "/"))
        if not relative or pure.is_absolute() or any(p in ("..", "") for p in pure.parts):
            raise OutputError(f"output path {relative!r} is not a relative path inside the site")
        parts = [p for p in pure.parts if p != "."]
        if not parts:
            raise OutputError(f"output path {relative!r} names no file")
        return "/".join(parts)

    def __contains__(self, relative: str) -> bool:
        return self.normalise(relative) in self._entries

    def write_bytes(self, relative: str, data: bytes) -> Path:
        key = self.normalise(relative)
        if key in self._entries:
            raise OutputError(f"{key}: written twice in one build (two pages share a path?)")
        path = self.root.joinpath(*key.split("/"))
        folder = path.parent
        if folder not in self._folders:
            folder.mkdir(parents=True, exist_ok=True)
            self._folders.add(folder)
        path.write_bytes(data)
        self._entries[key] = ManifestEntry(key, sha256_bytes(data), len(data))
        return path

    def write_text(self, relative: str, text: str) -> Path:
        return self.write_bytes(relative, text.encode("utf-8"))

    def copy_file(self, relative: str, source: Path) -> Path:
        return self.write_bytes(relative, source.read_bytes())

    def entries(self) -> tuple[ManifestEntry, ...]:
        """Every file written so far, sorted by path."""
        return tuple(self._entries[k] for k in sorted(self._entries))


def _check_target(site_dir: Path) -> None:
    if site_dir.is_symlink() or (site_dir.exists() and not site_dir.is_dir()):
        raise OutputError(f"{site_dir}: exists and is not a folder; refusing to replace it")
    if site_dir.is_dir():
        found = [m for m in _PROJECT_MARKERS if (site_dir / m).exists()]
        if found:
            raise OutputError(
                f"{site_dir}: holds {', '.join(found)}; it looks like a project folder, not "
                "a built site, so it is not replaced"
            )


def swap_in(staging: Path, site_dir: Path, *, remove_old: bool = True) -> Path | None:
    """Replace `site_dir` with `staging` by renames (same parent folder, same file
    system); on failure put the previous site back. The previous site is removed, or
    with `remove_old=False` left renamed aside and returned (the caller removes it)."""
    old: Path | None = None
    if site_dir.exists():
        old = site_dir.with_name(f".{site_dir.name}.old-{uuid.uuid4().hex[:12]}")
        site_dir.rename(old)
    try:
        staging.rename(site_dir)
    except BaseException:
        if old is not None and not site_dir.exists():
            old.rename(site_dir)
        raise
    if old is not None and remove_old:
        shutil.rmtree(old, ignore_errors=True)
        return None
    return old


class Removal:
    """The previous site, renamed aside by the swap, removed in a background thread:
    the new site is already live, so nothing waits for it but the process's exit.
    `wait()` joins the thread and returns the seconds the removal took."""

    def __init__(self, old: Path | None) -> None:
        self.path = old
        self.seconds = 0.0
        self._thread: threading.Thread | None = None
        if old is not None:
            self._thread = threading.Thread(target=self._remove, name="remove-old-site")
            self._thread.start()

    def _remove(self) -> None:
        assert self.path is not None
        started = time.perf_counter()
        shutil.rmtree(self.path, ignore_errors=True)
        self.seconds = time.perf_counter() - started

    def wait(self) -> float:
        if self._thread is not None:
            self._thread.join()
        return self.seconds


def atomic_write_site(
    build: Callable[[OutputWriter], T],
    site_dir: Path,
    on_swapped: Callable[[Path | None], None] | None = None,
) -> T:
    """Run `build` with a writer into a fresh folder beside `site_dir`, then swap it in.
    If `build` raises (KeyboardInterrupt included), the folder is removed and `site_dir`
    is left untouched. The previous site is removed before this returns, or, with
    `on_swapped`, left renamed aside and handed to it (None when there was none)."""
    site_dir = site_dir.absolute()
    _check_target(site_dir)
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.new-", dir=site_dir.parent))
    try:
        staging.chmod(0o755)
        result = build(OutputWriter(staging))
        old = swap_in(staging, site_dir, remove_old=on_swapped is None)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if on_swapped is not None:
        on_swapped(old)
    return result
