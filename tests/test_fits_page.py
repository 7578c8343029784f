""" "Does it fit on my GPU?" (fits/index.html) and the memory-curve section of a family
page, from memory-curve records written by the real records writer (tests/fits_scenario.py):
what the page says, that every answer links to the record behind it, the chart and its
table of points, and that every context field is described and shown."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import re
import textwrap
from pathlib import Path

import pytest

from rewire_site.build import gather
from rewire_site.derive.fits import (
    GPU_SIZES_GB,
    curves,
    family_base_pairs,
    largest_batch,
    longest_length,
)
from rewire_site.link import Catalogue
from rewire_site.models import ModelFamily
from rewire_site.render import Renderer
from rewire_site.render.fits import chart as fits_chart
from rewire_site.render.fits import contexts
from rewire_site.render.fits.answers import NOT_STATED, answer_methods, answer_text
from rewire_site.render.fits.pages import FITS_PATH, family_curves, fits_page

pytest.importorskip("measure.memory_curve.records")

from fits_scenario import write_scenario
from htmltext import text_of
from scenarios import copy_closure

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
RELEASE = "2026-11-30-000000000000"
NT = "gfm-guide-20261014-family-nucleotide-transformer"
GENA = "saadat-fellay-20261015-family-gena-lm"


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("curves")
    write_scenario(root)
    return root


@pytest.fixture(scope="module")
def catalogue(scenario: Path) -> Catalogue:
    return gather(scenario / "records", scenario).catalogue


@pytest.fixture(scope="module")
def html(catalogue: Catalogue) -> str:
    page = fits_page(catalogue, RELEASE)
    return Renderer(TEMPLATES).render(page.template, page).decode("utf-8")


def _rows(html: str, caption: str) -> list[list[str]]:
    """Cells of the table whose caption starts with `caption`, as visible text; a cell
    spanning n columns is repeated n times."""
    start = html.index(f">{caption}")
    table = html[start : html.index("</table>", start)]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", table, flags=re.S):
        cells = []
        for attrs, cell in re.findall(r"<t[hd]([^>]*)>(.*?)</t[hd]>", row):
            span = re.search(r'colspan="(\d+)"', attrs)
            text = text_of(cell).replace("\n", " ").strip()
            cells += [text] * (int(span.group(1)) if span else 1)
        rows.append(cells)
    return rows


def test_the_page_says_what_is_compared_and_how(html: str) -> None:
    text = text_of(html).replace("\n", " ")
    assert "peak reserved memory" in text
    assert "torch.cuda.max_memory_reserved() over the measured steps" in text
    assert "Neither includes the CUDA context" in text
    assert "GB of 10^9 bytes" in text and "80 × 10^9 bytes" in text
    assert "All points ran on NVIDIA H200 (150.1 GB as its environment records it)." in text
    assert "Nothing is interpolated" in text and "Nothing is extrapolated" in text
    assert "tokens of each model's own tokeniser, not nucleotides" in text
    assert "28 measured points (29 records) of 2 models under 3 methods; 1 out of memory." in text
    assert "Random weights and synthetic tokens: valid for memory, not for accuracy." in text


def test_full_fine_tuning_table(html: str) -> None:
    rows = _rows(html, "Full fine-tuning: for each GPU memory size")
    assert rows[0] == ["Model", "16 GB", "24 GB", "40 GB", "48 GB", "80 GB", "94 GB", "141 GB"]
    gena, esm = rows[1], rows[2]  # by family title: GENA-LM, Nucleotide Transformer
    assert esm[0].startswith("tiny ESM (tests)")
    assert esm[1] == (
        "Batch 1: 256 tokens (512 tokens did not fit) "
        "Batch 8: does not fit at the shortest measured length (128 tokens) "
        "At 512 tokens: batch 1 does not fit"
    )
    assert esm[4] == (
        "Batch 1: fits at every measured length (up to 1,000 tokens) "
        "Batch 8: 128 tokens (256 tokens did not fit) "
        "At 512 tokens: batch 1 (batch 8 did not fit)"
    )
    # out of memory at 1,000 tokens on the H200: never claimed for 141 GB
    assert esm[7] == (
        "Batch 1: fits at every measured length (up to 1,000 tokens) "
        "Batch 8: 512 tokens (1,000 tokens did not fit) "
        "At 512 tokens: batch 8, the largest measured"
    )
    assert gena[1].startswith("Batch 1: does not fit at the shortest measured length (128 tokens)")


def test_sizes_with_the_same_answers_share_a_cell(html: str) -> None:
    start = html.index(">Full fine-tuning: for each GPU memory size")
    table = html[start : html.index("</table>", start)]
    esm = re.findall(r"<tr>(.*?)</tr>", table, flags=re.S)[2]
    # 16 | 24 | 40 | 48 | 80-94 | 141 GB; each cell names its sizes for a phone's stacked card
    cells = re.findall(r'<td data-label="([^"]*)"(?: colspan="(\d)")?>', esm)
    assert [span for _, span in cells] == ["", "", "", "", "2", ""]
    assert [label for label, _ in cells] == [
        "16 GB", "24 GB", "40 GB", "48 GB", "80 GB to 94 GB", "141 GB"
    ]  # fmt: skip


def test_not_measured_where_a_model_has_no_point(html: str) -> None:
    rows = _rows(html, "Parameter-efficient fine-tuning: for each GPU memory size")
    gena, esm = rows[1], rows[2]
    assert esm[1:] == ["Batch 1: not measured At 512 tokens: not measured at 512 tokens"] * 7
    assert gena[1] == (
        "Batch 1: fits at every measured length (up to 256 tokens) "
        "At 512 tokens: not measured at 512 tokens"
    )


def test_every_answer_links_to_its_record(html: str, catalogue: Catalogue) -> None:
    links = re.findall(r'href="\.\./(evaluations/([^/]+)/index\.html)"', html)
    assert links
    for _, evaluation_id in links:
        assert evaluation_id in catalogue.by_id
    # the 141 GB answer for tiny ESM, full fine-tuning, batch 1 is its 1,000-token point
    assert "../evaluations/rewire-20261130-curves-2300-eval-tiny-esm-full-b1-1000tok/" in html


def test_chart_and_its_table_of_points(html: str) -> None:
    assert html.count('<figure class="chart line-chart">') == 3
    assert '<title id="fits-full-chart-title">Full fine-tuning: peak reserved memory' in html
    assert "4 lines, 11 measured points, 1 out of memory (marked x at the top)" in html
    rows = _rows(html, "Full fine-tuning: every measured point")
    assert rows[0] == ["Model and batch", "128 tokens", "256 tokens", "512 tokens", "1,000 tokens"]
    assert rows[4] == [
        "tiny ESM (tests), batch 8",
        "30.00 (28.00)",
        "60.00 (57.00)",
        "120.00 (113.50)",
        "out of memory",
    ]
    assert rows[2] == [
        "tiny BERT pre-LN (tests), batch 8",
        *["not measured"] * 2,
        "50.00 (47.50)",
        "not measured",
    ]
    inference = _rows(html, "Inference: every measured point")
    assert inference[1][3] == "1.15 (1.05) (measured 2 times, largest shown)"


def test_chart_geometry_stays_inside_the_view(catalogue: Catalogue) -> None:
    page = fits_page(catalogue, RELEASE)
    for method in page.methods:
        chart = method.chart
        assert chart is not None
        for s in chart.series:
            for m in (*s.markers, *s.out_of_memory):
                assert 0 <= m.x <= chart.width and 0 <= m.y <= chart.height, m
        xs = [t.position for t in chart.x_ticks]
        assert xs == sorted(xs) and xs[0] == chart.plot_left and xs[-1] == chart.plot_right
        labelled = [t.label_x for t in chart.x_ticks if t.labelled]
        assert all(b - a >= fits_chart.MIN_TICK_GAP for a, b in itertools.pairwise(labelled))
    full = page.methods[-1].chart
    assert full is not None
    top = float(full.y_ticks[-1].display)
    assert top >= 120.0  # the largest reserved peak drawn
    esm_b8 = next(s for s in full.series if s.label == "tiny ESM (tests), batch 8")
    assert esm_b8.dashed and len(esm_b8.markers) == 3 and len(esm_b8.out_of_memory) == 1


def test_family_section_holds_only_the_familys_models(catalogue: Catalogue) -> None:
    found = curves(catalogue)
    gena = family_curves(catalogue.get(GENA, ModelFamily), found, catalogue)
    assert gena.empty == ""
    assert gena.fits_href == FITS_PATH
    models = {r.model for m in gena.methods for r in m.rows}
    assert models == {"tiny BERT pre-LN (tests)"}
    assert [m.method for m in gena.methods] == ["inference", "peft", "full"]


def test_no_points_no_claims(tmp_path: Path) -> None:
    root = tmp_path
    # the protocol and what it refers to (its dataset; the families of the models it
    # records as not measured), no evaluation
    copy_closure(["rewire-20261130-protocol-gpu-memory-curves"], ROOT / "records", root / "records")
    empty = gather(root / "records", root).catalogue
    page = fits_page(empty, RELEASE)
    assert page.methods == ()
    assert page.empty.startswith("No memory-curve point is recorded yet")
    html = Renderer(TEMPLATES).render(page.template, page).decode("utf-8")
    assert "No memory-curve point is recorded yet" in text_of(html)
    assert "<table" not in html


def _described(cls: type) -> dict[str, bool]:
    found: dict[str, bool] = {}
    for klass in (cls,):
        body = ast.parse(textwrap.dedent(inspect.getsource(klass))).body[0]
        assert isinstance(body, ast.ClassDef)
        items = body.body
        for item, after in zip(items, [*items[1:], None], strict=True):
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                found[item.target.id] = isinstance(after, ast.Expr) and isinstance(
                    getattr(after, "value", None), ast.Constant
                )
    return found


CONTEXT_CLASSES = [
    c
    for module in (contexts, fits_chart)
    for c in vars(module).values()
    if dataclasses.is_dataclass(c) and c.__module__ == module.__name__
]


@pytest.mark.parametrize("cls", CONTEXT_CLASSES, ids=lambda c: c.__name__)
def test_every_context_field_is_described(cls: type) -> None:
    undescribed = [name for name, ok in _described(cls).items() if not ok]
    assert undescribed == []


@pytest.mark.parametrize("cls", CONTEXT_CLASSES, ids=lambda c: c.__name__)
def test_every_context_field_is_shown(cls: type) -> None:
    source = "".join(
        (TEMPLATES / name).read_text()
        for name in (
            "fits.html",
            "_partials/_memory_curves.html",
            "_partials/_fit_answers.html",
            "_partials/_embed_answers.html",
        )
    )
    own = {f.name for f in dataclasses.fields(cls)} - {
        f.name
        for base in cls.__mro__[1:]
        if dataclasses.is_dataclass(base)
        for f in dataclasses.fields(base)
    }
    unused = [name for name in sorted(own) if not re.search(rf"\.{name}\b", source)]
    assert unused == []


@pytest.fixture(scope="module")
def out(scenario: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scenario's site, built by the real build."""
    from datetime import date

    from rewire_site.build import build_site

    site = tmp_path_factory.mktemp("site") / "site"
    build_site(scenario, site, release_date=date(2026, 11, 30), workers=1)
    return site


