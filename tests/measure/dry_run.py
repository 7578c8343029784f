"""The environment of a device script's dry run on this machine (`DRY_RUN=1`, see
measure/device_common.sh), shared by the device-script tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def dry_run_env(runs: Path, out: Path, **extra: str) -> dict[str, str]:
    """No wheels (the environment has pydantic), this Python first on PATH as `python3`,
    the run folders under `runs` and $OUT at `out`."""
    return {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": f"{REPO / 'src'}{os.pathsep}{REPO}",
        "DRY_RUN": "1",
        "WHEELS": "",
        "R": str(runs),
        "OUT": str(out),
        **extra,
    }
