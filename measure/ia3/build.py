"""Configuration and evaluation records of IA3 runs (one pair per setup): the values and
words of an IA3 run (settings, environment, comparison, titles and summaries), written by
measure/builder.py, the record builder every recipe calls."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from measure.builder import Measured, ResultGaps, configuration_record, evaluation_record
from measure.records import measurement_environment, resolve_commit

from .catalogue import (
    DATASET,
    FAMILY,
    LIMITATIONS,
    NAMES,
    PROTOCOL,
    PUBLISHED,
    record_ids,
)
from .data import TRAIN_FRACTION
from .evidence import RunLog, RunTime, overlaps
from .observations import LossCheck, loss_check
from .results import run_time_or_none, run_time_result


def _settings(log: RunLog, time: RunTime | None) -> dict[str, str]:
    s = log.settings
    if time is None:
        steps = f"{log.steps} of {log.target_steps} (incomplete run: no run time claimed)"
    elif time.extrapolated:
        steps = f"{time.target_steps} (extrapolated from {time.measured_steps} measured)"
    else:
        steps = str(time.measured_steps)
    compile_text = {"none": "no (eager)", "default": "yes, default mode (inductor)"}.get(
        str(s["compile"]), f"yes, mode {s['compile']}"
    )
    return {
        "update": "IA3 on key, value and feed-forward output layer + classification head; "
        "backbone and embeddings frozen",
        "precision": f"{s['precision']} frozen backbone under autocast; IA3 vectors, head and "
        "Adam states float32",
        "optimizer": f"{s['optimizer']}, lr {s['lr']}",
        "global_batch": str(s["global_batch"]),
        "per_gpu_batch": str(s["per_gpu_batch"]),
        "gpus": str(log.gpus),
        "parallelism": "DDP over torchrun (NCCL), gradients of trainable parameters averaged"
        if s["ddp"]
        else "one process, no DDP",
        "steps": steps,
        "warmup_steps_excluded_from_step_time": str(s["warmup"]),
        "task_shape": f"{s['task']}: {s['length_bp']} bp, {s['tokens_per_sequence']} tokens, "
        f"{s['classes']} classes",
        "data": "synthetic, resident on the GPU (no data-loader time)",
        "torch_compile": compile_text,
        "cuda_graphs": "yes" if s["compile"] == "reduce-overhead" else "no",
        "fused_adam": "yes" if "fused" in str(s["optimizer"]) else "no",
        "attention": str(s["attention"]),
        "seed": str(s["seed"]),
        **_cache_setting(log),
    }


def _cache_setting(log: RunLog) -> dict[str, str]:
    """The compile cache a run started with (logs from before it was recorded: nothing)."""
    cache = log.data.get("compile_cache")
    if not cache or log.settings["compile"] == "none":
        return {}
    if cache.get("dir") is None:
        return {"compile_cache": "torch's default location (state not recorded)"}
    files = int(cache.get("files_at_start") or 0)
    origin = cache.get("origin")
    if not files:
        state = "cold: TORCHINDUCTOR_CACHE_DIR empty at start"
    elif origin:
        state = f"carried: {files:,} files in TORCHINDUCTOR_CACHE_DIR at start, {origin}"
    else:
        state = (
            f"warm: {files:,} files in TORCHINDUCTOR_CACHE_DIR at start, left by earlier runs "
            "on the same machine"
        )
    switches = (
        f"FX graph cache {cache.get('fx_graph_cache')}, "
        f"AOTAutograd cache {cache.get('autograd_cache')}"
    )
    if "fx_graph_cache_hit" in cache:
        switches += (
            f"; after the run, FX graph cache {cache['fx_graph_cache_hit']} hits and "
            f"{cache['fx_graph_cache_miss']} misses, AOTAutograd cache "
            f"{cache['autograd_cache_hit']} hits and {cache['autograd_cache_miss']} misses"
        )
    return {"compile_cache": f"{state} ({switches})"}


def _commit(log: RunLog, git_commit: str | None) -> str:
    """The commit that ran: the log's, or `git_commit` where the log could not name it
    (no .git on the device copy, or a tree that differed from the commit it read)."""
    return resolve_commit(str(log.data["environment"]["git_commit"]), git_commit)[0]


def _environment(
    log: RunLog, logs: Sequence[RunLog], machine: str, note: str | None, git_commit: str | None
) -> Any:
    launcher = log.data["launcher"]
    env = {
        **log.data["environment"],
        "command": str(launcher["command"]),
        "started_at": launcher["started_at"],
        "ended_at": launcher["ended_at"],
    }
    overlapping = [
        f"Ran at the same time as {other.path.stem} ({other.gpus} GPU) on the same host "
        f"for {seconds:.0f} s of its {log.wall_s:.0f} s."
        for other, seconds in overlaps(log, logs)
    ]
    return measurement_environment(env, git_commit, f"Machine: {machine}.", *overlapping, note)


def _measured(
    log: RunLog,
    logs: Sequence[RunLog],
    time: RunTime | None,
    machine: str,
    note: str | None,
    git_commit: str | None,
) -> Measured:
    """What both records of a setup state: its run, environment, settings, day and GPUs."""
    return Measured(
        log.path.stem,
        _environment(log, logs, machine, note, git_commit),
        _settings(log, time),
        log.interval[1].date().isoformat(),
        gpus=log.gpus,
        machine=machine,
    )


def _configuration(log: RunLog, measured: Measured, config_id: str) -> dict[str, Any]:
    env = log.data["environment"]
    params = log.data["parameters"]
    arch = log.data["architecture"]
    name = NAMES.get(log.arch, log.arch)
    packages = env["packages"]
    return configuration_record(
        measured,
        config_id=config_id,
        title=f"{name} dimensions, IA3 fine-tuning, {log.gpus} x {env['gpu']} (Rewire)",
        summary=f"{name} architecture with random weights, IA3 adapters on keys, values and "
        f"the feed-forward output layer and a trainable classification head, trained "
        f"data-parallel on {log.gpus} x {env['gpu']} with a global batch of 8.",
        reported_name=f"{name} (architecture config, random weights) + IA3",
        family=FAMILY,
        parameters=f"{params['total'] / 1e6:.1f}M counted (backbone {arch['layers']} "
        f"layers x hidden {arch['hidden']}, ffn {arch['ffn']}; head included); "
        f"{params['trainable']:,} trainable",
        fine_tuning="IA3 (peft): rescaling vectors on the key and value projections' "
        "outputs and the feed-forward output layer's input, classification head trainable "
        "(peft modules_to_save), backbone and embeddings frozen; Adam lr 3e-3, global batch 8.",
        training_setting=f"Run-time measurement of IA3 fine-tuning on synthetic "
        f"NT-benchmark-shaped data (the protocol's run is {log.target_steps:,} steps; the "
        "evaluation states how many ran)",
        version=f"torch {packages.get('torch')}, transformers {packages.get('transformers')}"
        f", peft {packages.get('peft')}",
        provenance_note="Implemented and measured by Rewire (`measure/ia3`); the "
        "published runs' software, precision and task list are not stated.",
        checkpoint_note="Random weights built from the architecture config; run time does "
        "not depend on the weights' values.",
    )


def build_records(
    logs: Sequence[RunLog],
    run_id: str,
    artifacts: dict[Path, dict[str, Any]],
    machine: str,
    note: str | None = None,
    *,
    unconfirmed_as_incomplete: bool = False,
    git_commit: str | None = None,
    confirm_with: Sequence[tuple[str, RunLog]] = (),
    loss_checks: Sequence[tuple[str, RunLog]] = (),
) -> list[dict[str, Any]]:
    """Configuration and evaluation records of every setup in `logs` (a full-length run
    where a setup has one). An unconfirmed short run raises NotConfirmed, or with
    `unconfirmed_as_incomplete` becomes an incomplete result (no value). `confirm_with`:
    full-length runs already recorded (evaluation id, log) that may confirm short runs.
    `loss_checks` (label, log): runs whose per-step losses each record's run is compared
    with (same model only), as observations."""
    chosen: dict[tuple[str, int], RunLog] = {}
    for log in logs:
        current = chosen.get(log.setup)
        if current is None or (log.full_length and not current.full_length):
            chosen[log.setup] = log
    checkable = [*logs, *(full for _, full in confirm_with)]
    times = {
        setup: run_time_or_none(log, checkable, unconfirmed_as_incomplete)
        for setup, log in chosen.items()
    }
    eval_ids = {id(log): record_ids(run_id, *log.setup)[1] for log in logs}
    eval_ids.update({id(full): given for given, full in confirm_with})
    records: list[dict[str, Any]] = []
    for setup, log in sorted(chosen.items()):
        config_id, eval_id = record_ids(run_id, *setup)
        time = times[setup]
        full = time.confirmed_by if time is not None else None
        confirmed_by = eval_ids[id(full)] if full is not None else None
        measured = _measured(log, logs, time, machine, note, git_commit)
        records.append(_configuration(log, measured, config_id))
        ids = (eval_id, config_id, confirmed_by)
        checks = [c for label, other in loss_checks if (c := loss_check(log, other, label))]
        records.append(_evaluation(log, logs, measured, time, ids, artifacts, git_commit, checks))
    return records


def _title_and_summary(log: RunLog, time: RunTime | None) -> tuple[str, str]:
    gpu = log.data["environment"]["gpu"]
    name = NAMES.get(log.arch, log.arch)
    where = f"{log.gpus} x {gpu}"
    if time is None:
        steps = f"{log.steps:,} of {log.target_steps:,} steps"
        return (
            f"{name} IA3 fine-tuning run time on {where} (Rewire, incomplete: {steps})",
            f"An IA3 fine-tuning run ({name} dimensions, global batch 8, synthetic data) on "
            f"{where} ran {steps}: {log.wall_s / 60:.2f} min from launch to exit, median "
            f"step {log.summary.median_ms:.1f} ms after warm-up. No {log.target_steps:,}-step "
            "run time is claimed: no full-length run confirmed the extrapolation.",
        )
    label = "extrapolated" if time.extrapolated else "measured"
    return (
        f"{name} IA3 fine-tuning run time on {where} (Rewire, {label})",
        f"One IA3 fine-tuning run of {time.target_steps:,} steps ({name} dimensions, global "
        f"batch 8, synthetic data) takes {time.minutes:.1f} min on {where} ({label}).",
    )


def _evaluation(
    log: RunLog,
    logs: Sequence[RunLog],
    measured: Measured,
    time: RunTime | None,
    ids: tuple[str, str, str | None],
    artifacts: dict[Path, dict[str, Any]],
    git_commit: str | None,
    checks: Sequence[LossCheck] = (),
) -> dict[str, Any]:
    eval_id, config_id, confirmed_by = ids
    logged = {other.path for other in logs} | {other.stdout_path for other in logs}
    s = log.settings
    env = log.data["environment"]
    commit = _commit(log, git_commit)
    files = [artifacts[log.path], artifacts[log.stdout_path]]
    files += [a for key, a in artifacts.items() if key not in logged]
    title, summary = _title_and_summary(log, time)
    steps = (
        f"{log.steps:,} of the protocol's {log.target_steps:,} steps (incomplete run)"
        if time is None
        else f"{time.target_steps:,} steps"
    )
    return evaluation_record(
        measured,
        eval_id=eval_id,
        config_id=config_id,
        title=title,
        summary=summary,
        protocol=PROTOCOL,
        dataset=DATASET,
        version=f"Rewire measurement run {log.path.stem}, measure/ia3 at {commit}",
        comparison={
            "split": f"Synthetic training fold: {s['rows']:,} sequences "
            f"({TRAIN_FRACTION:.0%} of the task's training-set size); no validation pass",
            "population": f"Synthetic uniform random sequences shaped as NT benchmark task "
            f"{s['task']}: {s['length_bp']} bp, {s['classes']} classes",
            "inputs": f"{s['tokens_per_sequence']} tokens per sequence (NT 6-mer rule: CLS, "
            "6-mers, leftover single bases), no padding",
            "adaptation": "IA3 on key, value and feed-forward output layer; classification "
            "head trainable; backbone frozen",
            "aggregation": "One run per setup: wall time from torchrun launch to exit, not "
            "an average over tasks or folds",
            "budget": f"{steps} at global batch 8 "
            f"({s['per_gpu_batch']} per GPU) on {log.gpus} x {env['gpu']}",
            "dataset_version": f"Generated by measure/ia3/data.py at {commit}, seed {s['seed']}",
            "metric_implementation": "Wall clock around the torchrun command "
            "(measure/ia3/launch.py); step times from CUDA events (measure/ia3/worker.py)",
        },
        results=[run_time_result(log, time, confirmed_by, checks)],
        artifacts=files,
        reproduces=PUBLISHED.get(log.arch),
        limitations=LIMITATIONS
        if time is not None
        else [
            *LIMITATIONS,
            f"Incomplete run: {log.steps:,} of the protocol's {log.target_steps:,} steps were "
            "run and no full-length run confirmed an extrapolation, so no run time is "
            "claimed; the observations are those of the shorter run.",
        ],
        gaps=ResultGaps(
            "One run per setup, so no spread of the run time; the step-time spread is given "
            "in the observations."
            if time is not None
            else "An incomplete run claims no run time, so there is no spread to give; the "
            "step-time spread is given in the observations.",
            "A run-time measurement scores no samples.",
            "unknown" if time is not None else "inapplicable",
        ),
    )
