"""Model pages and model comparisons (issue 25 items 2 and 3): every result of a family
across tasks, grouped by task family and protocol class and never ranked; two families
compared only on results with the same task, protocol, metric, adaptation and split, each
pair judged by the verdict layer (chooser.overlaps.better: ties within the margin; a
result a concern takes out of comparisons is not judged).

The catalogue is a small copy of real records (Feng et al.'s 4mC A. thaliana task for
three families, and the families' records); expected values are read from the records."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from scenarios import copy_closure

from rewire_site.build import build_site, gather
from rewire_site.derive.boards import adaptation_class
from rewire_site.derive.concerns import excluded, flags_by_evaluation
from rewire_site.derive.model_compare import compare_families, family_pairs, family_triples
from rewire_site.derive.model_results import RESOURCES, family_evaluations, model_results
from rewire_site.derive.model_results import protocol_class as klass
from rewire_site.derive.overlaps import better
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation, Protocol, ResultTable
from rewire_site.render.model_compare import compare_path, triple_page, triple_path
from rewire_site.render.model_page import BLOCK_LINES, task_groups

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "records"
DNABERT2 = "evidence-20261130-family-dnabert-2"
HYENADNA = "evidence-20261130-family-hyenadna"
NT = "gfm-guide-20261014-family-nucleotide-transformer"
TASK = "4mc-a-thaliana"


def _ids() -> list[str]:
    found = sorted(p.stem for p in RECORDS.glob(f"feng-2024-eval-*-{TASK}-*.yaml"))
    assert found, "the Feng et al. 4mC A. thaliana evaluations are missing"
    return [*found, DNABERT2, HYENADNA, NT]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("model-pages")
    copy_closure(_ids(), RECORDS, root / "records")
    return root


@pytest.fixture(scope="module")
def catalogue(project: Path) -> Catalogue:
    return gather(project / "records", project).catalogue


def _evaluation(adaptation: str | None) -> Any:
    class Comparison:
        pass

    comparison = Comparison()
    comparison.adaptation = adaptation  # type: ignore[attr-defined]
    holder = type("E", (), {"comparison": comparison})()
    return holder


@pytest.mark.parametrize(
    ("adaptation", "expected"),
    [
        ("frozen zero-shot embeddings, random forest (pooling: see configuration)", "frozen_probe"),
        (
            "IA3 on key, value and feed-forward output; head trainable; backbone frozen",
            "parameter_efficient",
        ),
        ("all bf16; LoRA rank 16 on query, key and value; backbone frozen", "parameter_efficient"),
        ("Full fine-tuning per dataset", "fine_tuned"),
        ("prediction head 'CNN0.5' on DNABERT-2", "frozen_probe"),
        ("trained from scratch on the dataset", "other"),
        (None, "other"),
    ],
)
def test_protocol_class_is_the_leaderboards(adaptation: str | None, expected: str) -> None:
    """One rule for every page: a model page files a result under the class its task's
    leaderboard shows it in."""
    evaluation = _evaluation(adaptation)
    assert klass(evaluation) == expected == adaptation_class(adaptation)


def test_every_result_of_the_family_is_listed_once(catalogue: Catalogue) -> None:
    evaluations = family_evaluations(DNABERT2, catalogue)
    assert evaluations
    groups = model_results(DNABERT2, catalogue)
    listed = [
        (r.evaluation_id, r.result.column)
        for g in groups
        for c in g.classes
        for p in c.protocols
        for r in p.results
    ]
    expected = [(e.id, r.column) for e in evaluations for r in e.results]
    assert sorted(listed) == sorted(expected)
    for group in groups:  # one protocol per table, and a table's class is its results'
        for c in group.classes:
            for table in c.protocols:
                protocols = {
                    catalogue.get(r.evaluation_id, Evaluation).protocol for r in table.results
                }
                assert protocols == {table.protocol_id}
                for r in table.results:
                    evaluation = catalogue.get(r.evaluation_id, Evaluation)
                    protocol = catalogue.get(evaluation.protocol, Protocol)
                    assert klass(evaluation, protocol) == c.protocol_class
    # the embedding-time protocol is not a task: its results are apart
    assert any(g.key == RESOURCES for g in groups)
    assert all(g.key != RESOURCES or g.count for g in groups)


def test_compared_pairs_are_judged_by_the_verdict_layer(catalogue: Catalogue) -> None:
    flags = flags_by_evaluation(catalogue)
    pair = compare_families(DNABERT2, NT, catalogue, flags)
    assert pair.rows, "DNABERT-2 and NT share the Feng et al. task"
    outcomes = set()
    for row in pair.rows:
        for judged in row.pairs:
            left, right = row.left[judged.left], row.right[judged.right]
            assert left.protocol.id == right.protocol.id == row.protocol_id
            assert left.result.column == right.result.column == row.column
            a = catalogue.get(left.evaluation_id, Evaluation)
            b = catalogue.get(right.evaluation_id, Evaluation)
            assert a.dataset == b.dataset == row.dataset_id
            assert a.comparison.adaptation == b.comparison.adaptation
            out = excluded(flags.get(a.id, ()), row.column) or excluded(
                flags.get(b.id, ()), row.column
            )
            if out:
                assert judged.outcome == "not_judged" and judged.difference is None
            else:
                found = better((a, left.result, left.protocol), (b, right.result, right.protocol))
                expected = {"first": "left", "second": "right", "tie": "tie"}[found]
                assert judged.outcome == expected
                assert judged.difference is not None
            outcomes.add(judged.outcome)
    assert outcomes & {"left", "right"}
    # memory and time are not tasks: never compared
    assert all("time" not in row.protocol_title.lower() for row in pair.rows)


def test_every_family_pair_with_shared_results_gets_a_page(catalogue: Catalogue) -> None:
    pairs = family_pairs(catalogue, flags_by_evaluation(catalogue))
    names = {(p.left_id, p.right_id) for p in pairs}
    assert names == {(DNABERT2, HYENADNA), (DNABERT2, NT), (HYENADNA, NT)}


@pytest.fixture(scope="module")
def site(project: Path) -> Path:
    build_site(project, project / "site", release_date=date(2026, 12, 2), workers=1)
    return project / "site"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_family_page_leads_with_key_facts_and_collapses_how_we_know(site: Path) -> None:
    html = _text(site / "families" / NT / "index.html")
    assert (
        html.index('id="key-facts"') < html.index('id="results"') < html.index('id="how-we-know"')
    )
    how = html[html.index('id="how-we-know"') :]
    assert re.search(r"<details class=\"how-we-know\">", how)
    assert how.index("<details") < how.index('id="model-facts"')
    # every checkpoint of the record is a key-facts row
    record = yaml.safe_load((RECORDS / f"{NT}.yaml").read_text(encoding="utf-8"))
    assert html.count('<tr id="checkpoint-') == len(record["checkpoints"])
    assert "Not reported by the cited sources" in html
    # no best mark on a model page
    assert "best of" not in html.lower()


def test_compare_pages_are_linked_from_directory_and_family_pages(site: Path) -> None:
    flags_pairs = [(DNABERT2, NT), (DNABERT2, HYENADNA), (HYENADNA, NT)]
    directory = _text(site / "models" / "index.html")
    for left, right in flags_pairs:
        path = f"models/compare/{left}--{right}/index.html"
        assert (site / path).is_file()
        assert path in directory
        for family in (left, right):
            page = _text(site / "families" / family / "index.html")
            assert f"../../{path}" in page
    page = _text(site / "models" / "compare" / f"{DNABERT2}--{NT}" / "index.html")
    assert "DNABERT-2 and Nucleotide Transformer" in page
    assert "no overall score" in page


def test_compare_path_names_both_families() -> None:
    pair = type("Pair", (), {"left_id": "a", "right_id": "b"})()
    assert compare_path(pair) == "models/compare/a--b/index.html"


def test_model_pages_stay_under_one_megabyte(site: Path) -> None:
    for path in [*site.glob("families/*/index.html"), *site.glob("models/**/index.html")]:
        assert path.stat().st_size < 1_000_000, path


def test_result_table_rows_join_the_family_results_by_the_tables_class(
    live_catalogue: Catalogue,
) -> None:
    """Imported result-table rows of a family's labels are on its page: one entry per
    row and metric (seeds aggregated), in the table's own block and class, never merged
    with another table's or an evaluation's."""
    live = live_catalogue
    family = next((f.id for f in live.families() if live.result_rows.of_family(f.id)), None)
    if family is None:
        pytest.skip("no result table maps a label to a family yet")
    rows = live.result_rows.of_family(family)
    groups = model_results(family, live)
    shown: set[tuple[str, str, str]] = set()
    for group in groups:
        for c in group.classes:
            for table in c.tables:
                spec = live.get(table.table_id, ResultTable)
                assert c.protocol_class == spec.adaptation.value
                for r in table.results:
                    shown.add((table.table_id, r.model_label, r.task_label))
                    if r.aggregate.n == 1:
                        assert r.printed
    assert shown == {(r.table, r.model, r.task) for r in rows}


def test_three_models_compared_on_what_all_three_hold(catalogue: Catalogue) -> None:
    flags = flags_by_evaluation(catalogue)
    pairs = family_pairs(catalogue, flags)
    triples = family_triples(pairs)
    assert [t.ids for t in triples] == [(DNABERT2, HYENADNA, NT)]
    (triple,) = triples
    assert triple.rows
    for row in triple.rows:
        keys = {row.first_second.key, row.first_third.key, row.second_third.key}
        assert len(keys) == 1
    page = triple_page(triple, "x")
    assert page.path == triple_path(triple)
    assert [m.text for m in page.models] == ["DNABERT-2", "HyenaDNA", "Nucleotide Transformer"]
    line = page.tables[0].lines[0]
    assert len(line.values) == 3 and len(line.verdicts) == 3


def test_a_long_block_is_cut_with_the_rest_counted(catalogue: Catalogue) -> None:
    """A block lists at most BLOCK_LINES results; the rest are counted and linked (the
    protocol's page holds every one), so a model page stays small as imports grow."""
    groups = model_results(DNABERT2, catalogue)
    group = next(g for g in groups if g.key != RESOURCES)
    klass = group.classes[0]
    table = klass.protocols[0]
    many = replace(table, results=table.results * (BLOCK_LINES + 5))
    grown = replace(group, classes=(replace(klass, protocols=(many,), tables=()),))
    (shown,) = task_groups((grown,))
    (block,) = shown.blocks
    assert len(block.rows) == BLOCK_LINES
    rest = len(many.results) - BLOCK_LINES
    assert block.more.startswith(f"{rest} further results")
    (small,) = task_groups((group,))
    assert all(b.more == "" for b in small.blocks)


def test_a_page_shows_at_most_its_budget_of_lines(catalogue: Catalogue) -> None:
    groups = model_results(DNABERT2, catalogue)
    tasks = [g for g in groups if g.key != RESOURCES]
    shown = task_groups(tuple(tasks), page_lines=3)
    blocks = [b for g in shown for b in g.blocks]
    assert sum(len(b.rows) + len(b.table_lines) for b in blocks) == 3
    held = sum(g.count for g in tasks)
    assert held > 3
    assert any(b.more for b in blocks)
    assert task_groups(tuple(tasks), page_lines=0)[0].blocks[0].rows == ()
