"""measure/builder.py: the one record builder every recipe calls (issue 26): what it
writes for every measurement, in the order the committed records hold their fields."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from measure.builder import (
    Measured,
    ResultGaps,
    configuration_record,
    evaluation_record,
    measured_result,
    peak_status,
    synthetic_comparison,
)

MEASURE = Path(__file__).resolve().parents[2] / "measure"
ENVIRONMENT: dict[str, Any] = {"gpu": "NVIDIA H200", "gpu_memory_gb": 150.1, "packages": {}}


def _measured(**changes: Any) -> Measured:
    values: dict[str, Any] = {
        "run_id": "r1",
        "environment": ENVIRONMENT,
        "settings": {"a": "b"},
        "added": "2026-12-01",
    }
    return Measured(**(values | changes))


def _configuration(measured: Measured | None = None, **changes: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "config_id": "c",
        "title": "t",
        "summary": "s",
        "reported_name": "m",
        "family": "f",
        "parameters": "1 (counted)",
        "fine_tuning": None,
        "training_setting": "ts",
        "version": "v",
        "provenance_note": "p",
        "checkpoint_note": "random weights",
    }
    return configuration_record(measured or _measured(), **(values | changes))


def _evaluation(measured: Measured | None = None, **changes: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "eval_id": "e",
        "config_id": "c",
        "title": "t",
        "summary": "s",
        "protocol": "p",
        "dataset": "d",
        "comparison": {},
        "results": [],
        "artifacts": [],
        "gaps": ResultGaps("one run", "no samples"),
        "limitations": [],
    }
    return evaluation_record(measured or _measured(), **(values | changes))


def test_a_configuration_holds_what_every_measurement_shares() -> None:
    record = _configuration()
    assert list(record)[:6] == ["id", "kind", "title", "summary", "areas", "contexts"]
    assert record["kind"] == "configuration" and record["checkpoint"] is None
    assert record["hardware"] == {
        "description": "NVIDIA H200 (150 GB), one GPU",
        "accelerator": "NVIDIA H200",
        "count": 1,
    }
    assert list(record)[-2:] == ["missing_metadata", "added"]
    assert record["settings"] == {"a": "b"} and record["added"] == "2026-12-01"
    assert record["missing_metadata"] == {
        "checkpoint": {"reason": "inapplicable", "note": "random weights"}
    }
    more = _configuration(missing_metadata={"fine_tuning": {"reason": "inapplicable"}})
    assert list(more["missing_metadata"]) == ["checkpoint", "fine_tuning"]
    assert "parameters" not in _configuration(parameters=None)
    cited = _configuration(citations=[{"source": "x"}])
    assert list(cited)[-3:] == ["citations", "missing_metadata", "added"]


def test_an_evaluation_is_a_rewire_measurement_and_reproduces_where_asked() -> None:
    record = _evaluation()
    assert record["origin"] == "rewire_measurement" and "reproduces" not in record
    assert record["version"] == "Rewire measurement run r1"
    assert record["training_hardware"] == "NVIDIA H200 (150 GB), one GPU"
    keys = list(_evaluation(reproduces="pub"))
    assert keys.index("reproduces") == keys.index("training_hardware") + 1
    assert list(_evaluation(reproduces="pub", reproduces_last=True))[-1] == "reproduces"


def test_no_recipe_writes_its_own_record_skeleton() -> None:
    """Only the builder spells a record's kind and origin: all four recipes (peak_memory,
    memory_curve, hyenadna, ia3) call it."""
    skeleton = re.compile(r'"kind": "(configuration|evaluation)"|"origin": "rewire_measurement"')
    writers = {
        str(path.relative_to(MEASURE))
        for path in MEASURE.rglob("*.py")
        if skeleton.search(path.read_text(encoding="utf-8"))
    }
    assert writers == {"builder.py"}


def test_a_run_over_several_gpus_names_the_count_and_the_machine() -> None:
    """IA3 runs data-parallel: the hardware line and count say how many GPUs, on what."""
    record = _configuration(_measured(gpus=2, machine="a 2-GPU host"))
    assert record["hardware"] == {
        "description": "2 x NVIDIA H200 (150 GB) on a 2-GPU host",
        "accelerator": "NVIDIA H200",
        "count": 2,
    }
    one = _evaluation(_measured(machine="a 2-GPU host"), version="Rewire run r1 at abc")
    assert one["training_hardware"] == "1 x NVIDIA H200 (150 GB) on a 2-GPU host"
    assert one["version"] == "Rewire run r1 at abc"
    with pytest.raises(ValueError, match="name the machine"):
        _configuration(_measured(gpus=2))


def test_a_run_on_the_cpu_names_the_cpu_not_a_gpu() -> None:
    cpu = {"gpu": "none (CPU)", "gpu_memory_gb": 0.0, "host_cpu": "Xeon (16 cores available)"}
    configuration = _configuration(_measured(environment=cpu))
    assert configuration["hardware"] == {
        "description": "CPU only: Xeon (16 cores available)",
        "accelerator": "CPU",
        "count": 1,
    }
    assert (
        _evaluation(_measured(environment=cpu))["training_hardware"]
        == "CPU only: Xeon (16 cores available)"
    )


def test_an_evaluation_states_the_gaps_of_each_of_its_results() -> None:
    """The missing-metadata entries follow the results: one pair per result, in order."""
    results = [
        measured_result("a", "value", "u", "lower"),
        measured_result("b", "value", "u", "lower"),
    ]
    record = _evaluation(results=results, gaps=ResultGaps("one run", "none", "inapplicable"))
    assert list(record["missing_metadata"]) == [
        "results.0.uncertainty", "results.0.coverage",
        "results.1.uncertainty", "results.1.coverage",
    ]  # fmt: skip
    assert record["missing_metadata"]["results.1.uncertainty"] == {
        "reason": "inapplicable",
        "note": "one run",
    }
    assert record["settings"] == {"a": "b"} and list(record)[-1] == "added"
    assert _evaluation()["missing_metadata"] == {}


def test_result_gaps_name_each_results_uncertainty_and_coverage() -> None:
    from measure.builder import result_gaps

    assert result_gaps("one run", "no samples", count=2, uncertainty_reason="inapplicable") == {
        "results.0.uncertainty": {"reason": "inapplicable", "note": "one run"},
        "results.0.coverage": {"reason": "inapplicable", "note": "no samples"},
        "results.1.uncertainty": {"reason": "inapplicable", "note": "one run"},
        "results.1.coverage": {"reason": "inapplicable", "note": "no samples"},
    }


def test_a_peak_value_is_the_allocated_peak_or_the_out_of_memory_note() -> None:
    from measure.builder import peak_value

    fitted = {"status": "value", "memory": {"peak_allocated_bytes": 3_456_789_012}}
    assert peak_value({"column": "c"}, fitted, "max allocated") == {
        "column": "c",
        "value": 3.4568,
        "note": "max allocated",
    }
    failed = {"status": "out_of_memory", "error": "did not fit in 150.1 GB: CUDA out of memory"}
    assert peak_value({}, failed, "unused") == {"note": "did not fit in 150.1 GB"}


def test_a_peak_result_holds_status_then_the_rest_then_value_and_note() -> None:
    """The order the peak-memory and memory-curve records hold: the value and its note
    after the observations."""
    from measure.builder import peak_result

    fitted = {"status": "value", "memory": {"peak_allocated_bytes": 2_000_000_000}}
    found = peak_result("c", fitted, "max allocated", observations=[])
    assert list(found) == [
        "column", "status", "unit", "direction", "uncertainty", "coverage", "observations",
        "value", "note",
    ]  # fmt: skip
    assert (found["status"], found["value"], found["unit"]) == ("value", 2.0, "gigabyte")
    failed = {"status": "out_of_memory", "error": "did not fit: CUDA out of memory"}
    lost = peak_result("c", failed, "unused")
    assert (lost["status"], lost["note"]) == ("out_of_memory", "did not fit")
    assert "value" not in lost


def test_a_measured_result_keeps_the_order_the_records_hold() -> None:
    """Status and value lead where given, no interval and no coverage follow the direction,
    then the rest in the order given; a status left out is the caller's to add later."""
    ratio = measured_result("c", "value", "times", "lower", value=1.5, note="n", observations=[])
    assert list(ratio) == [
        "column", "status", "value", "unit", "direction", "uncertainty", "coverage", "note",
        "observations",
    ]  # fmt: skip
    assert ratio["uncertainty"] is None and ratio["coverage"] is None and ratio["value"] == 1.5
    later = measured_result("c", None, "gigabyte", "lower", observations=[])
    assert list(later) == ["column", "unit", "direction", "uncertainty", "coverage", "observations"]
    incomplete = measured_result("c", "incomplete", "minute", "lower", value=None)
    assert list(incomplete)[:3] == ["column", "status", "value"] and incomplete["value"] is None
    assert peak_status({"status": "out_of_memory"}) == "out_of_memory"
    assert peak_status({"status": "value"}) == "value"


