"""Protocol.related: a pointer from one protocol to another that holds the same published
figure in another form, validated like every reference and shown on both pages.

Real case: HyenaDNA's Figure 4.1 is held as run-time claims under
evidence-20261130-protocol-hyenadna-runtime and as a ratio (a value Rewire measures) under
evidence-20261130-protocol-hyenadna-speedup-vs-transformer; the first said "No Rewire
recipe yet", which went stale when the second was measured."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from scenarios import copy_closure

from rewire_site.build import gather
from rewire_site.derive.related import related
from rewire_site.models import Protocol
from rewire_site.validate import validate_paths

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = "evidence-20261130-protocol-hyenadna-runtime"
SPEEDUP = "evidence-20261130-protocol-hyenadna-speedup-vs-transformer"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "records").mkdir()
    copy_closure([RUNTIME], ROOT / "records", tmp_path / "records")
    for artifact in ROOT.glob("artifacts/sources/evidence-20261130-source-hyenadna-*/*"):
        target = tmp_path / artifact.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(artifact, target)
    return tmp_path


def test_both_pages_name_the_other_and_the_recipe_note_points_there(project: Path) -> None:
    catalogue = gather(project / "records", project).catalogue
    runtime = catalogue.get(RUNTIME, Protocol)
    assert runtime.related == [SPEEDUP]
    assert runtime.recipe is None
    assert "related protocol" in runtime.missing_metadata["recipe"].note.lower()  # type: ignore[union-attr]
    assert catalogue.get(SPEEDUP, Protocol).recipe is not None, "the related one is measured"
    out = [(r.relation, r.record_id, r.direction) for r in related(runtime, catalogue)]
    assert ("related_protocol", SPEEDUP, "out") in out
    back = related(catalogue.get(SPEEDUP, Protocol), catalogue)
    assert ("related_protocol", RUNTIME, "in") in [
        (r.relation, r.record_id, r.direction) for r in back
    ]


def test_a_related_id_that_is_not_a_protocol_is_an_error(project: Path) -> None:
    path = project / "records" / f"{RUNTIME}.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(f"  - {SPEEDUP}\n", "  - evidence-20261130-dataset-hg38\n"))
    report = validate_paths([project / "records"], project)
    problems = [p for p in report.errors if p.field.startswith("related")]
    assert problems and problems[0].path.name == path.name, report.problems
