"""Release id, canonical content, manifest and artifact hashing (release.py)."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path

import pytest
from scenarios import load_scenario, scenario_root

from rewire_site.link import Catalogue
from rewire_site.models import Evaluation
from rewire_site.release import (
    RELEASE_ID,
    build_date,
    canonical_json,
    content_sha256,
    hash_artifacts,
    make_release,
    manifest,
)


def test_release_id_is_date_and_twelve_hex_digits_of_the_content_hash() -> None:
    catalogue = load_scenario("seed_memory")
    release = make_release(catalogue.by_id.values(), "2026-10-22")
    digest = hashlib.sha256(canonical_json(catalogue.by_id.values())).hexdigest()
    assert release.id == f"2026-10-22-{digest[:12]}"
    assert RELEASE_ID.match(release.id)
    assert (release.date, release.content_sha256, release.record_count) == (
        "2026-10-22",
        digest,
        13,
    )


def test_canonical_content_is_sorted_by_id_with_sorted_keys() -> None:
    records = list(load_scenario("ia3_conflict").by_id.values())
    data = json.loads(canonical_json(records))
    assert [r["id"] for r in data] == sorted(r.id for r in records)
    assert list(data[0]) == sorted(data[0])
    assert canonical_json(reversed(records)) == canonical_json(records)
    assert b"\n" not in canonical_json(records) and b", " not in canonical_json(records)[:200]


def test_any_change_to_a_record_changes_the_content_hash() -> None:
    catalogue = load_scenario("seed_memory")
    records = list(catalogue.by_id.values())
    evaluation = catalogue.get("eval-nt-checkpointing", Evaluation)
    result = evaluation.results[0].model_copy(update={"value": 33.89})
    changed = [
        r if r.id != evaluation.id else evaluation.model_copy(update={"results": [result]})
        for r in records
    ]
    assert content_sha256(changed) != content_sha256(records)


def test_build_date_order_of_precedence() -> None:
    env = {"SOURCE_DATE_EPOCH": "1761091200"}  # 2025-10-22T00:00:00Z
    assert build_date("2026-10-22", env) == date(2026, 10, 22)
    assert build_date(date(2026, 1, 2), env) == date(2026, 1, 2)
    assert build_date(None, env) == date(2025, 10, 22)
    assert isinstance(build_date(None, {}), date)
    with pytest.raises(ValueError, match=r"--release-date: '22/10/2026' is not a date"):
        build_date("22/10/2026", {})
    with pytest.raises(ValueError, match="SOURCE_DATE_EPOCH"):
        build_date(None, {"SOURCE_DATE_EPOCH": "yesterday"})


def test_manifest_lists_every_file_with_its_hash(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "page.html").write_bytes(b"<p>x</p>")
    (tmp_path / "index.html").write_bytes(b"home")
    (tmp_path / "downloads").mkdir()
    (tmp_path / "downloads" / "release.csv.gz").write_bytes(b"skip")
    entries = manifest(tmp_path, exclude=["downloads/release.csv.gz"])
    assert [(e.path, e.sha256, e.size_bytes) for e in entries] == [
        ("a/b/page.html", hashlib.sha256(b"<p>x</p>").hexdigest(), 8),
        ("index.html", hashlib.sha256(b"home").hexdigest(), 4),
    ]


def test_hash_artifacts_hashes_files_under_the_root_only(tmp_path: Path) -> None:
    catalogue = load_scenario("reproduction")
    root = scenario_root("reproduction")
    expected = hashlib.sha256((root / "artifacts" / "run-1.log").read_bytes()).hexdigest()
    assert hash_artifacts(catalogue, root) == {"artifacts/run-1.log": expected}
    assert hash_artifacts(catalogue, tmp_path) == {"artifacts/run-1.log": None}
    evaluation = catalogue.get("eval-nt-rewire", Evaluation)
    outside = evaluation.artifacts[0].model_copy(
        update={"path": "../seed_memory/records/gena-lm.yaml"}
    )
    changed = Catalogue.from_records(
        [r for r in catalogue.by_id.values() if r.id != evaluation.id]
        + [evaluation.model_copy(update={"artifacts": [outside]})]
    )
    assert hash_artifacts(changed, root) == {"../seed_memory/records/gena-lm.yaml": None}
