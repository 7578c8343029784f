"""Folders a command cannot write into, for fault tests: a read-only folder and a full disk.

A read-only folder is made with `chmod` where that binds (not as root), else with a
read-only tmpfs; a full disk is a tiny tmpfs filled up. Mounting needs root (or
CAP_SYS_ADMIN): where it is refused, the test is skipped with the reason."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def _mount(folder: Path, options: str) -> None:
    """Mount a tmpfs with `options` on `folder`, or skip the test saying why."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", str(folder)], capture_output=True, check=False)


def _writable(folder: Path) -> bool:
    probe = folder / ".probe"
    try:
        probe.write_bytes(b"")
    except OSError:
        return False
    probe.unlink()
    return True


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[Path]:
    """`folder` (created), read-only while the block runs."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o555)
    mounted = False
    try:
        if _writable(folder):  # root ignores the mode bits
            folder.chmod(0o755)
            _mount(folder, "ro,size=64k")
            mounted = True
        yield folder
    finally:
        if mounted:
            _unmount(folder)
        folder.chmod(0o755)


@contextlib.contextmanager
def full_disk(folder: Path) -> Iterator[Path]:
    """`folder` (created) on a tmpfs of 4 KiB holding a 4 KiB file: no room for more."""
    folder.mkdir(parents=True, exist_ok=True)
    _mount(folder, "size=4k")
    try:
        with contextlib.suppress(OSError):
            (folder / "filler").write_bytes(b"\0" * 8192)
        yield folder
    finally:
        _unmount(folder)
