"""Jinja2 environment: compiled once, autoescape on, StrictUndefined, filters in one place.

Templates only display what `pages` and `derive` computed: loops and conditionals, no
arithmetic, no lookups. Every filter they may use is registered here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template

from .config import TEMPLATES_DIR
from .markdown import render_block, render_inline

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""The repository root when the package runs from a checkout (src layout)."""


def templates_dir(root: Path) -> Path:
    """`templates/` of the project at `root`, else the one beside this checkout."""
    for candidate in (root / TEMPLATES_DIR, PACKAGE_ROOT / TEMPLATES_DIR):
        if (candidate / "base.html").is_file():
            return candidate
    raise FileNotFoundError(f"{root / TEMPLATES_DIR}: no base.html (templates folder missing)")


def make_environment(template_root: Path) -> Environment:
    """The one Jinja2 environment of a build."""
    env = Environment(
        loader=FileSystemLoader(str(template_root)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=-1,
    )
    env.filters["md"] = render_block
    env.filters["md_inline"] = render_inline
    return env


class Renderer:
    """Renders page contexts with templates compiled once per process."""

    def __init__(self, template_root: Path) -> None:
        self.env = make_environment(template_root)
        self._templates: dict[str, Template] = {}

    def template(self, name: str) -> Template:
        found = self._templates.get(name)
        if found is None:
            found = self._templates[name] = self.env.get_template(name)
        return found

    def render(self, name: str, page: Any) -> bytes:
        """One page as UTF-8 bytes; the context object is available as `page`."""
        return self.template(name).render(page=page).encode("utf-8")
