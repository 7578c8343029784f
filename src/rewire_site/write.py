"""Write the site atomically: build into a temporary folder beside the target, then swap
it in with renames. A build that raises, is killed or runs out of disk leaves the previous
site as it was, byte for byte. The writer refuses to write one output path twice.

Ownership: every site (and every staging folder) holds a marker file, `.rewire-site`.
The builder replaces only a folder that holds it, or an empty one; anything else is an
`OutputError` naming the folder and what is in it, and nothing is changed. A site built
before the marker existed is refused too: delete it yourself and build again.

The swap: on Linux one `renameat2(RENAME_EXCHANGE)` call exchanges the staging folder
and the site, so the site's path always holds a whole site, the previous or the new one,
whenever the process is killed. Where that call is missing (another OS, a file system
without it), two renames do the job and a kill between them is repaired by the next
build (below).

Concurrency and kills: the whole build holds an exclusive lock (`flock`) on the folder
that holds the site, so two builds into one place run one after the other. Under the
lock, leftovers of a killed build are tidied first: a killed swap's previous site
(`.NAME.old-*`) is put back when the site is missing, and marked staging or trash
folders are removed. The previous site is renamed aside, then to `.NAME.trash-*` before
it is removed, so a half-removed folder is never mistaken for a whole one.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path, PurePosixPath
from typing import TypeVar

from .release import ManifestEntry, sha256_bytes

T = TypeVar("T")

MARKER = ".rewire-site"
"""The file that says: this folder is a site rewire built, and may replace."""
MARKER_TEXT = (
    "This folder is a website built by `rewire build`.\n"
    "Rewire replaces a folder on the next build only when it holds this file (or is\n"
    "empty). Delete this file to keep rewire from ever replacing the folder.\n"
)
_PROJECT_MARKERS = (".git", "pyproject.toml", "records")
_LEFTOVER_KINDS = ("new", "old", "trash")
"""`.NAME.new-*` staging, `.NAME.old-*` a previous site mid-swap, `.NAME.trash-*` one
being removed."""
SHOWN_ENTRIES = 5
"""How many of a refused folder's entries the error names."""


CLAIMS_PREFIX = "rewire-claims-"
"""Start of the name of a build's claims folder in the temporary folder:
`rewire-claims-<pid of the build>-<random>` (`remove_stale_claims`)."""
_CLAIMS_NAME = re.compile(r"rewire-claims-([0-9]+)-[A-Za-z0-9_]+")


def _process_alive(pid: int) -> bool:
    """False only when no process `pid` exists (a live one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def remove_stale_claims(folder: Path | None = None) -> list[Path]:
    """Remove the claims folders that killed builds left in `folder` (default: the
    temporary folder): only folders named as a build names them, owned by this user,
    holding only claim logs (`*.log` files), whose build process no longer exists.
    Returns the folders removed."""
    folder = Path(tempfile.gettempdir()) if folder is None else folder
    removed: list[Path] = []
    try:
        candidates = [entry for entry in os.scandir(folder) if entry.name.startswith(CLAIMS_PREFIX)]
    except OSError:
        return removed
    for entry in candidates:
        match = _CLAIMS_NAME.fullmatch(entry.name)
        try:
            if (
                match is None
                or not entry.is_dir(follow_symlinks=False)
                or entry.stat(follow_symlinks=False).st_uid != os.getuid()
                or _process_alive(int(match[1]))
            ):
                continue
            path = Path(entry.path)
            if all(
                p.is_file() and not p.is_symlink() and p.suffix == ".log" for p in path.iterdir()
            ):
                shutil.rmtree(path)
                removed.append(path)
        except OSError:
            continue  # gone meanwhile, or not ours to remove
    return removed


RENAME_EXCHANGE = True
"""Swap with one atomic `renameat2(RENAME_EXCHANGE)` where the system has it (set False
to use two renames everywhere)."""
_AT_FDCWD = -100
_RENAME_EXCHANGE_FLAG = 2
_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV}


class OutputError(Exception):
    """An output path written twice or outside the site, or an output folder that is not
    the builder's to replace."""


class TargetRefused(OutputError):
    """The output folder is not the builder's to replace; nothing was changed."""


class DoubleWrite(OutputError):
    """One output path written twice in one build: refused when the second write comes,
    naming the path and both writers."""

    def __init__(self, path: str, first: str, second: str) -> None:
        self.path = path
        self.first = first
        self.second = second
        super().__init__(
            f"{path}: written twice in one build, first by {first}, then by {second} "
            "(two outputs share a path)"
        )

    def __reduce__(self) -> tuple[type[DoubleWrite], tuple[str, str, str]]:
        """Pickled with its three parts (a render worker raises it to the parent)."""
        return (DoubleWrite, (self.path, self.first, self.second))


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
_APPEND = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
_BAD_PARTS = frozenset({"", ".", ".."})


