"""The synthetic result tables of the scale benchmark (`synth_tables`) validate, hold the
values asked for, and map their labels as designed (some unmapped, some family-only)."""

from __future__ import annotations

from pathlib import Path

from rewire_site.schema import write_schemas
from rewire_site.synth_tables import MODELS, TABLES, add_result_tables
from rewire_site.validate import validate_paths


def test_synthetic_tables_validate_and_hold_the_values_asked_for(tmp_path: Path) -> None:
    _, values = add_result_tables(tmp_path, 3000, seed=3)
    write_schemas(tmp_path)
    report = validate_paths([tmp_path / "records"], tmp_path, cache=False)
    assert report.ok, [str(p) for p in report.errors[:5]]
    assert values >= 3000
    assert report.result_rows.value_count() == values
    assert len(report.result_rows.by_table) == TABLES
    unmapped = report.result_rows.unmapped["synth-table-00"]
    assert unmapped.models == (f"SynthLM-{MODELS - 2:02d}", f"SynthLM-{MODELS - 1:02d}")
    rows = report.result_rows.of_family("synth-table-family-00")  # known only as a family
    assert rows and all(r.checkpoint is None for r in rows)
    rows = report.result_rows.of_family("synth-table-family-01")
    assert rows and all(r.checkpoint == "synth/synthlm-01" for r in rows)
