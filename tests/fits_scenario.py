"""The memory_curves scenario: memory-curve records written by the real records writer
(`measure.memory_curve.records.write_run_records`) from real CPU worker logs
(tests/fixtures/memory_curves/logs/, see make_logs.py there), each turned into the point
listed in `POINTS` by setting its batch, length, status and the allocator figures a GPU
would have read; plus the catalogue records they refer to, copied from records/.

The points cover every case of derive.fits on two tiny models:
- tiny ESM (NT family): inference fits 16 GB at every length; full fine-tuning at batch 8
  runs out of memory at 1,000 tokens on the H200; parameter-efficient: not measured;
- tiny BERT pre-LN (GENA-LM family): full fine-tuning at batch 1 does not fit 16 GB at its
  shortest length; parameter-efficient has no 512-token point; the inference point at
  batch 1 and 512 tokens is measured twice (a second run), the larger figure counts.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml
from scenarios import copy_closure

from measure.memory_curve.recipe import load_recipe
from measure.memory_curve.records import write_run_records

REPO = Path(__file__).resolve().parents[1]
LOGS = Path(__file__).resolve().parent / "fixtures" / "memory_curves" / "logs"
TINY = Path(__file__).resolve().parent / "measure" / "fixtures" / "tiny_curves.yaml"
PROTOCOL = "rewire-20261130-protocol-gpu-memory-curves"
H200_BYTES = 150_110_011_392
"""Device total an H200 reports (torch), as the environment of a GPU run records it."""

OOM = "out_of_memory"
# (model, method, batch, tokens, reserved GB or OOM, allocated GB, run)
POINTS: tuple[tuple[str, str, int, int, float | str, float, str], ...] = (
    ("tiny-esm", "inference", 1, 128, 1.2, 1.0, "a"),
    ("tiny-esm", "inference", 1, 256, 1.5, 1.3, "a"),
    ("tiny-esm", "inference", 1, 512, 2.1, 1.9, "a"),
    ("tiny-esm", "inference", 1, 1000, 3.4, 3.1, "a"),
    ("tiny-esm", "inference", 8, 128, 3.0, 2.8, "a"),
    ("tiny-esm", "inference", 8, 256, 6.0, 5.5, "a"),
    ("tiny-esm", "inference", 8, 512, 12.5, 11.9, "a"),
    ("tiny-esm", "inference", 8, 1000, 30.2, 28.4, "a"),
    ("tiny-esm", "full", 1, 128, 10.0, 9.5, "a"),
    ("tiny-esm", "full", 1, 256, 14.0, 13.2, "a"),
    ("tiny-esm", "full", 1, 512, 22.5, 21.0, "a"),
    ("tiny-esm", "full", 1, 1000, 45.0, 42.7, "a"),
    ("tiny-esm", "full", 8, 128, 30.0, 28.0, "a"),
    ("tiny-esm", "full", 8, 256, 60.0, 57.0, "a"),
    ("tiny-esm", "full", 8, 512, 120.0, 113.5, "a"),
    ("tiny-esm", "full", 8, 1000, OOM, 0.0, "a"),
    ("tiny-gena", "inference", 1, 128, 0.5, 0.4, "a"),
    ("tiny-gena", "inference", 1, 256, 0.7, 0.6, "a"),
    ("tiny-gena", "inference", 1, 512, 1.1, 1.0, "a"),
    ("tiny-gena", "inference", 1, 512, 1.15, 1.05, "b"),
    ("tiny-gena", "inference", 8, 128, 1.5, 1.4, "a"),
    ("tiny-gena", "inference", 8, 256, 2.5, 2.3, "a"),
    ("tiny-gena", "inference", 8, 512, 4.4, 4.1, "a"),
    ("tiny-gena", "full", 1, 128, 17.0, 16.2, "a"),
    ("tiny-gena", "full", 1, 256, 18.0, 17.1, "a"),
    ("tiny-gena", "full", 1, 512, 20.0, 19.0, "a"),
    ("tiny-gena", "full", 8, 512, 50.0, 47.5, "a"),
    ("tiny-gena", "peft", 1, 128, 2.0, 1.8, "a"),
    ("tiny-gena", "peft", 1, 256, 3.0, 2.7, "a"),
)
RUNS = {"a": "20261130-curves-2300", "b": "20261201-curves-0100"}
CHECKS: dict[tuple[str, str, int, int], tuple[float, float]] = {
    ("tiny-esm", "full", 1, 512): (22.9, 21.0),
    ("tiny-gena", "inference", 8, 512): (4.6, 4.1),
}
"""Points re-run alone in a fresh process (run a): (reserved, allocated) GB there. Both
reserved more than in the shared process, as the H200 checks of the live records did."""


def _point_log(
    template: dict[str, Any],
    batch: int,
    tokens: int,
    reserved: float | str,
    allocated: float,
    run_id: str,
) -> dict[str, Any]:
    log = copy.deepcopy(template)
    key, method = log["model"]["key"], log["method"]
    log.update(
        run_id=run_id,
        item=f"{key}--{method}--b{batch}--{tokens}tok",
        batch=batch,
        tokens=tokens,
    )
    log["environment"].update(gpu="NVIDIA H200", gpu_memory_gb=H200_BYTES / 1e9)
    memory = log["memory"]
    memory["device_total_bytes"] = H200_BYTES
    memory["model_allocated_bytes"] = int(allocated * 0.1e9)
    if reserved == OOM:
        log["status"] = OOM
        log["error"] = "did not fit in 150.1 GB (out of memory during steps): CUDA out of memory."
        memory.update(peak_allocated_bytes=int(149.0e9), peak_reserved_bytes=int(149.9e9))
    else:
        assert isinstance(reserved, float)
        memory.update(
            peak_allocated_bytes=round(allocated * 1e9),
            peak_reserved_bytes=round(reserved * 1e9),
        )
    return log


def write_scenario(root: Path) -> list[Path]:
    """Write the scenario under `root` (records/ and artifacts/); the new record files."""
    records = root / "records"
    records.mkdir(parents=True)
    recipe = load_recipe(TINY)
    used = {point[0] for point in POINTS}
    start = [PROTOCOL, recipe.dataset, *(m.family for m in recipe.models if m.key in used)]
    copy_closure(start, REPO / "records", records)
    logs = root / "logs"
    written: list[Path] = []
    for run in sorted(RUNS):
        paths = []
        for model, method, batch, tokens, reserved, allocated, point_run in POINTS:
            if point_run != run:
                continue
            template = json.loads((LOGS / f"{model}--{method}.json").read_text(encoding="utf-8"))
            log = _point_log(template, batch, tokens, reserved, allocated, RUNS[run])
            path = logs / RUNS[run] / "logs" / f"{log['item']}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(log, indent=1) + "\n", encoding="utf-8")
            paths.append(path)
            fresh = CHECKS.get((model, method, batch, tokens)) if point_run == "a" else None
            if fresh is not None:
                check = _point_log(template, batch, tokens, fresh[0], fresh[1], RUNS[run])
                check_path = path.parent.parent / "check" / path.name
                check_path.parent.mkdir(parents=True, exist_ok=True)
                check_path.write_text(json.dumps(check, indent=1) + "\n", encoding="utf-8")
        written += write_run_records(recipe, paths, root, git_commit="0" * 40)
    return written


def read_record(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data