class OutputWriter:
    """The one writer of a build: every output file (pages, data files, static files,
    the release table) goes through `write_bytes`, which writes each path once and
    remembers its SHA-256 and size.

    A second write of a path is refused when it comes (`DoubleWrite`), naming both
    writers (the `by` each write gave), as pelican's writer does. Within one process the
    writer remembers who wrote what; render workers (forked processes, `for_process`)
    create each file with O_EXCL, so a path another process wrote is refused too, and
    each process first appends `path<TAB>writer` to its own claim log in `claims` (a
    folder outside the site), where the refused writer finds the other's name.
    """

    def __init__(self, root: Path, claims: Path | None = None) -> None:
        self.root = root
        self.claims = claims
        """Folder of the per-process claim logs (None: one process, no log)."""
        self._entries: dict[str, ManifestEntry] = {}
        self._writers: dict[str, str] = {}
        self._folders: set[str] = set()
        self._pid = os.getpid()
        self._log: int | None = None
        self._root = os.fspath(root)
        self._child: OutputWriter | None = None

    @staticmethod
    def normalise(relative: str) -> str:
        """'a/b/../c' style paths are refused; returns the path with '/' separators."""
        parts = relative.split("/")
        if (
            relative
            and "\\" not in relative
            and _BAD_PARTS.isdisjoint(parts)
            and relative != MARKER
            and "\t" not in relative
            and "\n" not in relative
        ):
            return relative  # the common case: already a plain relative path
        pure = PurePosixPath(relative.replace("\\", "/"))
        if not relative or pure.is_absolute() or any(p in ("..", "") for p in pure.parts):
            raise OutputError(f"output path {relative!r} is not a relative path inside the site")
        if "\t" in relative or "\n" in relative:
            raise OutputError(f"output path {relative!r} holds a tab or a line break")
        parts = [p for p in pure.parts if p != "."]
        if not parts:
            raise OutputError(f"output path {relative!r} names no file")
        if parts == [MARKER]:
            raise OutputError(f"output path {relative!r} is the builder's own marker file")
        return "/".join(parts)

    def __contains__(self, relative: str) -> bool:
        return self.normalise(relative) in self._entries

    def for_process(self) -> OutputWriter:
        """This writer in this process: itself in the process that made it; in a forked
        worker, a writer of its own over the same folder and claim logs (the entries it
        makes go back to the parent, which `adopt`s them)."""
        pid = os.getpid()
        if pid == self._pid:
            return self
        if self._child is None or self._child._pid != pid:
            self._child = OutputWriter(self.root, self.claims)
            self._child._folders = set(self._folders)  # folders made before the fork exist
        return self._child

    def adopt(self, entries: list[ManifestEntry]) -> None:
        """Take the entries of files a worker process wrote (they are on disk already)."""
        for entry in entries:
            self._entries[entry.path] = entry

    def _claim(self, key: str, by: str) -> None:
        if self.claims is None:
            return
        if self._log is None:
            self._log = os.open(self.claims / f"{os.getpid()}.log", _APPEND, 0o600)
        os.write(self._log, f"{key}\t{by}\n".encode())

    def _first_writer(self, key: str, by: str) -> str:
        """Who wrote `key` before `by` (from the claim logs), for the error message."""
        found: list[str] = []
        if self.claims is not None:
            for log in sorted(self.claims.glob("*.log")):
                for line in log.read_text(encoding="utf-8").splitlines():
                    path, _, writer = line.partition("\t")
                    if path == key:
                        found.append(writer)
        if by in found:
            found.remove(by)  # this write's own claim
        return found[0] if found else "another writer (the file was already there)"

    def write_bytes(self, relative: str, data: bytes, by: str = "the build") -> ManifestEntry:
        """Write `data` at `relative` (a new file); `by` names the writer in a
        `DoubleWrite` error. Returns the file's manifest entry."""
        key = self.normalise(relative)
        first = self._writers.get(key)
        if first is not None or key in self._entries:
            raise DoubleWrite(key, first or self._first_writer(key, by), by)
        self._claim(key, by)
        folder, _, _ = key.rpartition("/")
        if folder and folder not in self._folders:
            os.makedirs(f"{self._root}/{folder}", exist_ok=True)  # noqa: PTH103 (str: no Path per file)
            self._folders.add(folder)
        try:
            fd = os.open(f"{self._root}/{key}", _NEW_FILE, 0o666)
        except FileExistsError:
            raise DoubleWrite(key, self._first_writer(key, by), by) from None
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        entry = ManifestEntry(key, sha256_bytes(data), len(data))
        self._entries[key] = entry
        self._writers[key] = by
        return entry

    def write_text(self, relative: str, text: str, by: str = "the build") -> ManifestEntry:
        return self.write_bytes(relative, text.encode("utf-8"), by)

    def copy_file(self, relative: str, source: Path, by: str = "the build") -> ManifestEntry:
        return self.write_bytes(relative, source.read_bytes(), by)

    def entries(self) -> tuple[ManifestEntry, ...]:
        """Every file written so far (by this process, and adopted), sorted by path."""
        return tuple(self._entries[k] for k in sorted(self._entries))

    def close(self) -> None:
        """Close this process's claim log."""
        if self._log is not None:
            os.close(self._log)
            self._log = None


