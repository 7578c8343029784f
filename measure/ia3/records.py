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

This module stores the raw logs as artifacts and writes the records (`write`, and the
command line `main`); the records are built in `build` (configuration and evaluation),
`results` (the run time and its note), `observations` (step times, rates, MFU, memory,
loss checks) and `catalogue` (ids, the protocol, family, dataset and published records).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from measure.records import sha256_file, store_artifact, write_records

from .build import build_records
from .catalogue import DATASET, dataset_record
from .evidence import NotConfirmed, RunLog
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
        stored = store_artifact(path, root, run_id, path.name)
        artifacts[path] = {
            "path": stored.path,
            "sha256": stored.sha256,
            "description": description,
            "media_type": media,
            "size_bytes": stored.size_bytes,
        }
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
    artifacts = yaml.safe_load(record.read_text(encoding="utf-8")).get("artifacts") or []
    if not any(a.get("sha256") == digest for a in artifacts):
        raise ValueError(
            f"{log}: not an artifact of {eval_id} (no artifact with its SHA-256 {digest[:12]}…)"
        )


def _pair(text: str, option: str, usage: str) -> tuple[str, str]:
    """`LEFT=RIGHT` of a command-line option, both sides non-empty."""
    left, sep, right = text.partition("=")
    if not sep or not left or not right:
        raise ValueError(f"{option} {text!r}: use {usage}")
    return left, right


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m measure.ia3.records LOG... --run-id ID --machine TEXT`: write records."""
    import argparse

    from measure.records import RecordExists
    from rewire_site.problems import RecordsInvalid

    p = argparse.ArgumentParser(description="Write IA3 run-time records from merged run logs.")
    p.add_argument("logs", nargs="+", type=Path, help="merged logs (measure.ia3.launch output)")
    p.add_argument("--root", type=Path, default=Path())
    p.add_argument("--run-id", required=True, help="e.g. 20261129-ia3-1920")
    p.add_argument("--machine", required=True, help="the machine, in words")
    p.add_argument("--note", default=None, help="conditions a reader must know")
    p.add_argument(
        "--unconfirmed-as-incomplete",
        action="store_true",
        help="write a short run that no full-length run confirms as an incomplete result "
        "(no value; observations and a note) instead of refusing",
    )
    p.add_argument(
        "--git-commit",
        default=None,
        help="commit that ran, for logs that could not read one (device copy without .git)",
    )
    p.add_argument(
        "--confirm-with",
        action="append",
        default=[],
        metavar="EVALUATION_ID=LOG",
        help="a recorded full-length run (its evaluation id and merged log) that may confirm "
        "the extrapolation of short runs of the same setup",
    )
    p.add_argument(
        "--attach",
        action="append",
        default=[],
        metavar="PATH=DESCRIPTION",
        help="a further raw file to store and list as an artifact of every evaluation",
    )
    p.add_argument(
        "--loss-check",
        action="append",
        default=[],
        metavar="LABEL=LOG",
        help="a merged log whose per-step losses each run of the same model is compared "
        "with (observations loss-*-difference-vs-LABEL); stored as an artifact",
    )
    args = p.parse_args(argv)
    try:
        written = write(
            args.logs,
            args.root,
            args.run_id,
            args.machine,
            note=args.note,
            unconfirmed_as_incomplete=args.unconfirmed_as_incomplete,
            git_commit=args.git_commit,
            attach=[
                (Path(path), what)
                for path, what in (_pair(a, "--attach", "PATH=DESCRIPTION") for a in args.attach)
            ],
            confirm_with=[
                (eval_id, Path(log))
                for eval_id, log in (
                    _pair(c, "--confirm-with", "EVALUATION_ID=LOG") for c in args.confirm_with
                )
            ],
            loss_checks=[
                (label, Path(log))
                for label, log in (_pair(c, "--loss-check", "LABEL=LOG") for c in args.loss_check)
            ],
        )
    except (NotConfirmed, RecordExists, ValueError) as error:
        print(f"error: {error}")
        return 1
    except RecordsInvalid as error:
        for problem in error.problems:
            print(problem)
        return 1
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
