"""Which files under `records/` are read: regular `*.yaml` files inside the project.

A pull request can put anything in `records/`; what is read from there reaches public CI
logs. So, before any file is opened:

- a symbolic link that leads out of the project (`/etc/passwd`, a token file, `/dev/zero`)
  is an error that names the link and quotes nothing of what it points to; a broken
  link or a loop of links is an error too;
- a named pipe, a device or a socket is an error (opening a pipe would wait for ever,
  reading a device would never end): a record is a regular file;
- a folder that cannot be read is an error, not skipped; a link to a folder is an error
  (folders are not followed: a link could lead out of the project or into a loop);
- a record saved as `.yml` (or `.YAML`) is an error that says to rename it, never
  ignored.

"The project" is the project root when the path searched lies under it, else the path
searched itself (`rewire validate --root tests/fixtures/minimal tests/bad_records/x`
reads the files under `tests/bad_records/x`). Reading a file is bounded as well
(`load.read_bounded`: its size by `fstat` before reading, then at most
`MAX_FILE_BYTES + 1` bytes).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .load import kind_of_file
from .problems import Problem

RECORD_SUFFIX = ".yaml"
ROWS_SUFFIX = ".csv"
"""The rows of a result table (`table_rows`): found so that one no table names is an
error, read only through the table that names it."""
MISSING = "no such file or folder"


@dataclass
class Found:
    """Record files found (absolute or as given, as strings, sorted) and what was
    refused on the way."""

    names: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    """Rows files (`*.csv`) found, each a regular file inside the project."""


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def boundary(path: Path, root: Path | None) -> str:
    """The real folder that files found under `path` must stay inside: the project
    root's when `path` lies under `root` as written (links not followed), else
    `path`'s own."""
    if root is not None and _inside(os.path.abspath(path), os.path.abspath(root)):  # noqa: PTH100
        return os.path.realpath(root)
    return os.path.realpath(path)


def _problem(path: str, message: str) -> Problem:
    return Problem(Path(path), 1, "", message)


def _link_problem(name: str, inside: str) -> Problem | None:
    """None when the link `name` leads to a regular file inside `inside`."""
    try:
        target = os.path.realpath(name, strict=True)
    except (OSError, RuntimeError):
        return _problem(name, "a symbolic link that leads nowhere (broken, or a loop of links)")
    if not _inside(target, inside):
        return _problem(
            name,
            "a symbolic link to a file outside the project: only files inside the project "
            "are read; copy the record here instead",
        )
    try:
        mode = os.stat(target).st_mode  # noqa: PTH116
    except OSError as error:
        return _problem(name, f"cannot read: {error.strerror}")
    if not stat.S_ISREG(mode):
        return _problem(
            name, f"a symbolic link to {kind_of_file(mode)}: a record is a regular file"
        )
    return None


def _misnamed(name: str) -> bool:
    """A name that looks like a record file but is not read as one (`x.yml`, `x.YAML`)."""
    lowered = name.lower()
    return not name.endswith(RECORD_SUFFIX) and lowered.endswith((".yaml", ".yml"))


def scan(folder: Path, inside: str, found: Found) -> None:
    """Add the record files under `folder` (and the problems met) to `found`."""
    pending = [os.fspath(folder)]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as entries:
                listed = list(entries)
        except OSError as error:
            found.problems.append(_problem(directory, f"cannot read the folder: {error.strerror}"))
            continue
        for entry in listed:
            name = entry.path
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(name)
                    continue
                is_link = entry.is_symlink()
                if is_link and os.path.isdir(name):  # noqa: PTH112
                    found.problems.append(
                        _problem(
                            name,
                            "a symbolic link to a folder: folders under records/ are not "
                            "followed; move the record files here instead",
                        )
                    )
                    continue
                if _misnamed(entry.name):
                    stem = entry.name.rsplit(".", 1)[0]
                    found.problems.append(
                        _problem(
                            name,
                            f"record files end in {RECORD_SUFFIX}: this one is not read; "
                            f"rename it to {stem}{RECORD_SUFFIX}",
                        )
                    )
                    continue
                rows = entry.name.endswith(ROWS_SUFFIX)
                if not rows and not entry.name.endswith(RECORD_SUFFIX):
                    continue
                if is_link:
                    problem = _link_problem(name, inside)
                elif entry.is_file(follow_symlinks=False):
                    problem = None
                else:
                    mode = entry.stat(follow_symlinks=False).st_mode
                    problem = _problem(name, f"{kind_of_file(mode)}: a record is a regular file")
            except OSError as error:
                problem = _problem(name, f"cannot read: {error.strerror}")
            if problem is not None:
                found.problems.append(problem)
            elif rows:
                found.tables.append(name)
            else:
                found.names.append(name)


def find(paths: Iterable[Path], root: Path | None) -> Found:
    """Record files named by `paths` (files as given, folders searched), unique, in the
    order given with each folder's files sorted; the problems met, one per path."""
    found = Found()
    names: list[str] = []
    tables: list[str] = []
    for path in paths:
        inside = boundary(path, root)
        problem = _outside(path, inside)
        if problem is not None:
            found.problems.append(problem)
            continue
        if path.is_dir():
            folder = Found()
            scan(path, inside, folder)
            names.extend(sorted(folder.names))
            tables.extend(sorted(folder.tables))
            found.problems.extend(folder.problems)
        elif os.path.islink(path):  # noqa: PTH114
            problem = _link_problem(os.fspath(path), inside)
            if problem is not None:
                found.problems.append(problem)
            elif path.name.endswith(ROWS_SUFFIX):
                tables.append(os.fspath(path))
            else:
                names.append(os.fspath(path))
        elif path.exists() and path.name.endswith(ROWS_SUFFIX):
            tables.append(os.fspath(path))  # read through the table that names it
        elif path.exists():
            names.append(os.fspath(path))  # named by the caller: read (or refused) as it is
        else:
            found.problems.append(_problem(os.fspath(path), MISSING))
    found.names = list(dict.fromkeys(names))
    found.tables = list(dict.fromkeys(tables))
    return found


def _outside(path: Path, inside: str) -> Problem | None:
    """An error when `path`, followed through its links, leaves `inside`."""
    try:
        real = os.path.realpath(path, strict=True)
    except (OSError, RuntimeError):
        return None  # a broken link or loop: reported where it is read
    if _inside(real, inside):
        return None
    return _problem(
        os.fspath(path),
        "a symbolic link to a place outside the project: only files inside the project are read",
    )


def rows_problem(path: Path, root: Path | None) -> Problem | None:
    """None when `path` (a table's rows file) may be read: a regular file, or a link to
    one inside the project; else what stops it (nothing of a link's target is quoted).
    A missing file is `MISSING`."""
    name = os.fspath(path)
    if os.path.islink(name):  # noqa: PTH114
        return _link_problem(name, boundary(path.parent, root))
    try:
        mode = os.stat(name).st_mode  # noqa: PTH116
    except FileNotFoundError:
        return _problem(name, MISSING)
    except OSError as error:
        return _problem(name, f"cannot read: {error.strerror}")
    if not stat.S_ISREG(mode):
        return _problem(name, f"{kind_of_file(mode)}: a rows file is a regular file")
    return None


__all__ = [
    "MISSING",
    "RECORD_SUFFIX",
    "ROWS_SUFFIX",
    "Found",
    "boundary",
    "find",
    "rows_problem",
    "scan",
]
