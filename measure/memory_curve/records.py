"""Records of a memory-curve run: one configuration and one evaluation (origin
rewire_measurement) per finished point, the raw log as an artifact; validated, then
written as new files. The result column is the method and batch; the length is a setting.
A finished point (`MeasuredPoint`) is what every evaluation of a point is built from: the
memory and throughput evaluations here, the claim evaluations in `claim_records`."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measure.architectures.registry import get_architecture
from measure.builder import (
    Measured,
    ResultGaps,
    configuration_record,
    counted_parameters,
    evaluation_record,
    measured_result,
    peak_result,
    peak_status,
    synthetic_comparison,
    transformers_version,
)
from measure.memory_curve.recipe import LONG_CONV_FAMILIES, CurveRecipe
from measure.peak_flops import peak_for
from measure.records import (
    GB,
    added_on,
    cite_artifact,
    gigabyte_observations,
    measurement_environment,
    memory_observations,
    recorded,
    write_finished,
)
from measure.records import item_record_ids as record_ids

MEMORY_GAPS = ResultGaps(
    "One run per point; identical programs give identical allocator peaks.",
    "No samples are scored: the metric is memory.",
)
MEMORY_LIMITATIONS = [
    "Random weights and synthetic tokens: valid for memory, not for accuracy.",
    "The allocator peak; the process also holds the CUDA context and the caching "
    "allocator's reserve (observation peak-reserved-memory), so a card needs more "
    "than the peak to run it.",
]


@dataclass(frozen=True)
class MeasuredPoint:
    """One finished point of a curve run: its log, its raw log cited, its configuration
    record, and what every evaluation of it states with the configuration (`measured`)."""

    recipe: CurveRecipe
    log: dict[str, Any]
    artifact: dict[str, Any]
    configuration: dict[str, Any]
    measured: Measured

    @property
    def label(self) -> str:
        """'batch B, T tokens'."""
        return f"batch {self.log['batch']}, {self.log['tokens']} tokens"

    def comparison(
        self, *, steps: str, inputs: str, aggregation: str, budget: str, metric: str
    ) -> dict[str, str]:
        """The comparison of a point's evaluation: one batch of random tokens regenerated
        from the log's seed, the log's method, `aggregation` with how the point shared its
        process."""
        log = self.log
        return synthetic_comparison(
            steps=steps,
            population=f"A batch of {log['batch']} sequences of {log['tokens']} random tokens",
            inputs=inputs,
            adaptation=log["method_text"],
            aggregation=aggregation + _process_text(log),
            budget=budget,
            seed=log["seed"],
            metric_implementation=metric,
        )

    def evaluation(
        self,
        *,
        title: str,
        summary: str,
        comparison: dict[str, str],
        results: list[dict[str, Any]],
        gaps: ResultGaps,
        limitations: list[str],
        artifacts: list[dict[str, Any]] | None = None,
        reproduces: str | None = None,
    ) -> dict[str, Any]:
        """The point's evaluation in the recipe's protocol, naming its configuration; its
        artifact the point's raw log unless `artifacts` are given."""
        config_id, eval_id = record_ids(self.log["run_id"], self.log["item"])
        return evaluation_record(
            self.measured,
            eval_id=eval_id,
            config_id=config_id,
            title=title,
            summary=summary,
            protocol=self.recipe.protocol,
            dataset=self.recipe.dataset,
            comparison=comparison,
            results=results,
            artifacts=[self.artifact] if artifacts is None else artifacts,
            gaps=gaps,
            limitations=limitations,
            reproduces=reproduces,
        )


