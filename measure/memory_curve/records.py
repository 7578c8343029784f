"""Records of a memory-curve run: one configuration and one evaluation (origin
rewire_measurement) per finished point, the raw log as an artifact; validated, then
written as new files. The result column is the method and batch; the length is a setting."""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from measure.architectures.registry import get_architecture
from measure.builder import (
    configuration_record,
    evaluation_record,
    measured_result,
    peak_status,
    peak_value,
    result_gaps,
    synthetic_comparison,
)
from measure.memory_curve.recipe import LONG_CONV_FAMILIES, CurveRecipe
from measure.peak_flops import peak_for
from measure.peak_memory.plan import FINISHED
from measure.records import (
    GB,
    added_on,
    cite_artifact,
    measurement_environment,
    memory_observations,
    write_new,
)
from measure.records import item_record_ids as record_ids


def point_configuration(
    log: dict[str, Any],
    family: str,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """The configuration record of one point's log, with the environment and settings the
    point's evaluation states."""
    run_id, item = log["run_id"], log["item"]
    config_id, _ = record_ids(run_id, item)
    logged = str(log["environment"].get("note") or "")
    if int((log.get("process") or {}).get("points", 1)) > 1:
        # the runner's slot note at commit b79cf97 still said "per point" for shared processes
        logged = logged.replace("One process per point ", "One process per model and method ")
    environment = measurement_environment(log["environment"], git_commit, logged, note)
    model, method, batch, tokens = log["model"], log["method"], log["batch"], log["tokens"]
    added = added_on(log["ended_at"])
    settings = {
        "method": method,
        "batch_size": str(batch),
        "tokens_per_sequence": str(tokens),
        "steps": str(log["steps"]),
        "trainable": str(log.get("trainable", "none")),
        "optimizer": str(log.get("optimizer", "none (inference)")),
        "precision": str(
            log.get("precision")
            or "bf16 weights" + ("" if method == "inference" else ", see trainable")
        ),
        "attention": environment.get("attention_backend", "sdpa"),
    }
    label = f"{method}, batch {batch}, {tokens} tokens"
    configuration = configuration_record(
        config_id=config_id,
        title=f"{model['name']}, {label} (Rewire measurement {run_id})",
        summary=f"{model['name']} built from its architecture config with random weights: "
        f"{log['method_text']}; batch {batch} of {tokens} random tokens.",
        reported_name=model["name"],
        family=family,
        parameters=f"{model.get('parameters_total', 0):,} (counted; "
        f"{model.get('parameters_trainable', 0):,} trainable)",
        environment=environment,
        fine_tuning=log["method_text"],
        training_setting=f"Memory curve point: {label}",
        version=f"transformers {environment['packages'].get('transformers', '?')} "
        f"{model.get('class', '')}".strip(),
        settings=settings,
        provenance_note=" ".join(
            [
                "Implemented and measured by Rewire (`measure/memory_curve`); dimensions "
                f"from the config.json of {model['checkpoint']}.",
                *get_architecture(model["key"]).notes,
            ]
        ),
        missing_metadata={
            "checkpoint": {
                "reason": "inapplicable",
                "note": "Random weights from the architecture config: memory does not "
                "depend on trained weights.",
            }
        },
        added=added,
    )
    return configuration, environment, settings


def build_records(
    recipe: CurveRecipe,
    log: dict[str, Any],
    artifact: dict[str, Any],
    family: str,
    *,
    git_commit: str | None = None,
    note: str | None = None,
    check: tuple[dict[str, Any], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The configuration and evaluation records of one finished point's log; `check`, the
    log and artifact of the same point re-run in a fresh process, when there is one."""
    check_log = check[0] if check else None
    configuration, environment, settings = point_configuration(
        log, family, git_commit=git_commit, note=note
    )
    run_id, (config_id, eval_id) = log["run_id"], record_ids(log["run_id"], log["item"])
    model, method, batch, tokens = log["model"], log["method"], log["batch"], log["tokens"]
    added = configuration["added"]
    label = f"{method}, batch {batch}, {tokens} tokens"
    if method == "embed":
        return [configuration, _embed_evaluation(recipe, log, artifact, environment, eval_id,
                                                 config_id, settings, added)]  # fmt: skip
    result = measured_result(
        f"{method}-batch-{batch}",
        peak_status(log),
        "gigabyte",
        "lower",
        observations=_observations(log, check_log),
    )
    peak_value(result, log, "torch.cuda.max_memory_allocated() over the measured steps")
    evaluation = evaluation_record(
        eval_id=eval_id,
        config_id=config_id,
        title=f"{model['name']} peak GPU memory, {label} (Rewire measurement)",
        summary=f"Peak allocated GPU memory of {model['name']}, {label}. Measured by Rewire "
        f"on {environment['gpu']}.",
        protocol=recipe.protocol,
        dataset=recipe.dataset,
        run_id=run_id,
        comparison=synthetic_comparison(
            steps="steps",
            population=f"A batch of {batch} sequences of {tokens} random tokens",
            inputs="Token ids drawn uniformly from the model's sequence vocabulary (k-mers "
            "for NT, BPE ids for GENA-LM and DNABERT-2) with its special tokens, regenerated "
            f"from seed {log['seed']}",
            adaptation=log["method_text"],
            aggregation=f"Peak over {log['steps']} steps after reset_peak_memory_stats() "
            "once the model (and optimizer) existed" + _process_text(log),
            budget=f"{tokens} tokens, batch {batch}, {log['steps']} steps",
            seed=log["seed"],
            metric_implementation="torch.cuda.max_memory_allocated() in "
            "measure/memory_curve/worker.py",
        ),
        results=[result],
        artifacts=[artifact, *([check[1]] if check else [])],
        environment=environment,
        settings=settings,
        missing_metadata=result_gaps(
            "One run per point; identical programs give identical allocator peaks.",
            "No samples are scored: the metric is memory.",
        ),
        limitations=[
            "Random weights and synthetic tokens: valid for memory, not for accuracy.",
            "The allocator peak; the process also holds the CUDA context and the caching "
            "allocator's reserve (observation peak-reserved-memory), so a card needs more "
            "than the peak to run it.",
        ],
        added=added,
    )
    return [configuration, evaluation]


def throughput(log: dict[str, Any]) -> dict[str, float]:
    """Median pass time after the warm-up, and what it gives per second: sequences, tokens,
    nucleotides (where the tokeniser's ratio is stated) and model FLOPs utilisation (2 FLOPs
    per parameter and token, against the GPU's datasheet bf16 dense peak; not for HyenaDNA
    and Caduceus, whose FFT convolutions and scans do not cost 2 FLOPs a parameter)."""
    timed = sorted(log["step_seconds"][int(log.get("warmup", 0)) :])
    if not timed:
        raise ValueError(f"{log['item']}: no timed passes")
    median = statistics.median(timed)
    batch, tokens = int(log["batch"]), int(log["tokens"])
    arch = get_architecture(log["model"]["key"])
    out = {
        "median_seconds": median,
        "sequences_per_second": batch / median,
        "tokens_per_second": batch * tokens / median,
        "timed_passes": float(len(timed)),
        "spread_seconds": timed[-1] - timed[0],
    }
    if arch.nucleotides_per_token is not None:
        out["nucleotides_per_second"] = batch * tokens * arch.nucleotides_per_token / median
    if arch.family not in LONG_CONV_FAMILIES:  # FFTs and scans: not 2 FLOPs a parameter
        peak = peak_for(str(log["environment"]["gpu"])).bf16_dense_tflops * 1e12
        flops = 2.0 * float(log["model"]["parameters_total"]) * batch * tokens
        out["model_flops_utilisation"] = flops / median / peak
    return out


def _sig(value: float) -> float:
    return float(f"{value:.4g}")


def _embed_evaluation(
    recipe: CurveRecipe,
    log: dict[str, Any],
    artifact: dict[str, Any],
    environment: dict[str, Any],
    eval_id: str,
    config_id: str,
    settings: dict[str, str],
    added: str,
) -> dict[str, Any]:
    """The evaluation of one throughput point: sequences per second (median of the timed
    passes), with tokens and nucleotides per second, utilisation and peak memory beside it."""
    model, batch, tokens, run_id = log["model"], log["batch"], log["tokens"], log["run_id"]
    arch = get_architecture(model["key"])
    label = f"batch {batch}, {tokens} tokens"
    result = measured_result(
        f"embed-batch-{batch}", peak_status(log), "sequence per second", "higher"
    )
    if log["status"] == "out_of_memory":
        result["note"] = str(log["error"]).split(":")[0]
        result["observations"] = []
    else:
        figures = throughput(log)
        result["value"] = _sig(figures["sequences_per_second"])
        result["note"] = (
            f"batch {batch} / median time of {int(figures['timed_passes'])} passes after "
            f"{log.get('warmup', 0)} warm-up passes"
        )
        observations = [
            {"name": "median-pass-time", "value": _sig(figures["median_seconds"] * 1000),
             "unit": "millisecond", "note": "Median over the timed passes, between CUDA "
             "synchronisations"},
            {"name": "pass-time-range", "value": _sig(figures["spread_seconds"] * 1000),
             "unit": "millisecond", "note": "Slowest minus fastest timed pass"},
            {"name": "tokens-per-second", "value": _sig(figures["tokens_per_second"]),
             "unit": "token per second", "note": "Batch x tokens / median pass time"},
            {"name": "peak-allocated-memory",
             "value": round(log["memory"]["peak_allocated_bytes"] / GB, 4), "unit": "gigabyte",
             "note": "torch.cuda.max_memory_allocated() over the passes"},
        ]  # fmt: skip
        if "model_flops_utilisation" in figures:
            observations.insert(3, {
                "name": "model-flops-utilisation",
                "value": _sig(figures["model_flops_utilisation"] * 100), "unit": "percent",
                "note": "2 FLOPs per parameter and token over the median pass, against the "
                "GPU's datasheet bf16 dense peak (measure/peak_flops.py)",
            })  # fmt: skip
        if "nucleotides_per_second" in figures:
            kind = "exact" if arch.nucleotides_exact else "a stated average"
            observations.insert(3, {
                "name": "nucleotides-per-second",
                "value": _sig(figures["nucleotides_per_second"]),
                "unit": "nucleotide per second",
                "note": f"Tokens per second x {arch.nucleotides_per_token:.3g} nucleotides per "
                f"token ({kind}: {arch.tokenisation})",
            })  # fmt: skip
        result["observations"] = observations
    return evaluation_record(
        eval_id=eval_id,
        config_id=config_id,
        title=f"{model['name']} embedding throughput, {label} (Rewire measurement)",
        summary=f"Sequence embeddings per second of {model['name']} (frozen, bf16), {label}. "
        f"Measured by Rewire on {environment['gpu']}.",
        protocol=recipe.protocol,
        dataset=recipe.dataset,
        run_id=run_id,
        comparison=synthetic_comparison(
            steps="passes",
            population=f"A batch of {batch} sequences of {tokens} random tokens",
            inputs="Token ids drawn uniformly from the model's sequence vocabulary with its "
            f"special tokens, regenerated from seed {log['seed']}",
            adaptation=log["method_text"],
            aggregation=f"Median of {log['steps'] - int(log.get('warmup', 0))} timed passes "
            f"after {log.get('warmup', 0)} warm-up passes" + _process_text(log),
            budget=f"{tokens} tokens, batch {batch}, {log['steps']} passes",
            seed=log["seed"],
            metric_implementation="time.perf_counter() between torch.cuda.synchronize() "
            "calls around each pass in measure/memory_curve/worker.py",
        ),
        results=[result],
        artifacts=[artifact],
        environment=environment,
        settings=settings,
        missing_metadata=result_gaps(
            "One process per point; the range of the timed passes is an observation, not an "
            "interval.",
            "No samples are scored: the metric is speed.",
        ),
        limitations=[
            "Random weights and synthetic tokens: valid for speed, not for accuracy.",
            "Sequences of equal length, no padding, one GPU; tokenisation on the CPU is not timed.",
        ],
        added=added,
    )


def _process_text(log: dict[str, Any]) -> str:
    """How the point shared its process (logs before process grouping ran one per point)."""
    process = log.get("process")
    if not process or int(process.get("points", 1)) <= 1:
        return "; a process of its own"
    return (
        f"; point {int(process['index']) + 1} of {process['points']} run in one process for "
        "this model and method (model built once; before each point gradients released, "
        "torch.cuda.empty_cache() and reset_peak_memory_stats(); AdamW states, once created, "
        "stay, as between steps of one run)"
    )


def _observations(log: dict[str, Any], check: dict[str, Any] | None) -> list[dict[str, Any]]:
    shared = int((log.get("process") or {}).get("points", 1)) > 1
    out = memory_observations(
        log["memory"],
        "torch.cuda.max_memory_reserved() over the measured steps",
        "model_allocated_bytes",
        "torch.cuda.memory_allocated() before the point's first step"
        + (
            " (in a shared process this includes AdamW states that an earlier point created)"
            if shared
            else ", once the model and optimizer existed"
        ),
    )
    if check is not None and check["memory"].get("peak_allocated_bytes") is not None:
        out.append(
            {
                "name": "peak-allocated-fresh-process",
                "value": round(check["memory"]["peak_allocated_bytes"] / GB, 4),
                "unit": "gigabyte",
                "note": "The same point re-run alone in a fresh process (a check of the "
                "per-point reset in the shared process; second artifact)",
            }
        )
    if check is not None and check["memory"].get("peak_reserved_bytes") is not None:
        out.append(
            {
                "name": "peak-reserved-fresh-process",
                "value": round(check["memory"]["peak_reserved_bytes"] / GB, 4),
                "unit": "gigabyte",
                "note": "torch.cuda.max_memory_reserved() of the same point re-run alone in a "
                "fresh process (second artifact)",
            }
        )
    return out


def _check(log_path: Path, root: Path, run_id: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The fresh-process re-run of a point (RUN/check/ITEM.json beside RUN/logs/), stored."""
    path = log_path.parent.parent / "check" / log_path.name
    try:
        log = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    artifact = cite_artifact(
        path,
        root,
        run_id,
        f"check-{path.name}",
        "Raw JSON log of the same point re-run alone in a fresh process (check of the shared "
        "process's per-point reset)",
    )
    return log, artifact


def finished_points(paths: Sequence[Path]) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each readable point log of `paths` whose point finished (a value or out of memory)."""
    for path in paths:
        try:
            log = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if log.get("status") in FINISHED:
            yield path, log


def point_artifact(path: Path, root: Path, log: dict[str, Any]) -> dict[str, Any]:
    """The point's raw log, stored under artifacts/ and cited."""
    return cite_artifact(
        path,
        root,
        log["run_id"],
        path.name,
        "Raw JSON log of the point's process: settings, allocator statistics, step times "
        "and environment",
    )


def write_run_records(
    recipe: CurveRecipe,
    logs: Sequence[Path],
    root: Path,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> list[Path]:
    """Records for every finished GPU point log that has none yet."""
    families = {m.key: m.family for m in recipe.models}
    records: list[dict[str, Any]] = []
    for path, log in finished_points(logs):
        if log["memory"].get("peak_allocated_bytes") is None:
            continue
        if (root / "records" / f"{record_ids(log['run_id'], log['item'])[1]}.yaml").exists():
            continue
        artifact = point_artifact(path, root, log)
        family = families[log["model"]["key"]]
        check = _check(path, root, log["run_id"])
        records.extend(
            build_records(
                recipe, log, artifact, family, git_commit=git_commit, note=note, check=check
            )
        )
    return write_new(records, root)