def test_a_synthetic_comparison_names_no_split_and_its_seed() -> None:
    texts = {k: k for k in ("population", "inputs", "adaptation", "aggregation", "budget")}
    plain = synthetic_comparison(steps="passes", seed=7, metric_implementation="m", **texts)
    assert list(plain) == [
        "split", "population", "inputs", "adaptation", "aggregation", "budget",
        "dataset_version", "metric_implementation",
    ]  # fmt: skip
    assert plain["split"] == "Not applicable: passes on synthetic sequences"
    assert plain["dataset_version"] == "Regenerated by Rewire with seed 7"
    noted = synthetic_comparison(
        steps="steps", seed=7, metric_implementation="m", seed_note="not theirs", **texts
    )
    assert noted["dataset_version"] == "Regenerated by Rewire with seed 7 (not theirs)"


def test_a_built_models_parameters_and_version_come_from_its_log() -> None:
    from measure.builder import counted_parameters, transformers_version

    model = {"parameters_total": 1234567, "parameters_trainable": 8910, "class": "BertForMaskedLM"}
    assert counted_parameters(model) == "1,234,567 (counted; 8,910 trainable)"
    assert counted_parameters({}) == "0 (counted; 0 trainable)"
    environment = {"packages": {"transformers": "4.57.1"}}
    assert transformers_version(environment, model) == "transformers 4.57.1 BertForMaskedLM"
    assert transformers_version({"packages": {}}, {}) == "transformers ?"