def test_the_build_writes_the_page_and_links_it(out: Path) -> None:
    page = (out / FITS_PATH).read_text(encoding="utf-8")
    assert "<h1>Does it fit on my GPU?</h1>" in page
    assert page.count('<figure class="chart line-chart">') == 3
    assert 'href="fits/index.html"' in (out / "index.html").read_text(encoding="utf-8")
    gena = (out / "families" / GENA / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="memory-curves">Does it fit on my GPU?</h2>' in gena
    assert 'href="../../fits/index.html"' in gena
    assert "tiny BERT pre-LN (tests)" in gena and "tiny ESM (tests)" not in gena
    # every answer's link resolves to a page of the built site
    for href in set(re.findall(r'href="\.\./\.\./(evaluations/[^"]+)"', gena)):
        assert (out / href).is_file(), href


def test_built_pages_are_strict_html_with_unique_ids(out: Path) -> None:
    html5lib = pytest.importorskip("html5lib")
    ns = "{http://www.w3.org/1999/xhtml}"
    for path in (FITS_PATH, f"families/{GENA}/index.html", f"families/{NT}/index.html"):
        parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
        tree = parser.parse((out / path).read_bytes())
        ids = [e.get("id") for e in tree.iter() if e.get("id")]
        assert len(ids) == len(set(ids)), path
        for table in tree.iter(f"{ns}table"):
            assert table.find(f"{ns}caption") is not None, path
            assert all(th.get("scope") in ("col", "row") for th in table.iter(f"{ns}th")), path


def test_fits_page_takes_its_header_from_page_header() -> None:
    """The header fields of "Does it fit on my GPU?" come from render.contexts.page_header,
    as on every other page; none is filled in by hand."""
    from header_fields import hand_written_headers

    module = ROOT / "src" / "rewire_site" / "render" / "fits" / "pages.py"
    assert hand_written_headers(module) == []


def test_every_method_table_states_the_recipe_its_answers_read(html: str) -> None:
    """Each table says which recipe its answers read, in the records' own words (their
    comparison.adaptation), before the table."""
    text = text_of(html).replace("\n", " ")
    for recipe in ("full fine-tuning, bf16 AdamW", "IA3 (ESM) or LoRA (BERT), frozen backbone"):
        assert f"Every answer in this table reads points measured under one recipe: {recipe}." in (
            text
        )
    full = html[html.index('class="fit-method" data-method="full"') :]
    assert full.index("fit-recipe") < full.index("<table")
    assert "that fit, under the recipe stated above" in text


def test_the_mixed_precision_recipe_is_said_to_be_unmeasured(catalogue: Catalogue) -> None:
    """No point of the common mixed-precision recipe is recorded: the full fine-tuning table
    says so, with 16 against 8 bytes per parameter and each model's states in GB from its
    recorded parameter count; other methods say nothing of it."""
    from rewire_site.render.fits.pages import untested_text

    page = fits_page(catalogue, RELEASE)
    by_method = {m.method: m for m in page.methods}
    note = by_method["full"].untested
    assert note.startswith("Not measured yet: the common mixed-precision recipe (fp32 master")
    assert "take 16 bytes per parameter, against 8 under the recipe of this table" in note
    assert by_method["inference"].untested == by_method["peft"].untested == ""
    found = curves(catalogue)
    sizes = {m.model: m.parameters for p in found.points for m in p.measurements}
    for model, parameters in sizes.items():
        if parameters is not None:
            assert f"{model} {16 * parameters / 1e9:.1f} GB" in note
    # once the recipe has points, the note goes
    mixed = dataclasses.replace(found.points[0], method="full-mixed")
    with_mixed = dataclasses.replace(found, points=(*found.points, mixed))
    assert untested_text(with_mixed, "full", found.models()) == ""


def test_the_shared_process_caveat_follows_the_checks(html: str) -> None:
    """The scenario's fresh-process re-runs reserved more than the shared process, so the
    page says the answers err towards 'fits' (it said 'does not fit' whatever the checks
    showed), naming each check's two figures."""
    text = text_of(html).replace("\n", " ")
    assert "err towards 'does not fit'" not in text
    assert "Re-run alone in a fresh process, 2 points reserved more there" in text
    assert "tiny ESM (tests), full fine-tuning, batch 1, 512 tokens: 22.90 GB fresh" in text
    assert "against 22.50 GB shared" in text
    assert "near a size the answers err towards 'fits'" in text
    assert "within 0.40 GB of a size" in text


def test_the_shared_process_caveat_for_each_direction(catalogue: Catalogue) -> None:
    from rewire_site.render.fits.pages import shared_process_text

    found = curves(catalogue)

    def with_fresh(delta: float | None) -> str:
        points = []
        for p in found.points:
            ms = tuple(
                dataclasses.replace(
                    m,
                    fresh_reserved_gb=(
                        None if delta is None or m.reserved_gb is None else m.reserved_gb + delta
                    ),
                )
                for m in p.measurements
            )
            points.append(dataclasses.replace(p, measurements=ms))
        return shared_process_text(dataclasses.replace(found, points=tuple(points)))

    assert "err towards 'does not fit'" in with_fresh(-0.1)
    assert "err towards 'fits'" in with_fresh(0.1)
    assert "reserved the same there" in with_fresh(0.0)
    assert "which way it differs is not checked" in with_fresh(None)


def test_the_live_catalogues_caveat_reads_its_own_checks(live_catalogue: Catalogue) -> None:
    """On the committed records: the direction the page states is the one the records'
    fresh-process checks give (shared_process_bias), whatever records are added later."""
    from rewire_site.derive.fits import shared_process_bias
    from rewire_site.render.fits.pages import curve_notes

    live = curves(live_catalogue)
    figure = curve_notes(live).figure
    expected = {
        "fresh_higher": "err towards 'fits'",
        "fresh_lower": "err towards 'does not fit'",
        "same": "reserved the same there",
        "mixed": "wrong either way",
        "unchecked": "which way it differs is not checked",
    }
    bias = shared_process_bias(live.checks())
    assert expected[bias] in figure
    assert all(text not in figure for key, text in expected.items() if key != bias)


def test_the_answers_come_first_and_the_method_is_collapsed(html: str) -> None:
    """Issue 25 (Fits): the answer tables lead the page; how the answers are read, the
    charts and the tables of points follow, inside one collapsed <details>, complete."""
    body = html[html.index("<h1>") :]
    first_answer = body.index('<table class="fit-answer"')
    how = body.index('<details class="how-we-know fit-how">')
    assert first_answer < how
    # nothing of the method comes before the first answer
    for method_text in ('class="fit-figure"', 'class="fit-rules"', 'class="fit-method"', "<svg"):
        assert body.index(method_text) > how, method_text
    assert '<details class="how-we-know fit-how" open' not in body
    # the details holds the method complete: notes, every method's fit table, chart, points
    details = body[how : body.index("</details>", how)]
    for method_text in ('class="fit-figure"', 'class="fit-rules"', 'class="fit-lengths"'):
        assert method_text in details
    assert details.count('class="fit-method"') == 3
    assert details.count('<figure class="chart line-chart">') == 3
    # one answer group per GPU size, linked from the size choice
    for size in GPU_SIZES_GB:
        assert f'<a href="#gpu-{size}">{size} GB</a>' in body
        assert f'<h3 id="gpu-{size}">{size} GB GPU</h3>' in body


def _answer_rows(html: str, size: int, method: str) -> dict[str, list[str]]:
    start = html.index(f'<table class="fit-answer" data-method="{method}" data-size="{size}">')
    table = html[start : html.index("</table>", start)]
    rows = {}
    for model, row in re.findall(r'<tr data-model="([^"]+)">(.*?)</tr>', table, flags=re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        rows[model] = [text_of(c).replace("\n", " ").strip() for c in cells]
    return rows


def test_every_answer_is_what_derive_computes(catalogue: Catalogue, html: str) -> None:
    """Each answer cell reads derive.fits' answer for its size, method and model, with
    the base pairs of the model's cited tokeniser (NT: 6-mers after CLS; GENA-LM: BPE)."""
    found = curves(catalogue)
    families = {m: f for f, m in found.models()}
    for size in GPU_SIZES_GB:
        for method in found.methods():
            rows = _answer_rows(html, size, method)
            assert set(rows) == {m for _f, m in found.models()}
            for model, cells in rows.items():
                family = catalogue.by_id[families[model]]
                assert isinstance(family, ModelFamily)
                batch = min(p.batch for p in found.points if p.method == method)
                longest = longest_length(found.curve(model, method, batch), size)
                at = found.at_length(model, method, 512)
                bases = family_base_pairs(family).base_pairs(longest.value or 0)
                claims = longest.state in ("fits_all", "fits_up_to")
                bp = "" if not claims else NOT_STATED if bases is None else f"{bases:,} bp"
                assert cells == [
                    model,
                    f"{bp} {answer_text(longest)}".strip(),
                    answer_text(largest_batch(at, size, 512)),
                ], (size, method, model)
    nt = _answer_rows(html, 24, "full")["tiny ESM (tests)"]
    assert nt[1] == "3,066 bp 512 tokens (1,000 tokens did not fit)"
    gena = _answer_rows(html, 24, "inference")["tiny BERT pre-LN (tests)"]
    assert gena[1].startswith(NOT_STATED)


def test_the_page_says_how_tokens_read_as_base_pairs(html: str) -> None:
    text = text_of(html).replace("\n", " ")
    assert (
        "Nucleotide Transformer: 6-mer tokeniser as its sources state it, 6 bp per token "
        "after the first (CLS) token." in text
    )
    assert "GENA-LM: BPE tokeniser as its sources state it, a varying number" in text


def test_the_mixed_precision_recipe_reads_first_once_measured(catalogue: Catalogue) -> None:
    """Until the common mixed-precision recipe has points the answers say it is not
    measured; once it has, its methods come before bf16-only full fine-tuning, and the
    page says so."""
    page = fits_page(catalogue, RELEASE)
    assert page.recipe_note.startswith("Not measured yet: the common mixed-precision recipe")
    assert [t.method for t in page.answers[0].tables] == ["inference", "peft", "full"]
    found = curves(catalogue)
    mixed = tuple(
        dataclasses.replace(p, method=m)
        for p in found.points
        if p.method == "full"
        for m in ("full-mixed", "full-mixed-ckpt")
    )
    with_mixed = dataclasses.replace(found, points=(*found.points, *mixed))
    page = fits_page(catalogue, RELEASE, with_mixed)
    assert [t.method for t in page.answers[0].tables] == [
        "inference",
        "peft",
        "full-mixed",
        "full-mixed-ckpt",
        "full",
    ]
    assert page.recipe_note.startswith("Full fine-tuning reads the common mixed-precision")
    assert "bf16-only recipe" in page.recipe_note
    assert [m.method for m in page.methods][-1] == "full"
    assert answer_methods(("full", "full-mixed")) == ("full-mixed", "full")
    assert answer_methods(("inference", "full")) == ("inference", "full")


def test_models_not_measured_are_listed_with_the_reason(html: str, catalogue: Catalogue) -> None:
    """A model the protocol's recipe records as not measured is listed on the page, linked
    to its family's page with the recorded reason; the family's own section says why."""
    from rewire_site.derive.fits import unmeasured
    from rewire_site.render.urls import page_of

    found = curves(catalogue)
    items = [i for p in found.protocols if p.recipe for i in p.recipe.not_measured]
    assert items, "the scenario's protocol (the live record) lists models not measured"
    text = " ".join(text_of(html).split())
    assert "Not measured, and why" in text
    for item in items:
        family = catalogue.get(item.family, ModelFamily)
        assert f'href="../{page_of(family)}">{item.model}</a>' in html
        assert " ".join(item.reason.split()) in text
        own = unmeasured(found.protocols, item.family)
        assert {u.family_id for u in own} == {item.family}
        section = family_curves(family, found, catalogue)
        assert section.methods == ()
        assert section.empty.startswith("Not measured. ")
        assert f"{item.model}: {item.reason}" in section.empty
    # a family that has points, or no recorded reason, keeps its own text
    assert family_curves(catalogue.get(GENA, ModelFamily), found, catalogue).empty == ""


def test_a_model_not_measured_must_name_a_recorded_family(tmp_path: Path) -> None:
    from rewire_site.validate import validate_paths

    protocol = "rewire-20261130-protocol-gpu-memory-curves"
    copy_closure([protocol], ROOT / "records", tmp_path / "records")
    path = tmp_path / "records" / f"{protocol}.yaml"
    text = path.read_text(encoding="utf-8")
    family = "family: evo2-gene-completion-family-evo-2"
    assert family in text
    path.write_text(text.replace(family, "family: no-such-family"), encoding="utf-8")
    report = validate_paths([tmp_path / "records"], tmp_path, cache=False)
    found = [(p.field, p.message) for p in report.errors]
    assert (
        "recipe.not_measured.0.family",
        "'no-such-family' refers to no record (expected the id of a model family)",
    ) in found