def make_point(
    recipe: CurveRecipe,
    log: dict[str, Any],
    artifact: dict[str, Any],
    family: str,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> MeasuredPoint:
    """One finished point's log with its cited raw log: the configuration record, and the
    environment and settings its evaluations state."""
    run_id, item = log["run_id"], log["item"]
    config_id, _ = record_ids(run_id, item)
    logged = str(log["environment"].get("note") or "")
    if int((log.get("process") or {}).get("points", 1)) > 1:
        # the runner's slot note at commit b79cf97 still said "per point" for shared processes
        logged = logged.replace("One process per point ", "One process per model and method ")
    environment = measurement_environment(log["environment"], git_commit, logged, note)
    model, method, batch, tokens = log["model"], log["method"], log["batch"], log["tokens"]
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
    measured = Measured(run_id, environment, settings, added_on(log["ended_at"]))
    label = f"{method}, batch {batch}, {tokens} tokens"
    configuration = configuration_record(
        measured,
        config_id=config_id,
        title=f"{model['name']}, {label} (Rewire measurement {run_id})",
        summary=f"{model['name']} built from its architecture config with random weights: "
        f"{log['method_text']}; batch {batch} of {tokens} random tokens.",
        reported_name=model["name"],
        family=family,
        parameters=counted_parameters(model),
        fine_tuning=log["method_text"],
        training_setting=f"Memory curve point: {label}",
        version=transformers_version(environment, model),
        provenance_note=" ".join(
            [
                "Implemented and measured by Rewire (`measure/memory_curve`); dimensions "
                f"from the config.json of {model['checkpoint']}.",
                *get_architecture(model["key"]).notes,
            ]
        ),
        checkpoint_note="Random weights from the architecture config: memory does not "
        "depend on trained weights.",
    )
    return MeasuredPoint(recipe, log, artifact, configuration, measured)


def stored_point(
    recipe: CurveRecipe,
    path: Path,
    log: dict[str, Any],
    root: Path,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> MeasuredPoint:
    """`make_point` of a run's finished log, its raw log stored under artifacts/ and cited,
    its family the recipe's for its model."""
    artifact = cite_artifact(
        path,
        root,
        log["run_id"],
        path.name,
        "Raw JSON log of the point's process: settings, allocator statistics, step times "
        "and environment",
    )
    family = next(m.family for m in recipe.models if m.key == log["model"]["key"])
    return make_point(recipe, log, artifact, family, git_commit=git_commit, note=note)


def point_records(
    point: MeasuredPoint, check: tuple[dict[str, Any], dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The configuration and the memory (or, for an embedding point, throughput) evaluation
    of a point; `check`, the log and artifact of the same point re-run in a fresh process,
    when there is one."""
    if point.log["method"] == "embed":
        return [point.configuration, _embed_evaluation(point)]
    return [point.configuration, _memory_evaluation(point, check)]


def memory_comparison(point: MeasuredPoint) -> dict[str, str]:
    """The comparison of a point's peak memory (its metric the allocated peak)."""
    log = point.log
    return point.comparison(
        steps="steps",
        inputs="Token ids drawn uniformly from the model's sequence vocabulary (k-mers "
        "for NT, BPE ids for GENA-LM and DNABERT-2) with its special tokens, regenerated "
        f"from seed {log['seed']}",
        aggregation=f"Peak over {log['steps']} steps after reset_peak_memory_stats() "
        "once the model (and optimizer) existed",
        budget=f"{log['tokens']} tokens, batch {log['batch']}, {log['steps']} steps",
        metric="torch.cuda.max_memory_allocated() in measure/memory_curve/worker.py",
    )


def _memory_evaluation(
    point: MeasuredPoint, check: tuple[dict[str, Any], dict[str, Any]] | None
) -> dict[str, Any]:
    """The evaluation of one memory point: the allocated peak (or out of memory)."""
    log = point.log
    model, method, batch = log["model"], log["method"], log["batch"]
    result = peak_result(
        f"{method}-batch-{batch}",
        log,
        "torch.cuda.max_memory_allocated() over the measured steps",
        observations=point_observations(log, check[0] if check else None),
    )
    label = f"{method}, {point.label}"
    return point.evaluation(
        title=f"{model['name']} peak GPU memory, {label} (Rewire measurement)",
        summary=f"Peak allocated GPU memory of {model['name']}, {label}. Measured by Rewire "
        f"on {point.measured.environment['gpu']}.",
        comparison=memory_comparison(point),
        results=[result],
        artifacts=[point.artifact, *([check[1]] if check else [])],
        gaps=MEMORY_GAPS,
        limitations=MEMORY_LIMITATIONS,
    )


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


def _embed_evaluation(point: MeasuredPoint) -> dict[str, Any]:
    """The evaluation of one throughput point: sequences per second (median of the timed
    passes), with tokens and nucleotides per second, utilisation and peak memory beside it."""
    log = point.log
    model, batch, tokens = log["model"], log["batch"], log["tokens"]
    arch = get_architecture(model["key"])
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
    return point.evaluation(
        title=f"{model['name']} embedding throughput, {point.label} (Rewire measurement)",
        summary=f"Sequence embeddings per second of {model['name']} (frozen, bf16), "
        f"{point.label}. Measured by Rewire on {point.measured.environment['gpu']}.",
        comparison=point.comparison(
            steps="passes",
            inputs="Token ids drawn uniformly from the model's sequence vocabulary with its "
            f"special tokens, regenerated from seed {log['seed']}",
            aggregation=f"Median of {log['steps'] - int(log.get('warmup', 0))} timed passes "
            f"after {log.get('warmup', 0)} warm-up passes",
            budget=f"{tokens} tokens, batch {batch}, {log['steps']} passes",
            metric="time.perf_counter() between torch.cuda.synchronize() "
            "calls around each pass in measure/memory_curve/worker.py",
        ),
        results=[result],
        gaps=ResultGaps(
            "One process per point; the range of the timed passes is an observation, not an "
            "interval.",
            "No samples are scored: the metric is speed.",
        ),
        limitations=[
            "Random weights and synthetic tokens: valid for speed, not for accuracy.",
            "Sequences of equal length, no padding, one GPU; tokenisation on the CPU is not timed.",
        ],
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


def point_observations(log: dict[str, Any], check: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A memory point's observations: the reserved peak, the memory allocated before its
    first step and, from `check` (the point re-run in a fresh process), its two peaks."""
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
    if check is not None:
        out += gigabyte_observations(
            check["memory"],
            [
                (
                    "peak-allocated-fresh-process",
                    "peak_allocated_bytes",
                    "The same point re-run alone in a fresh process (a check of the per-point "
                    "reset in the shared process; second artifact)",
                ),
                (
                    "peak-reserved-fresh-process",
                    "peak_reserved_bytes",
                    "torch.cuda.max_memory_reserved() of the same point re-run alone in a "
                    "fresh process (second artifact)",
                ),
            ],
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


def write_run_records(
    recipe: CurveRecipe,
    logs: Sequence[Path],
    root: Path,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> list[Path]:
    """Records for every finished GPU point log that has none yet."""

    def build(path: Path, log: dict[str, Any]) -> list[dict[str, Any]]:
        if log["memory"].get("peak_allocated_bytes") is None:
            return []
        if recorded(root, record_ids(log["run_id"], log["item"])[1]):
            return []
        point = stored_point(recipe, path, log, root, git_commit=git_commit, note=note)
        return point_records(point, _check(path, root, log["run_id"]))

    return write_finished(logs, root, build)
