"""The Jinja2 environment: compiled once, autoescape on, StrictUndefined, every filter and
global a template may use registered here and nowhere else.

Templates only display what the page contexts hold: loops and conditionals, no
arithmetic, no lookups.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any, cast

import markupsafe
from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template, nodes
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from markupsafe import Markup, escape

from ..config import TEMPLATES_DIR
from ..markdown import render_block, render_inline
from ..models.common import is_web_url
from .present.fields import field_text
from .present.values import ROUNDING_RULE
from .urls import record_path

PACKAGE_ROOT = Path(__file__).resolve().parents[3]
"""The repository root when the package runs from a checkout (src layout)."""


def templates_dir(root: Path) -> Path:
    """`templates/` of the project at `root`, else the one beside this checkout."""
    for candidate in (root / TEMPLATES_DIR, PACKAGE_ROOT / TEMPLATES_DIR):
        if (candidate / "base.html").is_file():
            return candidate
    raise FileNotFoundError(f"{root / TEMPLATES_DIR}: no base.html (templates folder missing)")


_new_str = str.__new__
_escape_inner: Callable[[str], str] | None = getattr(markupsafe, "_escape_inner", None)
"""markupsafe 3's C escaping of a plain str (None on markupsafe 2, whose `escape` is C)."""


def fast_escape(value: Any) -> Markup:
    """`markupsafe.escape` with the same result, faster for plain strings (most template
    output): markupsafe 3's `Markup(...)` constructor runs in Python, `str.__new__` not;
    and for `Markup` (every macro's output), returned as it is instead of copied."""
    kind = type(value)
    if kind is str and _escape_inner is not None:
        return _new_str(Markup, _escape_inner(value))
    if kind is Markup:  # already safe (a macro's output): `escape` would copy it
        return cast(Markup, value)
    return escape(value)


class FastCodeGenerator(CodeGenerator):
    """Jinja's code generator with two hot paths inlined in the compiled Python, same
    results (checked byte for byte by tests/test_golden.py and tests/test_environment.py):

    - `a.b`: Jinja calls `environment.getattr(a, "b")` (a Python method: getattr, else
      `a["b"]`, else undefined); here `getattr(a, "b", missing)` inline and that method
      only when the attribute is missing (about 800 attribute reads per evaluation page);
    - `{{ x }}`: Jinja calls `escape(x)`; here a plain `str` goes straight to markupsafe's
      C escaping (`_escape_inner`, markupsafe 3) and anything else to `escape` (about 500
      per evaluation page). The result is joined into the page either way, so a `str`
      where `escape` gives a `Markup` of the same text changes no byte.

    It pays, with `FastEscapeTemplate`: a cold build of the 10,000-evaluation synthetic
    catalogue (`rewire_site.build.build_site`, the build `bench_vs_hugo.py` times) took
    43.5 / 45.0 CPU s against 55.3 / 57.9 with Jinja's own code generator and template
    class (two alternating runs each, load 9-11, 2026-12-02).

    Both use assignment expressions on two scratch names (`_rw_o`, `_rw_v`), which Jinja
    never generates; each is read right after it is set, so nested uses do not clash.
    Jinja writes no comprehension or lambda (where one could not stand): loop filters
    and macros are functions. Async environments get Jinja's own code.
    """

    @optimizeconst
    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        if self.environment.is_async or "getattr" in vars(self.environment):
            # an environment whose `getattr` is replaced (tests/test_render_contract.py
            # records every read through it) gets Jinja's call to it
            super().visit_Getattr(node, frame)
            return
        self.write("(_rw_v if (_rw_v := getattr((_rw_o := ")
        self.visit(node.node, frame)
        self.write(f"), {node.attr!r}, missing)) is not missing else environment.getattr(")
        self.write(f"_rw_o, {node.attr!r}))")

    def _fast_output(self, frame: Frame, finalize: Any) -> bool:
        return (
            not self.environment.is_async
            and _escape_inner is not None
            and not frame.eval_ctx.volatile
            and bool(frame.eval_ctx.autoescape)
            and finalize.src is None
        )

    def _output_child_pre(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if self._fast_output(frame, finalize):
            self.write("(_rw_escape_str(_rw_v) if type(_rw_v := (")
        else:
            super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if self._fast_output(frame, finalize):
            self.write(")) is str else escape(_rw_v))")
        else:
            super()._output_child_post(node, frame, finalize)


class FastEscapeTemplate(Template):
    """A template whose `{{ ... }}` output goes through `fast_escape`. Compiled templates
    look `escape` up in their module namespace at call time; this sets it there (and
    `_rw_escape_str`, the C escaping of a plain `str` that `FastCodeGenerator` writes)."""

    @classmethod
    def _from_namespace(
        cls,
        environment: Environment,
        namespace: MutableMapping[str, Any],
        globals: MutableMapping[str, Any],
    ) -> Template:
        namespace["escape"] = fast_escape
        namespace["_rw_escape_str"] = _escape_inner
        return super()._from_namespace(environment, namespace, globals)

    def _get_default_module(self, ctx: Any = None) -> Any:
        """Jinja's own, with the set difference in C: every `{% import %}` calls this on
        every render, and Jinja's `set - dict.keys()` runs in Python."""
        if ctx is not None:
            keys = ctx.globals_keys.difference(self.globals)
            if keys:
                return self.make_module({k: ctx.parent[k] for k in keys})
        if self._module is None:
            self._module = self.make_module()
        return self._module


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
    env.template_class = FastEscapeTemplate
    env.code_generator_class = FastCodeGenerator
    env.globals["rounding_rule"] = ROUNDING_RULE  # said once on pages that list values
    env.filters["md"] = render_block
    env.filters["md_inline"] = render_inline
    env.filters["record_path"] = _record_path
    env.filters["field_text"] = field_text  # a field path in reader words ('result 1')
    env.tests["web_url"] = is_web_url
    return env


def _record_path(record_id: str, kind: str) -> str:
    """`{{ id|record_path("source") }}`: the page of a record, from `urls.record_path`
    (the one place page paths are made; templates write no 'sources/.../index.html')."""
    return record_path(kind, record_id)


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

    def warm(self) -> None:
        """Compile every template now, the macro files (`_*.html`, which pages import
        while they render) too: before a pool forks, so workers share them, and before
        `rewire serve`'s first edit, whose pages are rendered in this process (compiling
        the macro files there cost it about 2 CPU seconds)."""
        for name in self.env.list_templates(extensions=["html"]):
            if name.startswith("_"):
                self.env.get_template(name)  # kept in the environment's cache
            else:
                self.template(name)

    def render(self, name: str, page: Any) -> bytes:
        """One page as UTF-8 bytes; the context object is available as `page`."""
        return self.template(name).render(page=page).encode("utf-8")
