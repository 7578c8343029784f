"""The chooser pages (chooser/): task pages grouped by protocol with 'where sources
overlap', a family's task-by-metric matrix, two-model comparisons of comparable pairs only.
Built from the committed records of the imported sources."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.derive.overlaps import not_comparable, task_groups, task_links
from rewire_site.link import Catalogue
from rewire_site.models import Dataset, Evaluation, Protocol
from rewire_site.render.chooser import contexts
from rewire_site.render.chooser.pages import chooser_pages

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
RELEASE = "2026-11-30-000000000000"


@pytest.fixture(scope="module")
def catalogue(live_catalogue: Catalogue) -> Catalogue:
    """The live catalogue, gathered once per test process (tests/conftest.py)."""
    return live_catalogue


@pytest.fixture(scope="module")
def built(catalogue: Catalogue) -> list[object]:
    return list(chooser_pages(catalogue, flags_by_evaluation(catalogue), RELEASE))


@pytest.mark.parametrize(
    ("page_type", "template"),
    [
        (contexts.TaskPage, "task.html"),
        (contexts.FamilyMatrixPage, "family_matrix.html"),
        (contexts.ComparePage, "compare.html"),
        (contexts.ChooserIndexPage, "chooser.html"),
    ],
)
def test_every_context_field_is_shown(page_type: type, template: str) -> None:
    source = (TEMPLATES / template).read_text() + (TEMPLATES / "base.html").read_text()
    source += (TEMPLATES / "_partials" / "_chooser_value.html").read_text()
    unused = [
        f.name
        for f in dataclasses.fields(page_type)
        if f.name not in {"template", "path"} and not re.search(rf"page\.{f.name}\b", source)
    ]
    assert unused == []


def test_linked_datasets_exist_and_form_one_task(catalogue: Catalogue) -> None:
    """A same-task link (same files and split) puts both datasets in one task; a related
    link never does."""
    datasets = {d.id for d in catalogue.of_kind(Dataset)}
    groups = task_groups(catalogue)
    links = task_links(catalogue)
    assert any(link.same for link in links) and any(not link.same for link in links)
    for link in links:
        assert link.first in datasets and link.second in datasets
        together = any(link.first in g and link.second in g for g in groups)
        assert together == link.same, link
    assert sum(len(g) for g in groups) == len(datasets)


def test_a_task_merge_needs_declared_files_and_split() -> None:
    """Feng et al.'s `regulatory` (150,000 training sequences) was merged with Genomic
    Benchmarks' `human_ensembl_regulatory` by name alone: now only a dataset record's
    same_task link, which must state files and split evidence, merges; the name match is
    a related link, and each dataset is its own task."""
    from pydantic import ValidationError

    from rewire_site.models.dataset import SameTask

    def dataset(rid: str, **links: object) -> Dataset:
        return Dataset.model_validate(
            {
                "id": rid,
                "kind": "dataset",
                "title": rid,
                "summary": "s",
                "areas": ["dna-genomes"],
                "contexts": ["research"],
                "description": "d",
                "version": None,
                "generator": None,
                "seed": None,
                "access": None,
                "licence": None,
                "synthetic": False,
                "missing_metadata": {
                    k: {"reason": "unreported", "note": "n"}
                    for k in ("version", "generator", "seed", "access", "licence")
                },
                **links,
            }
        )

    same = {"dataset": "b", "files": "same counts and length", "split": "same sizes"}
    merged = Catalogue.from_records([dataset("a", same_task=[same]), dataset("b")])
    assert task_groups(merged) == [("a", "b")]
    related = {"dataset": "b", "note": "the same name only"}
    apart = Catalogue.from_records([dataset("a", related=[related]), dataset("b")])
    assert task_groups(apart) == [("a",), ("b",)]
    for missing in ("files", "split"):
        with pytest.raises(ValidationError):
            SameTask.model_validate({k: v for k, v in same.items() if k != missing})


def test_feng_regulatory_is_not_merged_with_genomic_benchmarks(catalogue: Catalogue) -> None:
    groups = task_groups(catalogue)
    feng, gb = "feng-2024-dataset-regulatory", "genomic-benchmarks-dataset-human-ensembl-regulatory"
    assert (feng,) in groups and (gb,) in groups
    link = next(link for link in task_links(catalogue) if link.first == feng)
    assert not link.same and link.second == gb
    # the three with stated sizes on both sides stay one task each
    for first, second in (
        ("feng-2024-dataset-human-worm", "genomic-benchmarks-dataset-demo-human-or-worm"),
        (
            "feng-2024-dataset-nontata-promoter",
            "genomic-benchmarks-dataset-human-nontata-promoters",
        ),
    ):
        assert tuple(sorted((first, second))) in groups


def test_a_related_dataset_is_named_on_its_task_page(built: list[object]) -> None:
    page = next(
        p
        for p in built
        if isinstance(p, contexts.TaskPage)
        and p.path.startswith("tasks/feng-2024-dataset-regulatory/")
    )
    assert [d.text for d in page.datasets] == ["regulatory (Feng et al. benchmark)"]
    # other sources' datasets may be related too (e.g. DNALLM-Mark's): find this link
    notes = [
        n
        for n in page.same_task
        if n.startswith(
            "Related, kept apart: regulatory (Feng et al. benchmark) and "
            "human_ensembl_regulatory (Genomic Benchmarks)."
        )
    ]
    assert len(notes) == 1
    assert "(Genomic Benchmarks). The same name only" in notes[0]


def test_task_page_shows_sources_side_by_side_never_ranked_together(built: list[object]) -> None:
    page = next(
        p
        for p in built
        if isinstance(p, contexts.TaskPage)
        and p.path.startswith("tasks/feng-2024-dataset-human-worm/")
    )
    assert [d.text for d in page.datasets] == [
        "human_worm (Feng et al. benchmark)",
        "demo_human_or_worm (Genomic Benchmarks)",
    ]
    assert any(
        n.startswith("Same task (same files and split): Same files: Feng et al.'s summary table")
        for n in page.same_task
    )
    sources = {v.source for v in page.board.boards}
    assert {"Feng et al. 2024", "Genomic Benchmarks"} <= sources
    hyena = [o for o in page.overlaps if o.family == "HyenaDNA"]
    assert hyena, "HyenaDNA is in both sources on this task"
    for row in page.overlaps:
        assert row.verdict.startswith("Not comparable: different protocols")
        assert "adaptation differs" in row.verdict
    assert {o.right.text for o in hyena} == {"96.6%"}


def test_compare_pages_hold_only_comparable_pairs_and_no_overall_score(
    catalogue: Catalogue, built: list[object]
) -> None:
    pages = [p for p in built if isinstance(p, contexts.ComparePage)]
    assert pages
    evaluations = {e.id: e for e in catalogue.of_kind(Evaluation)}
    for page in pages:
        assert not hasattr(page, "score")
        datasets = {r.task.href for r in page.rows}
        assert len(datasets) >= 2
        for row in page.rows:
            left = evaluations[row.left.href.split("/")[1]]
            right = evaluations[row.right.href.split("/")[1]]
            assert left.protocol == right.protocol
            (rl,) = left.results
            (rr,) = right.results
            protocol = catalogue.get(left.protocol, Protocol)
            assert not not_comparable((left, rl, protocol), (right, rr, protocol))
        judged = sum(
            int(n) for w in page.wins for n in re.findall(r"(\d+) (?:tasks?|ties?)\b", w.text)
        )
        assert judged == sum(1 for r in page.rows if r.winner)


def test_family_matrix_lists_each_source(built: list[object]) -> None:
    page = next(
        p for p in built if isinstance(p, contexts.FamilyMatrixPage) and p.family.text == "HyenaDNA"
    )
    tasks = {r.task.text for r in page.rows}
    assert "demo_human_or_worm (Genomic Benchmarks)" in tasks
    assert "human_worm (Feng et al. benchmark)" in tasks
    assert any("accuracy" in m.lower() for m in page.metrics)
    assert all(len(r.cells) == len(page.metrics) for r in page.rows)


def test_benchmark_wide_column_joins_its_task(built: list[object]) -> None:
    """The HyenaDNA paper's Table 4.1 column 'Human Enhancers Cohn' (an editor's record)
    shows on the task of human_enhancers_cohn, beside Genomic Benchmarks' own value."""
    page = next(
        p for p in built if isinstance(p, contexts.TaskPage) and "human_enhancers_cohn" in p.heading
    )
    protocols = [v.heading.href for v in page.board.boards]
    assert (
        "protocols/evidence-20261130-protocol-hyenadna-genomic-benchmarks/index.html" in protocols
    )
    table = next(v for v in page.board.boards if "evidence-20261130" in v.heading.href)
    assert table.columns == ("Accuracy (higher is better)",)
    assert table.dataset.text.startswith("GenomicBenchmarks")  # the column's own dataset
    pairs = {(o.left.text, o.right.text) for o in page.overlaps if o.family == "HyenaDNA"}
    assert ("74.2%", "74.2%") in pairs


