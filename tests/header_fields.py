"""Which page contexts a module builds with header fields written out by hand instead of
`**page_header(...)` (render.contexts): the header is written once, in `page_header`."""

from __future__ import annotations

import ast
from pathlib import Path

from rewire_site.render.contexts import PageHeader

HEADER_FIELDS = frozenset(PageHeader.__annotations__)


def hand_written_headers(module: Path) -> list[str]:
    """'<line>: <call>(<fields>)' for every call in `module` that passes a page-header
    field (template, path, root, ...) as a keyword argument of its own."""
    found: list[str] = []
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        own = sorted(k.arg for k in node.keywords if k.arg in HEADER_FIELDS)
        # `template` or `root` given by hand: a page header (a Link's or row's `path`
        # alone is not one).
        if "template" in own or "root" in own:
            name = ast.unparse(node.func)
            found.append(f"{node.lineno}: {name}({', '.join(own)})")
    return found