def _describe(folder: Path) -> str:
    """'a.txt, docs/, ... (N entries)': the first few entries of a folder, sorted."""
    names = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir())
    shown = ", ".join(names[:SHOWN_ENTRIES])
    more = f" and {len(names) - SHOWN_ENTRIES} more" if len(names) > SHOWN_ENTRIES else ""
    return f"{shown}{more} ({len(names)} entr{'y' if len(names) == 1 else 'ies'})"


def is_marked(folder: Path) -> bool:
    """True when `folder` is a real folder that holds the builder's marker file."""
    marker = folder / MARKER
    return folder.is_dir() and not folder.is_symlink() and marker.is_file()


def check_target(site_dir: Path) -> None:
    """Raise `TargetRefused` unless `site_dir` is absent, empty, or a site the builder made
    (holds `.rewire-site`). Nothing is changed either way."""
    if site_dir.is_symlink() or (site_dir.exists() and not site_dir.is_dir()):
        raise TargetRefused(
            f"{site_dir}: exists and is not a folder; it is not replaced. Nothing was changed"
        )
    if not site_dir.is_dir():
        return
    found = [m for m in _PROJECT_MARKERS if (site_dir / m).exists()]
    if found:
        raise TargetRefused(
            f"{site_dir}: holds {', '.join(found)}; it looks like a project folder, not a "
            "built site, so it is not replaced. Nothing was changed. Choose another output "
            "folder (--out)"
        )
    if is_marked(site_dir) or not any(site_dir.iterdir()):
        return
    raise TargetRefused(
        f"{site_dir}: not replaced, because rewire did not build it (it has no {MARKER} "
        f"file) and it is not empty: it holds {_describe(site_dir)}. Nothing was changed. "
        "Choose a new or empty output folder (--out); if the folder is a site an older "
        "rewire built, check that it holds nothing of yours, delete it yourself and "
        "build again"
    )


def _sibling(site_dir: Path, kind: str) -> Path:
    return site_dir.with_name(f".{site_dir.name}.{kind}-{uuid.uuid4().hex[:12]}")


def _leftovers(site_dir: Path) -> list[tuple[str, Path]]:
    """(kind, path) of every `.NAME.new-*`, `.NAME.old-*`, `.NAME.trash-*` folder."""
    found: list[tuple[str, Path]] = []
    if not site_dir.parent.is_dir():
        return found
    for path in sorted(site_dir.parent.iterdir()):
        for kind in _LEFTOVER_KINDS:
            named = path.name.startswith(f".{site_dir.name}.{kind}-")
            if named and path.is_dir() and not path.is_symlink():
                found.append((kind, path))
    return found


