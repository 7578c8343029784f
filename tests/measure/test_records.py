"""Record writing: a stage log becomes configuration + evaluation records that validate
against the catalogue, with the raw log as an artifact; nothing is ever overwritten."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from measure.records import RecordExists, sha256_file, store_artifact, write_records
from rewire_site.problems import RecordsInvalid

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from measure.peak_memory.published import published_values  # noqa: E402
from measure.peak_memory.recipe import load_recipe  # noqa: E402
from measure.peak_memory.records import build_records, record_ids  # noqa: E402
from measure.peak_memory.worker import run_stage, write_log  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
NEEDED = (
    "saadat-fellay-20261015-protocol-training-peak-memory",
    "saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42",
    "saadat-fellay-20261015-source-optimizing-genomic-language-models",
    "saadat-fellay-20261015-family-gena-lm",
    "saadat-fellay-20261015-config-gena-lm-110m-training-flashattention-checkpointing",
    "saadat-fellay-20261015-eval-gena-lm-110m-training-peak-memory-flashattention-checkpointing",
)


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    """A repository root holding the published records a measurement links to."""
    (tmp_path / "records").mkdir()
    for record_id in NEEDED:
        source = REPO / "records" / f"{record_id}.yaml"
        if not source.exists():
            pytest.skip(f"catalogue record {record_id} not present")
        shutil.copy(source, tmp_path / "records")
    return tmp_path


@pytest.fixture
def gpu_shaped_log(tiny_spec: Any, tmp_path: Path) -> tuple[dict[str, Any], Path]:
    """A real CPU stage log of the GENA-LM checkpointing stage, given the allocator
    readings a GPU run has (the CPU build has none) and GENA-LM's name and size."""
    spec = tiny_spec("tiny-gena", "checkpointing")
    log = run_stage(spec)
    assert log["status"] == "value", log["error"]
    log["model"].update(key="gena-lm-110m", name="GENA-LM 110M")
    log["memory"].update(
        peak_allocated_bytes=1_234_000_000,
        peak_reserved_bytes=1_500_000_000,
        model_states_allocated_bytes=900_000_000,
        device_total_bytes=150_000_000_000,
    )
    log["environment"].update(gpu="NVIDIA H200", gpu_memory_gb=150.0)
    path = tmp_path / "log.json"
    write_log(log, path)
    return json.loads(path.read_text()), path


def _records(root: Path, log: dict[str, Any], path: Path) -> list[dict[str, Any]]:
    recipe = load_recipe()
    stored = store_artifact(path, root, log["run_id"], "gena--checkpointing.json")
    artifact = {
        "path": stored.path,
        "sha256": stored.sha256,
        "description": "raw log",
        "size_bytes": stored.size_bytes,
    }
    published = published_values(root, PROTOCOL).get(("GENA-LM 110M", "checkpointing"))
    assert published is not None and published.printed_value == "1.18"
    return build_records(recipe, log, artifact, published, "saadat-fellay-20261015-family-gena-lm")


def test_records_validate_and_link_the_published_value(
    catalogue: Path, gpu_shaped_log: tuple[dict[str, Any], Path]
) -> None:
    log, path = gpu_shaped_log
    records = _records(catalogue, log, path)
    written = write_records(records, catalogue)
    assert [p.name for p in written] == [f"{r['id']}.yaml" for r in records]
    evaluation = yaml.safe_load(written[1].read_text())
    assert (
        written[1]
        .read_text()
        .startswith("# yaml-language-server: $schema=../schemas/evaluation.schema.json\n")
    )
    assert evaluation["origin"] == "rewire_measurement"
    assert evaluation["reproduces"].endswith(
        "gena-lm-110m-training-peak-memory-flashattention-checkpointing"
    )
    result = evaluation["results"][0]
    assert result["value"] == pytest.approx(1.234)
    assert {o["name"] for o in result["observations"]} >= {"peak-reserved-memory"}
    artifact = evaluation["artifacts"][0]
    assert sha256_file(catalogue / artifact["path"]) == artifact["sha256"]
    assert evaluation["settings"]["precision"] == "bf16"
    assert evaluation["environment"]["gpu"] == "NVIDIA H200"


def test_an_existing_record_is_never_overwritten(
    catalogue: Path, gpu_shaped_log: tuple[dict[str, Any], Path]
) -> None:
    log, path = gpu_shaped_log
    records = _records(catalogue, log, path)
    first = write_records(records, catalogue)
    before = [p.read_bytes() for p in first]
    changed = [dict(r, summary="changed") for r in records]
    with pytest.raises(RecordExists, match="never overwritten"):
        write_records(changed, catalogue)
    assert [p.read_bytes() for p in first] == before


def test_invalid_records_are_not_written(
    catalogue: Path, gpu_shaped_log: tuple[dict[str, Any], Path]
) -> None:
    log, path = gpu_shaped_log
    records = _records(catalogue, log, path)
    records[1]["protocol"] = "no-such-protocol"
    with pytest.raises(RecordsInvalid):
        write_records(records, catalogue)
    assert not any((catalogue / "records" / f"{r['id']}.yaml").exists() for r in records)


def test_an_artifact_with_other_bytes_is_not_replaced(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    log.write_text("{}", encoding="utf-8")
    stored = store_artifact(log, tmp_path, "run-1", "a.json")
    assert store_artifact(log, tmp_path, "run-1", "a.json") == stored
    log.write_text('{"x": 1}', encoding="utf-8")
    with pytest.raises(RecordExists):
        store_artifact(log, tmp_path, "run-1", "a.json")


def test_record_ids_carry_the_run_id() -> None:
    config_id, eval_id = record_ids("20261129-193012", "nt-2-5b--deepspeed--bf16-full-1000nt")
    assert config_id == "rewire-20261129-193012-config-nt-2-5b-deepspeed-bf16-full-1000nt"
    assert eval_id.startswith("rewire-20261129-193012-eval-")
