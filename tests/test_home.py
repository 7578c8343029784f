"""The home page (issue 25, Home): the task finder's families (derive/task_families.py),
the results-per-family chart (render/home.py) and the findings moved to /findings/."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from htmltext import flat, page_text
from scenarios import load_scenario, scenario_root

from rewire_site.build import build_site
from rewire_site.derive.task_families import (
    OTHER,
    SUITE,
    TaskFamily,
    TaskRef,
    family_of,
    is_task,
    task_families,
)
from rewire_site.link import Catalogue
from rewire_site.models import Dataset, Evaluation, Protocol
from rewire_site.render.home import family_view, nice_step, results_chart
from rewire_site.render.present.task_families import TASK_FAMILY_LABELS, by_results


@pytest.mark.parametrize(
    ("title", "family"),
    [
        ("prom_300_tata (Feng et al. benchmark)", "promoters"),
        ("Arabidopsis_NonTATA (Feng et al. benchmark)", "promoters"),
        ("human_enhancers_cohn (Genomic Benchmarks)", "enhancers"),
        ("acceptors (Feng et al. benchmark)", "splice_sites"),
        ("H3K4me1 (Feng et al. benchmark)", "histone_marks"),
        ("H3 (Feng et al. benchmark)", "histone_marks"),
        ("4mC_E.coli (Feng et al. benchmark)", "dna_methylation"),
        ("human_ocr_ensembl (Genomic Benchmarks)", "chromatin_accessibility"),
        ("DNase_I (Feng et al. benchmark)", "chromatin_accessibility"),
        ("tf_3 (Feng et al. benchmark)", "transcription_factors"),
        ("lentiMPRA, HepG2 (Tang et al. Task 1)", "regulatory_activity"),
        ("ClinVar missense variants", "variant_effect"),
        ("mouse_0 (Feng et al. benchmark)", OTHER),  # the title does not say what it is
        ("covid (Feng et al. benchmark)", OTHER),
        # whole words only: 'promenade' is not a promoter, 'h3x' is not a histone mark
        ("promenade h3x", OTHER),
    ],
)
def test_a_task_family_follows_the_declared_rule_over_its_titles(title: str, family: str) -> None:
    assert family_of((title,)) == family


def _with(catalogue: Catalogue, *records: object) -> Catalogue:
    return Catalogue.from_records([*catalogue.by_id.values(), *records])  # type: ignore[list-item]


def _scored_catalogue() -> Catalogue:
    """The minimal fixture with an accuracy protocol and four datasets: a promoter task, an
    unnamed task, synthetic random DNA and pre-training data, one evaluation (two results)
    on each; and a run-time evaluation on the promoter task."""
    base = load_scenario("minimal")
    protocol = base.get("fx-protocol", Protocol)
    scored = protocol.model_copy(
        update={
            "id": "fx-protocol-accuracy",
            "metric": protocol.metric.model_copy(
                update={"id": "accuracy", "label": "Accuracy", "unit": "percent"}
            ),
        }
    )
    dataset = base.get("fx-dataset", Dataset)
    datasets = [
        dataset.model_copy(update={"id": "d-prom", "title": "prom_core_all", "synthetic": False}),
        dataset.model_copy(update={"id": "d-misc", "title": "binary", "synthetic": False}),
        dataset.model_copy(update={"id": "d-random", "title": "Random DNA", "synthetic": True}),
        dataset.model_copy(
            update={"id": "d-hg38", "title": "hg38, pre-training data", "synthetic": False}
        ),
    ]
    evaluation = base.get("fx-eval", Evaluation)
    result = evaluation.results[0]
    evaluations = [
        evaluation.model_copy(
            update={
                "id": f"e-{d.id}",
                "dataset": d.id,
                "protocol": scored.id,
                "results": [result, result],
            }
        )
        for d in datasets
    ]
    runtime = base.get("fx-eval-runtime", Evaluation).model_copy(
        update={"id": "e-runtime", "dataset": "d-prom"}
    )
    return _with(base, scored, *datasets, *evaluations, runtime)


def test_families_count_tasks_and_results_of_real_task_data_only() -> None:
    catalogue = _scored_catalogue()
    assert not is_task(catalogue.get("d-random", Dataset))
    assert not is_task(catalogue.get("d-hg38", Dataset))
    families = task_families(catalogue)
    assert [(f.key, len(f.tasks), f.results) for f in families] == [
        ("promoters", 1, 2),  # the run-time result is not a task result
        (OTHER, 1, 2),  # other comes last
    ]
    assert families[0].tasks[0].dataset_ids == ("d-prom",)


def test_a_dataset_listing_several_tasks_is_a_benchmark_suite() -> None:
    catalogue = _scored_catalogue()
    prom = catalogue.get("d-prom", Dataset).model_copy(update={"tasks": ["a", "b"]})
    records = {**catalogue.by_id, "d-prom": prom}
    families = task_families(Catalogue.from_records(records.values()))
    assert [f.key for f in families] == [SUITE, OTHER]


def test_no_family_without_a_task_result() -> None:
    assert task_families(load_scenario("minimal")) == ()  # synthetic data, memory and time
    assert results_chart(()) is None


def test_chart_bars_are_proportional_on_a_round_axis() -> None:
    families = task_families(_scored_catalogue())
    chart = results_chart(families)
    assert chart is not None
    assert [b.label for b in chart.bars] == ["Promoters", "Other tasks"]
    assert chart.bars[0].width == chart.bars[1].width > 0
    assert [t.text for t in chart.ticks] == ["0", "1", "2"]
    assert chart.ticks[-1].x == chart.plot_right  # the axis ends at its last tick
    assert chart.bars[0].width == chart.plot_right - chart.label_width
    assert "Results" in chart.axis_label and "Source:" in chart.source_note
    assert nice_step(388) == 100 and nice_step(12) == 5 and nice_step(3) == 1


def test_home_links_to_findings_and_findings_keep_the_protocol_headlines(
    tmp_path: Path,
) -> None:
    report = build_site(
        scenario_root("setup_rows"), tmp_path / "site", release_date=date(2026, 1, 2)
    )
    home_html = (report.site_dir / "index.html").read_text(encoding="utf-8")
    home = flat(page_text(report.site_dir / "index.html"))
    assert 'href="findings/index.html"' in home_html
    assert 'href="fits/index.html"' in home_html
    assert "Find your task" in home
    assert "depends on the setting" not in home  # the findings left the home page
    assert 'href="models/index.html">Model directory</a>' in home_html
    findings = flat(page_text(report.site_dir / "findings" / "index.html"))
    assert "33.88 GB: depends on the setting over 2 measured settings" in findings
    sitemap = (report.site_dir / "sitemap.xml").read_text(encoding="utf-8")
    assert "/findings/</loc>" in sitemap


def test_family_counts_group_thousands_as_the_chart_does() -> None:
    """The task finder read '18800 results' beside the chart's '18,800' (live home page)."""
    tasks = (TaskRef(("a",), "A", 18_000), TaskRef(("b",), "B", 800))
    family = family_view(TaskFamily("promoters", tasks))
    assert family.counts_text == "2 tasks · 18,800 results"
    one = family_view(TaskFamily("promoters", (TaskRef(("a",), "A", 1),)))
    assert one.counts_text == "1 task · 1 result"


def test_families_with_as_many_results_are_listed_by_name() -> None:
    """derive orders ties by key ('species_origin' after 'dna_methylation'); the page by
    the names readers see ('Coding and species origin' before 'DNA methylation')."""
    one = (TaskRef(("a",), "A", 5),)
    families = (TaskFamily("dna_methylation", one), TaskFamily("species_origin", one))
    names = [TASK_FAMILY_LABELS[f.key] for f in by_results(families)]
    assert names == ["Coding and species origin", "DNA methylation"]