def remove_tree(folder: Path) -> None:
    """Remove a folder the builder made, its marker last: a folder killed mid-removal
    still says it is the builder's (or is empty), so the next build finishes the job."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for child in folder.iterdir():
        if child.name == MARKER:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                child.unlink()
    with contextlib.suppress(FileNotFoundError):
        (folder / MARKER).unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()


def recover(site_dir: Path) -> list[str]:
    """Tidy what a killed build left beside `site_dir` (call with the lock held): when
    the site is missing and a previous site renamed aside by a swap is there, put it
    back; remove marked (or empty) staging and trash folders. Returns what was done."""
    done: list[str] = []
    leftovers = _leftovers(site_dir)
    if not site_dir.exists() and not site_dir.is_symlink():
        previous = [p for kind, p in leftovers if kind == "old" and is_marked(p)]
        if previous:
            chosen = max(previous, key=lambda p: p.stat().st_mtime_ns)
            chosen.rename(site_dir)
            done.append(f"put back the previous site from {chosen.name} (a swap was cut off)")
            leftovers = [(k, p) for k, p in leftovers if p != chosen]
    for _, path in leftovers:
        if is_marked(path) or not any(path.iterdir()):
            remove_tree(path)
            done.append(f"removed {path.name}, left by a build that did not finish")
    return done


@contextlib.contextmanager
def build_lock(folder: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold an exclusive `flock` on `folder` (the folder that holds the site) for the
    whole build. A second build waits for it, after telling `on_wait` why. The lock goes
    with the process: a killed build holds nothing."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            if on_wait is not None:
                on_wait(f"another build is writing into {folder}; waiting for it to finish")
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def exchange(first: Path, second: Path) -> bool:
    """Swap two existing paths in one atomic step (Linux `renameat2` with
    RENAME_EXCHANGE). False, with nothing changed, where the system cannot."""
    if not RENAME_EXCHANGE:
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):  # not glibc 2.28+ / not Linux
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    done = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE_FLAG
    )
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(first), None, str(second))


def swap_in(staging: Path, site_dir: Path, *, remove_old: bool = True) -> Path | None:
    """Replace `site_dir` with `staging` (same parent folder, same file system): one
    atomic exchange where the system has it, else two renames that put the previous
    site back on failure. The previous site ends as `.NAME.trash-*` (via `.NAME.old-*`
    with two renames); it is removed, or with `remove_old=False` returned (the caller
    removes it)."""
    if site_dir.is_dir() and not site_dir.is_symlink() and exchange(staging, site_dir):
        trash = _sibling(site_dir, "trash")
        staging.rename(trash)  # `staging` holds the previous site now
        if remove_old:
            remove_tree(trash)
            return None
        return trash
    old: Path | None = None
    if site_dir.exists():
        old = _sibling(site_dir, "old")
        site_dir.rename(old)
    try:
        staging.rename(site_dir)
    except BaseException:
        if old is not None and not site_dir.exists():
            old.rename(site_dir)
        raise
    if old is None:
        return None
    trash = _sibling(site_dir, "trash")
    old.rename(trash)
    if remove_old:
        remove_tree(trash)
        return None
    return trash


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
        remove_tree(self.path)
        self.seconds = time.perf_counter() - started

    def wait(self) -> float:
        if self._thread is not None:
            self._thread.join()
        return self.seconds


def atomic_write_site(
    build: Callable[[OutputWriter], T],
    site_dir: Path,
    on_swapped: Callable[[Path | None], None] | None = None,
    on_wait: Callable[[str], None] | None = None,
) -> T:
    """Run `build` with a writer into a fresh folder beside `site_dir`, then swap it in.
    If `build` raises (KeyboardInterrupt included), the folder is removed and `site_dir`
    is left untouched. The previous site is removed before this returns, or, with
    `on_swapped`, left renamed aside and handed to it (None when there was none).

    Raises `TargetRefused`, changing nothing, when `site_dir` is not the builder's to
    replace (`check_target`). `on_wait` hears why the build waits for another one."""
    site_dir = site_dir.absolute()
    if site_dir.is_symlink() or (site_dir.exists() and not site_dir.is_dir()):
        check_target(site_dir)  # raises before anything is made
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    with build_lock(site_dir.parent, on_wait):
        recover(site_dir)
        check_target(site_dir)
        staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.new-", dir=site_dir.parent))
        try:
            (staging / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
            staging.chmod(0o755)
            remove_stale_claims()
            with tempfile.TemporaryDirectory(prefix=f"{CLAIMS_PREFIX}{os.getpid()}-") as claims:
                writer = OutputWriter(staging, Path(claims))
                try:
                    result = build(writer)
                finally:
                    writer.close()
            old = swap_in(staging, site_dir, remove_old=on_swapped is None)
        except BaseException:
            remove_tree(staging)
            raise
        if on_swapped is not None:
            on_swapped(old)
    return result


# The served site (`rewire serve`): files rewritten one by one, in place


Manifest = dict[str, ManifestEntry]
"""Site path -> its entry (SHA-256, size), for every file the builder wrote."""


def write_atomic(site_dir: Path, relative: str, data: bytes) -> None:
    """Write `data` at `relative` under `site_dir` through a temporary file and
    `os.replace`: readers see the old file or the new one, never a part of it."""
    key = OutputWriter.normalise(relative)
    target = site_dir / key
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.parent / f".{target.name}.rewire-{os.getpid()}.tmp"
    temporary.write_bytes(data)
    temporary.replace(target)


def update_file(site_dir: Path, manifest: Manifest, relative: str, data: bytes) -> bool:
    """Write `relative` when its bytes differ from the manifest's; True when written."""
    digest = sha256_bytes(data)
    known = manifest.get(relative)
    if known is not None and known.sha256 == digest and known.size_bytes == len(data):
        return False
    write_atomic(site_dir, relative, data)
    manifest[relative] = ManifestEntry(relative, digest, len(data))
    return True


def remove_files(site_dir: Path, manifest: Manifest, paths: Iterable[str]) -> int:
    """Remove files the builder wrote (and folders they leave empty); returns how many."""
    removed = 0
    root = site_dir.resolve()
    for relative in sorted(paths):
        if manifest.pop(relative, None) is None:
            continue
        target = site_dir / relative
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
            removed += 1
        folder = target.parent
        while folder.resolve() != root:
            try:
                folder.rmdir()
            except OSError:
                break
            folder = folder.parent
    return removed
