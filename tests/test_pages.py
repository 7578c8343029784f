"""Page contexts: typed, built from derived facts, and every field shown by its template."""

from __future__ import annotations

import dataclasses
import html.parser
import importlib
import re
import shutil
from datetime import date
from pathlib import Path

import pytest
from scenarios import load_scenario, scenario_root

from rewire_site import config
from rewire_site.build import build_site, gather
from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.derive.evaluation_facts import evaluation_facts
from rewire_site.derive.reproduction import protocol_reproduction_groups
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol
from rewire_site.render import Renderer, contexts, home, index, templates_dir
from rewire_site.render import evaluation as evaluation_pages
from rewire_site.render import protocol as protocol_pages
from rewire_site.render.contexts import Link
from rewire_site.render.filters import filter_index
from rewire_site.render.model_compare import ModelComparePage, ModelTriplePage

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = templates_dir(ROOT)


def _facts(catalogue: object) -> contexts.SiteFacts:
    filters = filter_index(catalogue)  # type: ignore[arg-type]
    links = (Link("Release and checksums (gzip)", "downloads/release.csv.gz"),)
    return contexts.SiteFacts(
        release_id="2026-10-22-000000000000",
        flags=flags_by_evaluation(catalogue),  # type: ignore[arg-type]
        artifact_hashes={},
        filters=filters,
        filter_hrefs=index.filter_hrefs(filters),
        downloads=links,
        release_download=links[0],
    )


def _evaluation_page(
    evaluation: Evaluation, catalogue: Catalogue, facts: contexts.SiteFacts
) -> contexts.EvaluationPage:
    """The page of `evaluation` with its derived facts, as the derive stage computes them."""
    groups = {
        p.id: tuple(protocol_reproduction_groups(p, catalogue, flags=facts.flags))
        for p in catalogue.protocols()
    }
    derived = evaluation_facts(
        evaluation, catalogue, facts.flags, facts.artifact_hashes, facts.artifact_logs, groups
    )
    words = evaluation_pages.evaluation_words(evaluation, catalogue, facts.flags, derived)
    return evaluation_pages.evaluation_page(evaluation, catalogue, facts, words)


def _template_source(name: str) -> str:
    """A template with the partials it includes (one level deep is all there is)."""
    text = (TEMPLATES / name).read_text()
    for partial in re.findall(r'(?:include|import)\s+"([^"]+)"', text):
        text += (TEMPLATES / partial).read_text()
        for inner in re.findall(r'import "([^"]+)"', (TEMPLATES / partial).read_text()):
            text += (TEMPLATES / inner).read_text()
    return text + (TEMPLATES / "base.html").read_text()


PAGE_TYPES = {
    contexts.ProtocolPage: "protocol.html",
    contexts.SortedPage: "protocol_sorted.html",
    contexts.EvaluationPage: "evaluation.html",
    contexts.ConfigurationPage: "configuration.html",
    contexts.DatasetPage: "dataset.html",
    contexts.FamilyPage: "family.html",
    contexts.SourcePage: "source.html",
    contexts.QuestionPage: "question.html",
    contexts.FindingsPage: "findings.html",
    home.HomePage: "home.html",
    contexts.SearchPage: "search.html",
    contexts.DownloadsPage: "downloads.html",
    contexts.FilterPage: "filter.html",
    ModelComparePage: "model_compare.html",
    ModelTriplePage: "model_compare3.html",
}
NOT_DISPLAYED = {"template", "path"}
"""Fields that route a page rather than show on it."""


@pytest.mark.parametrize("page_type", list(PAGE_TYPES), ids=lambda t: t.__name__)
def test_every_context_field_is_shown_by_its_template(page_type: type) -> None:
    """The template displays every field of its context: no field is computed in vain,
    and nothing the template needs is missing from the dataclass (StrictUndefined)."""
    source = _template_source(PAGE_TYPES[page_type])
    unused = [
        f.name
        for f in dataclasses.fields(page_type)
        if f.name not in NOT_DISPLAYED
        and not re.search(rf"page\.{f.name}\b", source)
        and not re.search(rf"= page\.{f.name}\b", source)
    ]
    assert unused == []


