"""The record builder of measure/: the configuration and the evaluation record of one
Rewire measurement, from the values a recipe measured and the words it chose. Every recipe
calls these two (peak_memory, memory_curve, hyenadna, ia3): a new protocol adds a recipe
and a worker, not a record writer. What is the same for every measurement (areas,
contexts, kind, origin, the hardware line, the checkpoint left out) is written here once,
in the order the records hold their fields."""

from __future__ import annotations

from typing import Any

from measure.records import AREAS, CONTEXTS, GB


def on_cpu(environment: dict[str, Any]) -> bool:
    """Whether the measurement ran on the CPU (its process saw no GPU: env.gpu_facts)."""
    return str(environment["gpu"]).startswith("none")


def gpu_line(environment: dict[str, Any], gpus: int = 1, machine: str | None = None) -> str:
    """The hardware of a measurement in words: 'NVIDIA H200 (150 GB), one GPU', or with the
    machine named (a run over several GPUs), '2 x NVIDIA H200 (150 GB) on <machine>'; for a
    process that saw no GPU, the CPU: 'CPU only: <model> (16 cores available)'."""
    if on_cpu(environment):
        return f"CPU only: {environment['host_cpu']}"
    card = f"{environment['gpu']} ({environment['gpu_memory_gb']:.0f} GB)"
    if machine is None:
        if gpus != 1:
            raise ValueError(f"{gpus} GPUs: name the machine they ran on")
        return f"{card}, one GPU"
    return f"{gpus} x {card} on {machine}"


def peak_value(result: dict[str, Any], log: dict[str, Any], note: str) -> dict[str, Any]:
    """A peak-memory result's value: the allocated peak of the log in GB (4 decimals) with
    `note`; for a log that ran out of memory, the first words of its error as the note."""
    if log["status"] == "out_of_memory":
        result["note"] = str(log["error"]).split(":")[0]
    else:
        result["value"] = round(log["memory"]["peak_allocated_bytes"] / GB, 4)
        result["note"] = note
    return result


def result_gaps(
    uncertainty: str,
    coverage: str,
    *,
    count: int = 1,
    uncertainty_reason: str = "unknown",
) -> dict[str, Any]:
    """The missing-metadata entries of measured results 0..count-1: no interval for the
    value (`uncertainty_reason`, unknown: one run) and no samples scored (inapplicable)."""
    gaps: dict[str, Any] = {}
    for i in range(count):
        gaps[f"results.{i}.uncertainty"] = {"reason": uncertainty_reason, "note": uncertainty}
        gaps[f"results.{i}.coverage"] = {"reason": "inapplicable", "note": coverage}
    return gaps


def configuration_record(
    *,
    config_id: str,
    title: str,
    summary: str,
    reported_name: str,
    family: str,
    parameters: str | None,
    environment: dict[str, Any],
    fine_tuning: str | None,
    training_setting: str,
    version: str,
    settings: dict[str, str],
    provenance_note: str,
    missing_metadata: dict[str, Any],
    added: str,
    citations: list[dict[str, Any]] | None = None,
    gpus: int = 1,
    machine: str | None = None,
) -> dict[str, Any]:
    """The configuration record of a measured model (random weights: no checkpoint);
    `parameters` None leaves the field out; `gpus` and `machine` as `gpu_line` takes them."""
    record: dict[str, Any] = {
        "id": config_id,
        "kind": "configuration",
        "title": title,
        "summary": summary,
        "areas": AREAS,
        "contexts": CONTEXTS,
        "reported_name": reported_name,
        "family": family,
        "method_types": ["foundation_model"],
        "parameters": parameters,
        "hardware": {
            "description": gpu_line(environment, gpus, machine),
            "accelerator": "CPU" if on_cpu(environment) else str(environment["gpu"]),
            "count": gpus,
        },
        "fine_tuning": fine_tuning,
        "training_setting": training_setting,
        "checkpoint": None,
        "version": version,
        "settings": settings,
        "provenance_note": provenance_note,
    }
    if parameters is None:
        del record["parameters"]
    if citations is not None:
        record["citations"] = citations
    record["missing_metadata"] = missing_metadata
    record["added"] = added
    return record


def evaluation_record(
    *,
    eval_id: str,
    config_id: str,
    title: str,
    summary: str,
    protocol: str,
    dataset: str,
    run_id: str,
    comparison: dict[str, str],
    results: list[dict[str, Any]],
    artifacts: list[dict[str, Any]],
    environment: dict[str, Any],
    settings: dict[str, str],
    missing_metadata: dict[str, Any],
    limitations: list[str],
    added: str,
    reproduces: str | None = None,
    reproduces_last: bool = False,
    version: str | None = None,
    gpus: int = 1,
    machine: str | None = None,
) -> dict[str, Any]:
    """The evaluation record of one measurement (origin rewire_measurement). `reproduces`,
    the published evaluation it reproduces, stands after the hardware, or last where
    `reproduces_last` (the place the peak-memory records have always held it). `version`:
    'Rewire measurement run <run_id>' unless given; `gpus` and `machine` as `gpu_line`."""
    record: dict[str, Any] = {
        "id": eval_id,
        "kind": "evaluation",
        "title": title,
        "summary": summary,
        "areas": AREAS,
        "contexts": CONTEXTS,
        "configuration": config_id,
        "protocol": protocol,
        "dataset": dataset,
        "origin": "rewire_measurement",
        "version": version or f"Rewire measurement run {run_id}",
        "comparison": comparison,
        "results": results,
        "artifacts": artifacts,
        "training_hardware": gpu_line(environment, gpus, machine),
    }
    if reproduces is not None and not reproduces_last:
        record["reproduces"] = reproduces
    record |= {
        "settings": settings,
        "environment": environment,
        "missing_metadata": missing_metadata,
        "limitations": limitations,
        "added": added,
    }
    if reproduces is not None and reproduces_last:
        record["reproduces"] = reproduces
    return record


__all__ = [
    "configuration_record",
    "evaluation_record",
    "gpu_line",
    "on_cpu",
    "peak_value",
    "result_gaps",
]
