"""Each result is labelled by the origin its record holds, and only Rewire's own runs
(origin `rewire_measurement`) go under a protocol page's "Rewire measurements" heading.

Real case (issue 23, item 3): the Genomic Benchmarks protocols hold maintainer statements
(the benchmark README's table) and community reproductions (a GitHub issue thread); their
protocol pages put them under "Rewire measurements — Rewire's own measurements" while the
headline said no Rewire measurement exists. The records are copied from `records/`.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from htmltext import flat, page_text
from scenarios import copy_closure

from rewire_site.build import build_site, gather
from rewire_site.models import Evaluation, Origin, Protocol
from rewire_site.render.comparison_table import protocol_tables
from rewire_site.render.present.labels import ORIGIN_LABELS

ROOT = Path(__file__).resolve().parents[1]
MAINTAINER = "genomic-benchmarks-eval-pytorch-cnn-human-nontata-promoters-accuracy"
COMMUNITY = "evidence-20261130-eval-hyenadna-genomic-benchmarks-leannmlindsey"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("origins")
    (root / "records").mkdir()
    assert copy_closure([MAINTAINER, COMMUNITY], ROOT / "records", root / "records") < 200
    build_site(root, root / "site", release_date=date(2026, 2, 10), workers=1)
    return root


def test_only_rewire_measurements_enter_the_measurements_table(project: Path) -> None:
    catalogue = gather(project / "records", project).catalogue
    for evaluation_id in (MAINTAINER, COMMUNITY):
        evaluation = catalogue.get(evaluation_id, Evaluation)
        assert evaluation.origin != Origin.rewire_measurement
        protocol = catalogue.get(evaluation.protocol, Protocol)
        tables = protocol_tables(protocol, catalogue)
        assert tables.measurements is None, evaluation_id
        shown = {e for row in tables.published.rows for e in row.evaluation_ids}
        assert evaluation_id in shown


@pytest.mark.parametrize("evaluation_id", [MAINTAINER, COMMUNITY])
def test_protocol_page_labels_the_origin_the_record_holds(
    project: Path, evaluation_id: str
) -> None:
    catalogue = gather(project / "records", project).catalogue
    evaluation = catalogue.get(evaluation_id, Evaluation)
    path = project / "site" / "protocols" / evaluation.protocol / "index.html"
    html = path.read_text(encoding="utf-8")
    assert 'id="rewire-measurements"' not in html
    # the comparison table's row links to the evaluation by the origin its record holds
    links = re.findall(
        rf'class="evaluation-link" href="[^"]*/{evaluation_id}/index.html">([^<]*)<', html
    )
    assert links == [ORIGIN_LABELS[evaluation.origin]]
    page = flat(page_text(path))
    assert "Rewire's own measurements" not in page
    assert ORIGIN_LABELS[evaluation.origin] in page
    evaluation_page = flat(
        page_text(project / "site" / "evaluations" / evaluation_id / "index.html")
    )
    assert ORIGIN_LABELS[evaluation.origin] in evaluation_page