def test_protocol_page_with_a_recorded_conflict() -> None:
    catalogue = load_scenario("ia3_conflict")
    protocol = catalogue.protocols()[0]
    page = protocol_pages.protocol_page(protocol, catalogue, _facts(catalogue))
    cells = [c for row in page.comparison.rows for c in row.cells if c.cell.status == "value"]
    assert cells and all(c.cell.excluded and not c.cell.best for c in cells)
    assert all(c.sort_value == "" for c in cells)  # excluded results sort last with JS too
    assert page.results.evaluation_count == len(catalogue.evaluations_of(protocol.id))
    assert page.questions, "the question that links the protocol is listed"
    assert page.path == f"protocols/{protocol.id}/index.html" and page.root == "../../"


def test_sorted_pages_one_per_shown_column() -> None:
    catalogue = load_scenario("seed_memory")
    protocol = catalogue.protocols()[0]
    facts = _facts(catalogue)
    table = protocol_pages.protocol_table(protocol, catalogue, facts)
    sorted_pages = protocol_pages.sorted_pages(protocol, catalogue, facts, table)
    assert [p.comparison.table.sort_column for p in sorted_pages] == list(table.column_ids)
    assert table.measurements is None  # published evaluations only
    for page in sorted_pages:
        assert page.root == "../../../../"
        column = page.comparison.table.sort_column
        values = [
            c.cell.value
            for r in page.comparison.rows
            for c in r.cells
            if c.cell.column_id == column and c.cell.value is not None
        ]
        assert values == sorted(values)  # peak memory: lower is better, best first


def test_evaluation_page_of_a_reproduction_has_pairs_and_a_chart() -> None:
    catalogue = load_scenario("reproduction")
    facts = _facts(catalogue)
    measured = next(
        e for e in catalogue.of_kind(Evaluation) if e.origin.value == "rewire_measurement"
    )
    page = _evaluation_page(measured, catalogue, facts)
    assert len(page.reproductions) == 1
    reproduction = page.reproductions[0]
    assert reproduction.measured_evaluation_ids == (measured.id,)
    assert reproduction.columns and page.reproduction_charts[0] is not None
    assert page.status_line.startswith("Rewire measurement")
    published = catalogue.get(measured.reproduces or "", Evaluation)
    again = _evaluation_page(published, catalogue, facts)
    assert again.reproductions == page.reproductions
    html = Renderer(TEMPLATES).render(page.template, page).decode()
    assert "<svg" in html and 'role="img"' in html and "<title id=" in html
    assert html.count("<caption") >= 2  # the pairs table is the chart's text alternative


def test_missing_metadata_reason_is_shown_not_blank() -> None:
    catalogue = load_scenario("seed_memory")
    protocol = catalogue.get(catalogue.protocols()[0].id, Protocol)
    page = protocol_pages.protocol_page(protocol, catalogue, _facts(catalogue))
    replicates = next(f for f in page.facts if f.label == "replicates")
    assert replicates.missing and replicates.value == "Not reported"
    metadata = {m.label: m for m in page.metadata}
    assert "replicates: Not reported by the source" in " ".join(
        v.text for v in metadata["missing metadata"].values
    )


