"""The site builder must not pull in torch, DeepSpeed or flash-attn (design.md: measure/
imports rewire_site, never the reverse; heavy imports happen inside `rewire measure`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from entry_point import rewire_script

HEAVY = ("torch", "deepspeed", "flash_attn", "transformers", "peft")


def test_cli_import_pulls_no_gpu_stack() -> None:
    code = (
        "import sys, rewire_site.cli, rewire_site.link, rewire_site.models;"
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_rewire_help_runs_through_the_entry_point() -> None:
    """The console script beside this Python, whatever PATH holds (no venv activated)."""
    env = {"PATH": "/nonexistent", "HOME": str(Path.home())}
    out = subprocess.run(
        [rewire_script(), "--help"], capture_output=True, text=True, check=False, env=env
    )
    assert out.returncode == 0
    assert "Usage" in out.stdout
