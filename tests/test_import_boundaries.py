"""The site builder must not pull in torch, DeepSpeed or flash-attn (design.md: measure/
imports rewire_site, never the reverse; heavy imports happen inside `rewire measure`)."""

from __future__ import annotations

import ast
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


def private_imports(package: Path) -> list[str]:
    """`module: name` for every `from <module of the package> import _name` under
    `package`: a private name used outside its own module."""
    found: list[str] = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if not node.level and not (node.module or "").startswith(package.name):
                continue  # another project's name
            found += [
                f"{path.relative_to(package.parent)}: {node.module}.{alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def test_no_module_imports_a_private_name_of_another() -> None:
    package = Path(__file__).resolve().parents[1] / "src" / "rewire_site"
    assert private_imports(package) == []


def test_the_private_import_check_sees_one(tmp_path: Path) -> None:
    package = tmp_path / "rewire_site"
    (package / "render").mkdir(parents=True)
    (package / "render" / "pool.py").write_text("def _hidden() -> None: ...\n")
    (package / "serve.py").write_text(
        "from .render.pool import _hidden\nfrom os import _exit\nimport typing as _t\n"
    )
    assert private_imports(package) == ["rewire_site/serve.py: render.pool._hidden"]
