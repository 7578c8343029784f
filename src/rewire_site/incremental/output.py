"""Writing into the served site: each changed file atomically, stale files removed, the
manifest of every file kept up to date."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

from ..release import ManifestEntry, sha256_bytes
from ..write import OutputWriter

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
