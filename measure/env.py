"""Capture of the environment a measurement ran in (GPU, driver, versions, host, commit).

Returns plain dictionaries shaped like `rewire_site.models.evaluation.Environment`, so that
a worker process can write them into its JSON log and the record writer can validate them.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PACKAGES: tuple[str, ...] = (
    "torch",
    "transformers",
    "deepspeed",
    "peft",
    "accelerate",
    "flash-attn",
    "pydantic",
    "numpy",
)


def now_utc() -> str:
    """The current time, ISO 8601 in UTC with seconds."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def package_versions(names: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """Installed versions of the named distributions; absent ones are left out."""
    versions: dict[str, str] = {}
    for name in names:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions


def host_cpu() -> str:
    """CPU model and the number of cores this process may use."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{model} ({cores} cores available)"


def git_commit(root: Path | None = None) -> str:
    """The commit of the Rewire checkout (REWIRE_GIT_COMMIT when set: a copy of the tree that
    travels without `.git` carries it there), with '+dirty' when measure/ has local changes."""
    given = os.environ.get("REWIRE_GIT_COMMIT")
    if given:
        return given
    cwd = str(root) if root else None
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "measure"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (no git repository)"
    return commit + ("+dirty" if dirty else "")


def nvidia_driver() -> str:
    """The NVIDIA driver version, from nvidia-smi (or 'unknown')."""
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    return lines[0] if lines else "unknown"


def gpu_facts() -> dict[str, Any]:
    """GPU name, memory (GB = 1e9 bytes), CUDA version of torch and visible device count."""
    import torch

    if not torch.cuda.is_available():
        return {
            "gpu": "none (CPU)",
            "gpu_memory_gb": 0.0,
            "cuda": "none",
            "visible_gpus": 0,
        }
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    return {
        "gpu": props.name,
        "gpu_memory_gb": round(props.total_memory / 1e9, 3),
        "cuda": str(torch.version.cuda),
        "visible_gpus": torch.cuda.device_count(),
    }


def command_line(argv: list[str] | None = None) -> str:
    """The exact command line, shell-quoted (REWIRE_COMMAND when a wrapper set it)."""
    given = os.environ.get("REWIRE_COMMAND")
    if given:
        return given
    return shlex.join(argv if argv is not None else sys.argv)


def capture(
    *,
    seed: int,
    started_at: str,
    ended_at: str,
    attention_backend: str | None = None,
    command: str | None = None,
    note: str | None = None,
) -> dict[str, Any]:
    """The environment of this process, shaped like the Environment record model."""
    facts = gpu_facts()
    return {
        "gpu": facts["gpu"],
        "gpu_memory_gb": facts["gpu_memory_gb"],
        "gpu_count": 1,
        "driver": nvidia_driver(),
        "cuda": facts["cuda"],
        "python": platform.python_version(),
        "packages": package_versions(),
        "attention_backend": attention_backend,
        "host_cpu": host_cpu(),
        "git_commit": git_commit(),
        "command": command or command_line(),
        "seed": seed,
        "started_at": started_at,
        "ended_at": ended_at,
        "note": note,
    }


def gpu_slots(gpus: Sequence[int], device: str) -> list[str]:
    """The slots a run spreads its processes over: the `--gpus` given, else every GPU torch
    sees; ['cpu'] for a CPU run (tests)."""
    if gpus:
        return [str(g) for g in gpus]
    if device == "cpu":
        return ["cpu"]
    import torch

    return [str(i) for i in range(torch.cuda.device_count())]
