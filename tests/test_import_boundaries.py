"""The site builder must not pull in torch, DeepSpeed or flash-attn (design.md: measure/
imports rewire_site, never the reverse; heavy imports happen inside `rewire measure`)."""

from __future__ import annotations

import subprocess
import sys

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
    out = subprocess.run(["rewire", "--help"], capture_output=True, text=True, check=False)
    assert out.returncode == 0
    assert "Usage" in out.stdout
