"""The installed `rewire` console script of the Python running the tests.

Found beside the interpreter (the environment's scripts folder), never through PATH: a
test must run this environment's `rewire`, whether or not the venv is activated."""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path


def rewire_script() -> str:
    """Path of this environment's `rewire` entry point; fails clearly when not installed."""
    name = "rewire.exe" if sys.platform == "win32" else "rewire"
    folders = [Path(sysconfig.get_path("scripts")), Path(sys.executable).parent]
    for folder in folders:
        if (folder / name).is_file():
            return str(folder / name)
    raise AssertionError(
        f"the `rewire` console script is not installed beside {sys.executable} "
        f"(looked in {', '.join(map(str, folders))}): run `pip install -e .`"
    )
