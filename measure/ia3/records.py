"""Records of IA3 run-time measurements: dataset, configurations and evaluations.

One configuration and one evaluation (origin rewire_measurement) per measured setup
(model x GPU count), each evaluation `reproduces` the published one of its model size, with
the raw JSON log and torchrun's output as artifacts. The hardware differs from the
published A100 node; the site builder derives that concern from `environment.gpu`,
`training_hardware` and the configuration's `hardware`, so it is not recorded by hand.

A full-length run's wall time is the result. A short run is extrapolated only when a
full-length run of the same setup and levers confirms it within 5%; that run may be one
already recorded, given with `confirm_with` (its evaluation id and log), so that its
evaluation is the one the extrapolation names. Without one, nothing is extrapolated
(`NotConfirmed`). With `unconfirmed_as_incomplete` such a run is written as what it is:
a result of status `incomplete` with no value, whose observations hold what was measured
(steps, the wall time of the run made, step times, rates, MFU, peak memory per GPU) and
whose note says why no 10,000-step run time is claimed.

This module stores the raw logs as artifacts and writes the records (`write`; on the
command line `rewire measure ia3-records`); the records are built in `build`
(configuration and evaluation), `results` (the run time and its note), `observations`
(step times, rates, MFU, memory, loss checks) and `catalogue` (ids, the protocol, family,
dataset and published records).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from measure.records import cite_artifact, sha256_file, write_records
from rewire_site.load import load_file

from .build import build_records
from .catalogue import DATASET, dataset_record
from .evidence import RunLog
from .launch import FULL_STEPS
from .results import run_time_or_none


def write(
    paths: Sequence[Path],
    root: Path,
    run_id: str,
    machine: str,
    *,
    note: str | None = None,
    target_steps: int = FULL_STEPS,
    unconfirmed_as_incomplete: bool = False,
    git_commit: str | None = None,
    attach: Sequence[tuple[Path, str]] = (),
    confirm_with: Sequence[tuple[str, Path]] = (),
    loss_checks: Sequence[tuple[str, Path]] = (),
) -> list[Path]:
    """Store the logs (and the `attach` files: path, description) as artifacts and write
    the records (dataset first, when absent). An unconfirmed short run raises NotConfirmed
    before anything is copied, unless `unconfirmed_as_incomplete` writes it as an
    incomplete run; `git_commit` names the commit where a log could not read one;
    `confirm_with` gives recorded full-length runs (evaluation id, merged log) that may
    confirm the extrapolation of short runs of their setup."""
    logs = [RunLog.load(p, target_steps) for p in paths]
    compared = [(label, RunLog.load(p, target_steps)) for label, p in loss_checks]
    confirming = [(eval_id, RunLog.load(p, target_steps)) for eval_id, p in confirm_with]
    for eval_id, full in confirming:
        if not full.full_length:
            raise ValueError(f"{full.path}: a {full.steps}-step run cannot confirm anything")
        _check_recorded(root, eval_id, full.path)
    checkable = [*logs, *(full for _, full in confirming)]
    for log in logs:  # raises NotConfirmed before anything is copied
        run_time_or_none(log, checkable, unconfirmed_as_incomplete)
    artifacts: dict[Path, dict[str, Any]] = {}
    files = [
        (path, media, f"{log.path.stem}: {what}")
        for log in logs
        for path, media, what in (
            (log.path, "application/json", "merged worker and launcher log (JSON)"),
            (log.stdout_path, "text/plain", "torchrun's output"),
        )
    ]
    files += [(path, "text/plain", what) for path, what in attach]
    listed = {p for p, _m, _w in files}
    for label, other in compared:  # a compared run's log travels with the records
        if other.path not in listed:
            listed.add(other.path)
            files.append(
                (other.path, "application/json", f"{other.path.stem}: run compared ({label})")
            )
    for path, media, description in files:
        artifacts[path] = cite_artifact(path, root, run_id, path.name, description, media)
    records = build_records(
        logs,
        run_id,
        artifacts,
        machine,
        note,
        unconfirmed_as_incomplete=unconfirmed_as_incomplete,
        git_commit=git_commit,
        confirm_with=confirming,
        loss_checks=compared,
    )
    if not (root / "records" / f"{DATASET}.yaml").exists():
        records.insert(0, dataset_record())
    return write_records(records, root)


def _check_recorded(root: Path, eval_id: str, log: Path) -> None:
    """`eval_id` is a record under `root` whose artifacts hold `log` (same SHA-256)."""
    record = root / "records" / f"{eval_id}.yaml"
    if not record.is_file():
        raise ValueError(f"{eval_id}: no such record under {root / 'records'}")
    digest = sha256_file(log)
    data = load_file(record).data  # the loader that build, validate and serve use
    if not isinstance(data, dict):
        raise ValueError(f"{record}: not a record (`rewire validate` says why)")
    artifacts = data.get("artifacts") or []
    if not any(a.get("sha256") == digest for a in artifacts):
        raise ValueError(
            f"{log}: not an artifact of {eval_id} (no artifact with its SHA-256 {digest[:12]}…)"
        )