def test_correction_link_uses_the_configured_repository(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(config, "REPOSITORY_URL", "https://example.org/fork/rewire")
    catalogue = load_scenario("seed_memory")
    evaluation = catalogue.of_kind(Evaluation)[0]
    page = _evaluation_page(evaluation, catalogue, _facts(catalogue))
    assert page.correction_url == (
        f"https://example.org/fork/rewire/blob/main/records/{evaluation.id}.yaml"
    )


def test_filter_facets_count_this_pages_evaluations() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.protocols()[0]
    page = protocol_pages.protocol_page(protocol, catalogue, _facts(catalogue))
    facets = {f.key: f for f in page.results.facets}
    # Only facets with two or more values: one value filters nothing (defect 7).
    assert list(facets) == ["origin"]  # one model, protocol, dataset, setup and metric
    assert all(len(f.options) >= 2 for f in facets.values())
    total = len(catalogue.evaluations_of(protocol.id))
    assert sum(o.count for o in facets["origin"].options) == total
    assert all(o.href for f in facets.values() for o in f.options)
    for row in page.results.rows:
        assert set(dict(row.facet_values)) == {"origin"}


def test_no_filter_form_over_a_single_evaluation() -> None:
    catalogue = load_scenario("seed_memory")
    evaluation = catalogue.of_kind(Evaluation)[0]
    page = _evaluation_page(evaluation, catalogue, _facts(catalogue))
    assert page.results.facets == ()
    html = Renderer(TEMPLATES).render(page.template, page).decode()
    assert 'class="filters"' not in html and "Filter evaluations" not in html


def test_record_markdown_cannot_inject_html(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(scenario_root("minimal"), root)
    record = root / "records" / "fx-protocol.yaml"
    record.write_text(
        record.read_text().replace(
            "summary: Peak GPU memory of one training step.",
            "summary: 'Peak <script>alert(1)</script> [x](javascript:alert(2)) *memory*'",
        )
    )
    catalogue = gather(root / "records", root).catalogue
    protocol = catalogue.get("fx-protocol", Protocol)
    page = protocol_pages.protocol_page(protocol, catalogue, _facts(catalogue))
    html = Renderer(TEMPLATES).render(page.template, page).decode()
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'href="javascript:' not in html
    assert "<em>memory</em>" in html


def test_findings_page_leads_with_findings_not_counts(tmp_path: Path) -> None:
    report = build_site(
        scenario_root("setup_rows"), tmp_path / "site", release_date=date(2026, 1, 2)
    )
    home = (report.site_dir / "findings" / "index.html").read_text()
    headings = ("Findings", "The catalogue at a glance", "Protocols by area", "Newest records",
                "Coverage and remaining gaps")  # fmt: skip
    positions = [home.index(f">{h}</h2>") for h in headings]
    assert positions == sorted(positions)  # findings first
    # Without a declared reading, 33.88 GB is reproduced only if every measured setting
    # agrees; bf16 (31 GB) agrees only if the source's 'GB' means 10^9 bytes.
    assert "33.88 GB: depends on the setting over 2 measured settings" in home
    assert "11.49 GB: not reproduced over 2 measured settings" in home
    assert "Where reproductions exist" not in home
    assert "Agree within tolerance" in home


def test_protocol_and_evaluation_pages_lead_with_their_headline(tmp_path: Path) -> None:
    report = build_site(
        scenario_root("setup_rows"), tmp_path / "site", release_date=date(2026, 1, 2)
    )
    protocol = (report.site_dir / "protocols/repro-peak-memory/index.html").read_text()
    assert protocol.index('class="headline"') < protocol.index('id="overview"')
    assert (
        "2 published values: 1 not reproduced, 1 agreeing in some measured settings only"
        in protocol
    )
    evaluation = (report.site_dir / "evaluations/eval-nt-rewire-fp32-ds/index.html").read_text()
    assert evaluation.index('class="headline"') < evaluation.index('id="results"')
    assert "does not agree: differs by 45.3%, beyond ±10%" in evaluation
    # 'Reproduced' names only agreement: a chart legend lists 'agrees' only when drawn.
    assert "Reproduced (Rewire)" not in protocol
    assert protocol.count('data-series="reproduced"') == 1


def test_download_this_release_leads_to_the_release(tmp_path: Path) -> None:
    """Defect 8: the link led to a checksum list."""
    report = build_site(
        scenario_root("reproduction"), tmp_path / "site", release_date=date(2026, 1, 2)
    )
    html = (report.site_dir / "protocols/repro-peak-memory/index.html").read_text()
    link = re.search(r'<a href="([^"]+)">Download this release[^<]*</a>', html)
    assert link is not None and link.group(1) == "../../downloads/index.html"
    release_page = (report.site_dir / "downloads/index.html").read_text()
    assert "downloads/release.csv.gz" in release_page and "api/" in release_page


EDITOR_TEXT = re.compile(
    r"The seed pages? (?:shows?|does not|do not)|Batch review|transcribed from the seed page",
    re.IGNORECASE,
)
"""Openings of notes written for editors (how a record was transcribed), not readers."""


def test_editor_notes_are_never_shown(tmp_path: Path) -> None:
    """Defect 6: builder notes such as 'The seed page shows ...' reached 17 pages."""
    root = tmp_path / "project"
    shutil.copytree(scenario_root("reproduction"), root)
    record = root / "records" / "repro-peak-memory.yaml"
    note = "The seed page shows this protocol without a reviewer; assumed from its sibling."
    record.write_text(record.read_text() + f"editor_notes:\n  - '{note}'\n")
    report = build_site(root, tmp_path / "site", release_date=date(2026, 1, 2))
    for page in report.site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "assumed from its sibling" not in text, page
        assert not EDITOR_TEXT.search(text), page


def test_golden_and_real_pages_hold_no_editor_text() -> None:
    golden = ROOT / "tests" / "golden" / "expected"
    shown = [
        p.relative_to(golden).as_posix()
        for p in golden.rglob("*.html")
        if EDITOR_TEXT.search(p.read_text(encoding="utf-8"))
    ]
    assert not shown, shown


LABEL = re.compile(
    r"(?i)"
    r"^(?:met|Verified|Evidence complete|source checked|Source checked|agrees within .*|"
    r"best of \d+ comparable|\(best of \d+ comparable\))$"
    r"|reproduced within|agrees within"
)
"""Labels that claim a check passed: each must name the code that set it."""


class _Labels(html.parser.HTMLParser):
    """Text of every element, with the nearest enclosing data-derived attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []
        self.found: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        derived = dict(attrs).get("data-derived")
        inherited = derived or (self.stack[-1][1] if self.stack else None)
        self.stack.append((tag, inherited))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and LABEL.search(text):
            self.found.append((text, self.stack[-1][1] if self.stack else None))


VOID = {"br", "img", "meta", "link", "input", "hr", "source", "wbr", "area", "col"}


def _resolve(dotted: str) -> object:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_every_passing_label_on_the_golden_site_names_its_code_path() -> None:
    """Every 'met', 'Verified', 'Source checked', 'agrees within' or 'best of N comparable'
    on the golden site sits in an element whose data-derived attribute names the function
    that set it, and that function exists."""
    golden = ROOT / "tests" / "golden" / "expected"
    missing, seen = [], 0
    for page in sorted(golden.rglob("*.html")):
        parser = _Labels()
        parser.feed(page.read_text(encoding="utf-8"))
        for text, derived in parser.found:
            seen += 1
            if derived is None:
                missing.append(f"{page.relative_to(golden)}: {text!r}")
            else:
                assert callable(_resolve(derived)), derived
    assert seen, "no passing label on the golden site to check"
    assert not missing, "\n".join(missing[:20])


def test_protocol_page_shows_measurements_in_their_own_table_by_setup() -> None:
    catalogue = load_scenario("setup_rows")
    protocol = catalogue.protocols()[0]
    facts = _facts(catalogue)
    tables = protocol_pages.protocol_table(protocol, catalogue, facts)
    page = protocol_pages.protocol_page(protocol, catalogue, facts, tables)
    assert page.comparison.id == "comparison" and page.measurements is not None
    assert page.measurements.id == "comparison-measurements"
    assert page.counts_text == "4 recorded evaluations, 7 metric rows"
    setup = page.measurements.rows[1]
    assert setup.configuration_href == "families/nucleotide-transformer/index.html"
    assert setup.evaluations == ()  # each cell links to its own evaluation instead
    assert [c.href for c in setup.cells] == [
        None,
        "evaluations/eval-nt-rewire-fp32-ckpt/index.html"
        "#result-eval-nt-rewire-fp32-ckpt-checkpointing",
        "evaluations/eval-nt-rewire-fp32-ds/index.html#result-eval-nt-rewire-fp32-ds-deepspeed",
    ]
    # One pre-sorted page per column either table shows; a table without the column
    # (the published one has no baseline) keeps its default order.
    sorted_pages = protocol_pages.sorted_pages(protocol, catalogue, facts, tables)
    assert [p.path.split("/")[-2] for p in sorted_pages] == [
        "baseline",
        "checkpointing",
        "deepspeed",
    ]
    first = sorted_pages[0]
    assert first.measurements is not None
    assert first.measurements.table.sort_column == "baseline"
    assert first.comparison.table.sort_column == "checkpointing"


def test_evaluation_page_lists_the_measured_quantities() -> None:
    """Observations recorded beside a result show as rows labelled by the result's column;
    display rounding keeps the stored value beside it."""
    catalogue = load_scenario("incomplete_run")
    evaluation = catalogue.get("eval-nt-rewire-short", Evaluation)
    protocol = catalogue.get(evaluation.protocol, Protocol)
    rows = evaluation_pages.observation_rows(evaluation, protocol)
    labels = {c.id: c.label for c in protocol.columns}
    expected = [
        (labels[r.column], o.name, o.unit) for r in evaluation.results for o in r.observations
    ]
    assert [(row.column, row.name, row.unit) for row in rows] == expected
    assert [row.name for row in rows] == ["measured-steps", "peak-memory-gpu-0"]
    assert rows[0].value == "1" and rows[0].exact == "1.0"
    assert rows[0].note == "of the 3 the protocol asks" and rows[1].note == ""
    page = _evaluation_page(evaluation, catalogue, _facts(catalogue))
    assert page.observations == rows


def test_published_evaluation_has_no_measured_quantities() -> None:
    catalogue = load_scenario("incomplete_run")
    evaluation = catalogue.get("eval-nt-published", Evaluation)
    page = _evaluation_page(evaluation, catalogue, _facts(catalogue))
    assert page.observations == ()