def test_chooser_pages_take_their_header_from_page_header() -> None:
    """The header fields (template, path, root, title, ...) are written once, in
    render.contexts.page_header, as on every other page; none is filled in by hand."""
    from header_fields import hand_written_headers

    module = ROOT / "src" / "rewire_site" / "render" / "chooser" / "pages.py"
    assert hand_written_headers(module) == []


def test_compare_pairs_are_every_pair_that_shares_two_datasets(catalogue: Catalogue) -> None:
    """`_pairs` finds candidates per protocol instead of over every pair of
    configurations: it must still hold every pair with shared results on two or more
    datasets (what `compare_pages` keeps), checked against all pairs, brute force."""
    from collections import defaultdict
    from itertools import combinations

    from rewire_site.render.chooser.pages import _entries, _pairs

    by_config: dict[str, dict[tuple[str, str], object]] = defaultdict(dict)
    for evaluation in catalogue.of_kind(Evaluation):
        for entry in _entries([evaluation], catalogue):
            if entry[1].value is not None:
                by_config[evaluation.configuration][(evaluation.protocol, entry[1].column)] = entry
    wanted = []
    for left, right in combinations(sorted(by_config), 2):
        shared = set(by_config[left]) & set(by_config[right])
        if len({by_config[left][k][0].dataset for k in shared}) >= 2:  # type: ignore[index]
            wanted.append((left, right))
    assert wanted  # the imported sources compare some models on two datasets
    found = _pairs(by_config)  # type: ignore[arg-type]
    assert set(wanted) <= set(found)
    assert found == sorted(found)
