"""The Jinja2 environment (autoescape, StrictUndefined, filters) and parallel rendering."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jinja2 import Environment, FileSystemLoader, StrictUndefined, UndefinedError
from markupsafe import Markup, escape

from rewire_site.render import Renderer, fast_escape, make_environment, render_jobs, templates_dir
from rewire_site.write import DoubleWrite, OutputWriter

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "value",
    ["plain", "<b>&'\"", "", "ünï <x>", Markup("<i>safe</i>"), 3.5, 0, None, ["<a>"]],
)
def test_fast_escape_gives_what_markupsafe_gives(value: object) -> None:
    fast = fast_escape(value)
    assert fast == escape(value)
    assert isinstance(fast, Markup)


def _env(tmp_path: Path, templates: dict[str, str]) -> Renderer:
    for name, text in templates.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return Renderer(tmp_path)


def test_autoescape_escapes_record_text(tmp_path: Path) -> None:
    renderer = _env(tmp_path, {"t.html": "<p>{{ page.title }}</p>"})
    out = renderer.render("t.html", {"title": "<script>alert(1)</script>"}).decode()
    assert out == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"


def test_markdown_filters_escape_raw_html(tmp_path: Path) -> None:
    renderer = _env(tmp_path, {"t.html": "{{ page.text|md }}|{{ page.text|md_inline }}"})
    out = renderer.render("t.html", {"text": "*a* <b>"}).decode()
    assert out == "<p><em>a</em> &lt;b&gt;</p>|<em>a</em> &lt;b&gt;"


def test_strict_undefined_fails_loudly(tmp_path: Path) -> None:
    renderer = _env(tmp_path, {"t.html": "{{ page.missing }}"})
    with pytest.raises(UndefinedError):
        renderer.render("t.html", {"title": "x"})


@dataclass(frozen=True)
class _Item:
    label: object
    ok: bool
    children: tuple[_Item, ...] = ()


FAST_PATHS = """\
{% macro show(item) %}<b title="{{ item.label }}">{{ item.label }}</b>{% endmacro %}
{% macro wrap() %}<div>{{ caller() }}</div>{% endmacro %}
<h1>{{ page.title }}</h1>{{ page.meta.name }}|{{ page.meta["name"] }}|{{ page.safe }}
{% for item in page.rows if item.ok %}{{ loop.index }}:{{ show(item) }}
{% if loop.first %}F{% endif %}{% endfor %}
{% for item in page.rows recursive %}<li>{{ item.label }}{{ loop(item.children) }}</li>{% endfor %}
{% set joined = page.rows[0].label ~ page.title %}{{ joined }}|{{ page.rows|length }}
{% call wrap() %}{{ page.rows[1].label }}{% endcall %}{{ page.number }}{{ page.none }}
"""


def _fast_paths_page() -> dict[str, object]:
    leaf = _Item("<leaf & 'quote'>", True)
    return {
        "title": 'A "title" <b>',
        "meta": {"name": "dict <value>"},
        "safe": Markup("<i>safe</i>"),
        "rows": (
            _Item("plain", True, (leaf,)),
            _Item(Markup("<em>markup</em>"), False),
            _Item(3.5, True),
            _Item("ünï <x>", True, (leaf, leaf)),
        ),
        "number": 42,
        "none": None,
    }


def test_fast_code_generator_renders_what_jinja_renders(tmp_path: Path) -> None:
    """`FastCodeGenerator` (inline attribute reads and escaping) gives the bytes Jinja's
    own code generator gives: objects and dicts, Markup, numbers, None, loop filters,
    recursive loops, macros, call blocks, `~` and filters."""
    renderer = _env(tmp_path, {"t.html": FAST_PATHS})
    plain = Environment(
        loader=FileSystemLoader(str(tmp_path)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    page = _fast_paths_page()
    want = plain.get_template("t.html").render(page=page)
    assert "&lt;leaf &amp; &#39;quote&#39;&gt;" in want and "<em>markup</em>" in want
    assert renderer.render("t.html", page).decode() == want


def test_the_fast_paths_are_in_the_compiled_code(tmp_path: Path) -> None:
    env = make_environment(tmp_path)
    code = env.compile("{{ page.title }}", raw=True)
    assert "_rw_escape_str(" in code and "getattr((_rw_o := " in code
    assert "environment.getattr(l_0_page" not in code  # only as the fallback


def test_strict_undefined_fails_loudly_on_an_object_too(tmp_path: Path) -> None:
    renderer = _env(tmp_path, {"t.html": "{{ page.rows[0].missing }}"})
    with pytest.raises(UndefinedError):
        renderer.render("t.html", _fast_paths_page())


def test_templates_dir_finds_the_project_templates() -> None:
    found = templates_dir(ROOT)
    assert (found / "base.html").is_file()
    env = make_environment(found)
    assert env.autoescape is True
    assert {"md", "md_inline"} <= set(env.filters)


@dataclass(frozen=True)
class _Page:
    template: str
    path: str
    title: str


def _make(job: tuple[str, ...]) -> list[_Page]:
    return [_Page("t.html", f"p/{job[0]}/index.html", f"<{job[0]}>")]


def test_pool_and_single_process_write_the_same_bytes(tmp_path: Path) -> None:
    renderer = _env(tmp_path, {"t.html": "<h1>{{ page.title }}</h1>"})
    jobs = [(f"n{i:03d}",) for i in range(300)]
    one = render_jobs(jobs, _make, renderer, OutputWriter(tmp_path / "one"), workers=1, chunk=16)
    writer = OutputWriter(tmp_path / "two", tmp_path / "claims")
    (tmp_path / "claims").mkdir()
    two = render_jobs(jobs, _make, renderer, writer, workers=2, chunk=16)
    assert [f.path for f in one.files] == sorted(f.path for f in one.files)
    assert one.files == two.files
    assert len(one.files) == 300
    assert writer.entries() == tuple(two.files)  # the parent's writer adopted the workers' files
    assert (tmp_path / "two" / "p" / "n007" / "index.html").read_text() == "<h1>&lt;n007&gt;</h1>"


def _sigterm_page(job: tuple[str, ...]) -> list[_Page]:
    import signal

    return [_Page("t.html", f"p/{job[0]}/index.html", str(signal.getsignal(signal.SIGTERM)))]


def test_pool_workers_end_on_sigterm_whatever_the_parent_s_handler(tmp_path: Path) -> None:
    """Pool.terminate ends the workers with SIGTERM while it holds the task queue's lock:
    a worker that kept a handler inherited from the building process (measure/'s launcher
    left one in a test process) waited for that lock for ever, and the build hung."""
    import signal

    def ignore(signum: int, frame: object) -> None:
        pass

    renderer = _env(tmp_path, {"t.html": "{{ page.title }}"})
    previous = signal.signal(signal.SIGTERM, ignore)
    try:
        jobs = [(f"n{i:03d}",) for i in range(40)]
        writer = OutputWriter(tmp_path / "out", tmp_path / "claims")
        (tmp_path / "claims").mkdir()
        render_jobs(jobs, _sigterm_page, renderer, writer, workers=2, chunk=4)
    finally:
        signal.signal(signal.SIGTERM, previous)
    pages = {p.read_text() for p in (tmp_path / "out" / "p").glob("*/index.html")}
    assert pages == {str(signal.SIG_DFL)}


def test_a_path_written_twice_is_refused_naming_both_jobs(tmp_path: Path) -> None:
    renderer = _env(tmp_path, {"t.html": "x"})
    with pytest.raises(DoubleWrite) as refused:
        render_jobs([("same",), ("same",)], _make, renderer, OutputWriter(tmp_path / "out"))
    assert refused.value.path == "p/same/index.html"
    assert (refused.value.first, refused.value.second) == ("page job same", "page job same")


def _make_clash(job: tuple[str, ...]) -> list[_Page]:
    """Every job writes its own page, and jobs 'a' and 'z' also write 'clash.html'."""
    pages = [_Page("t.html", f"p/{job[0]}/index.html", job[0])]
    if job[0] in ("a", "z"):
        pages.append(_Page("t.html", "clash.html", job[0]))
    return pages


def test_workers_refuse_a_path_another_worker_wrote_naming_both_jobs(tmp_path: Path) -> None:
    """Jobs 'a' and 'z' run in different batches (chunk 1, two workers): whichever writes
    'clash.html' second is refused when it writes, and the error names the other job
    from its claim log."""
    renderer = _env(tmp_path, {"t.html": "{{ page.title }}"})
    (tmp_path / "claims").mkdir()
    writer = OutputWriter(tmp_path / "out", tmp_path / "claims")
    jobs = [("a",), *[(f"n{i:02d}",) for i in range(20)], ("z",)]
    with pytest.raises(DoubleWrite) as refused:
        render_jobs(jobs, _make_clash, renderer, writer, workers=2, chunk=1)
    assert refused.value.path == "clash.html"
    assert {refused.value.first, refused.value.second} == {"page job a", "page job z"}
    assert "clash.html: written twice in one build, first by page job " in str(refused.value)


@pytest.fixture(scope="module")
def synth_plan(tmp_path_factory: pytest.TempPathFactory) -> object:
    """A small synthetic catalogue, gathered and derived as `rewire build` does."""
    from rewire_site.build import gather
    from rewire_site.render.derive_stage import plan_site
    from rewire_site.synth import generate_catalogue

    root = tmp_path_factory.mktemp("synth")
    generate_catalogue(root, 120, seed=3)
    return plan_site(gather(root / "records", root).catalogue, root, "2026-01-01")


def test_sorted_views_render_each_row_once_and_the_same_bytes(synth_plan: object) -> None:
    """A protocol's sorted views share their row views and render each row once
    (`SharedRows`); every page is byte for byte what it is when each row is rendered
    on its own page."""
    from dataclasses import replace

    from rewire_site.render.contexts import SortedPage
    from rewire_site.render.plan import SitePlan

    assert isinstance(synth_plan, SitePlan)
    renderer = Renderer(templates_dir(ROOT))
    protocol = next(
        p.id
        for p in synth_plan.catalogue.protocols()
        if len(synth_plan.tables[p.id].column_ids) > 2
    )
    pages = [p for p in synth_plan.make(("protocol", protocol)) if isinstance(p, SortedPage)]
    assert len(pages) > 2
    shared = pages[0].comparison.shared_rows
    assert shared is not None and all(p.comparison.shared_rows is shared for p in pages)
    rendered = [renderer.render(p.template, p) for p in pages]
    rows = len(pages[0].comparison.rows)
    assert rows > 1 and shared.hits == rows * (len(pages) - 1)
    alone = [
        renderer.render(p.template, replace(p, comparison=replace(p.comparison, shared_rows=None)))
        for p in pages
    ]
    assert rendered == alone
    orders = [[r.row.configuration_id for r in p.comparison.rows] for p in pages]
    assert len({tuple(o) for o in orders}) > 1  # the views differ in order, not in rows
    assert all(sorted(o) == sorted(orders[0]) for o in orders)


def test_warm_compiles_the_macro_files_too(tmp_path: Path) -> None:
    """After `warm`, rendering a page that imports a macro file compiles nothing: the
    first edit `rewire serve` renders in its own process paid about 2 CPU seconds to
    compile the project's `_partials/` there."""
    (tmp_path / "_partials").mkdir()
    renderer = _env(
        tmp_path,
        {
            "_partials/_m.html": "{% macro shout(x) %}<b>{{ x }}</b>{% endmacro %}",
            "page.html": '{% import "_partials/_m.html" as m %}{{ m.shout(page.title) }}',
        },
    )
    renderer.warm()
    compiled: list[str | None] = []
    compile_source = renderer.env.compile

    def counting(source: Any, name: str | None = None, *args: Any, **kw: Any) -> Any:
        compiled.append(name)
        return compile_source(source, name, *args, **kw)

    renderer.env.compile = counting  # type: ignore[method-assign]
    assert renderer.render("page.html", {"title": "<x>"}) == b"<b>&lt;x&gt;</b>"
    assert compiled == []
