"""Orphan artifacts (derive/artifacts.py): files under artifacts/ that no record cites."""

from __future__ import annotations

from scenarios import load_scenario

from rewire_site.derive.artifacts import cited_artifacts, orphan_artifacts


def test_a_log_no_record_cites_is_an_orphan() -> None:
    catalogue = load_scenario("reproduction")
    assert cited_artifacts(catalogue) == {"artifacts/run-1.log"}
    files = [
        "artifacts/run-1.log",
        "artifacts/measurements/run-2/stage.stdout.txt",
        "./artifacts/run-3.log",
        "artifacts/.gitkeep",
        "records/eval-nt-rewire.yaml",
    ]
    assert orphan_artifacts(catalogue, files) == (
        "artifacts/measurements/run-2/stage.stdout.txt",
        "artifacts/run-3.log",
    )


def test_source_folders_and_importer_manifests_belong() -> None:
    catalogue = load_scenario("reproduction")
    files = [
        "artifacts/sources/saadat-fellay-2026/paper.pdf",
        "artifacts/sources/some-import/manifest.json",
        "artifacts/sources/some-import/table.csv",
    ]
    assert orphan_artifacts(catalogue, files) == ("artifacts/sources/some-import/table.csv",)
