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


def test_rows_stay_light_in_memory(tmp_path: Path) -> None:
    """Reading 10,800 values (3,600 rows) allocates well under 1 kB a value: rows are
    slotted objects sharing their label strings, no Pydantic model per row (issue 28:
    memory grows linearly and 100,000 values fit in the 2 GB budget many times over)."""
    import tracemalloc

    from rewire_site.models import ResultTable
    from rewire_site.table_rows import LabelIndex, read_rows, rows_path, source_paths

    _, values = add_result_tables(tmp_path, 10_000, seed=5)
    write_schemas(tmp_path)
    report = validate_paths([tmp_path / "records"], tmp_path, cache=False)
    assert report.ok
    index = LabelIndex.from_records(report.records.values())
    tables = [r for r in report.records.values() if isinstance(r, ResultTable)]
    tracemalloc.start()
    try:
        kept = [
            read_rows(
                t,
                rows_path(t, report.files[t.id]),
                paths=source_paths(t, report.records),
                index=index,
            ).rows
            for t in tables
        ]
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sum(len(rows) for rows in kept) * 3 == values
    assert held / values < 400, f"{held / values:.0f} bytes held per value"
    assert peak / values < 1000, f"{peak / values:.0f} bytes at the peak per value"
