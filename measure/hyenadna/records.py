"""Records of a HyenaDNA run: configurations and evaluations (origin rewire_measurement)
that reproduce each protocol's published evaluation, with the raw logs as artifacts;
validated, then written as new files.

What each evaluation says about the published claim is computed here from the measured
values (which GPU a peak fits, the ratio against the printed factor), never typed by hand:
- colab-fit: one evaluation per checkpoint, columns inference and fine-tuning;
- checkpointing: one evaluation per length, the ratio of the peaks without and with the flags;
- train-1m: one evaluation, the peaks without and with checkpointing at 1M tokens;
- speedup: one evaluation, the Transformer / HyenaDNA time ratio per length.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measure.builder import (
    Measured,
    ResultGaps,
    configuration_record,
    evaluation_record,
    synthetic_comparison,
)
from measure.hyenadna.recipe import CARDS, HyenaRecipe, ProtocolPlan
from measure.records import (
    GB,
    added_on,
    cite_artifact,
    measurement_environment,
    record_ids,
    recorded,
)
from measure.run_logs import finished_logs

MODEL_SOURCE = "evidence-20261130-source-hyenadna-standalone-py"
CUDA_CONTEXT_GB = 0.5
"""Allowance for the CUDA context and kernels when deciding whether a peak fits a card."""
LENGTH_COLUMNS = {
    1024: "length-1k",
    4096: "length-4k",
    16384: "length-16k",
    65536: "length-65k",
    262144: "length-262k",
    1000000: "length-1m",
}


def fits(log: dict[str, Any]) -> dict[str, bool]:
    """Which cards hold the item: its peak reserved memory plus the CUDA context allowance
    is at most the card's memory. An out-of-memory item fits none up to the measuring card."""
    memory = log["memory"]
    if log["status"] == "out_of_memory":
        total = (memory.get("device_total_bytes") or 0) / GB
        return {name: False for name, gb in CARDS if gb <= total + 1}
    need = memory["peak_reserved_bytes"] / GB + CUDA_CONTEXT_GB
    return {name: need <= gb for name, gb in CARDS}


def fit_text(log: dict[str, Any]) -> str:
    """'fits: T4 16 GB, ...; does not fit: ...' from the measured peak."""
    verdict = fits(log)
    yes = [name for name, ok in verdict.items() if ok]
    no = [name for name, ok in verdict.items() if not ok]
    parts = []
    if yes:
        parts.append("fits " + ", ".join(yes))
    if no:
        parts.append("does not fit " + ", ".join(no))
    rule = f"(peak reserved + {CUDA_CONTEXT_GB} GB for the CUDA context against the card's memory)"
    return "; ".join(parts) + " " + rule


def claim_checks(plan: ProtocolPlan, logs: list[dict[str, Any]]) -> list[str]:
    """Each expectation of the plan that these logs bear on: the claim, what it is read as,
    what was measured, and whether the measurement is consistent with it."""
    out = []
    for expectation in plan.expectations:
        for log in logs:
            if not expectation.matches(log["settings"]):
                continue
            measured = fits(log).get(expectation.card)
            if measured is None:
                continue
            verdict = "consistent" if measured == expectation.fits else "contradicted"
            reading = "fits" if expectation.fits else "does not fit"
            shown = (
                "out of memory"
                if log["status"] == "out_of_memory"
                else f"{_gb(log['memory']['peak_allocated_bytes']):.2f} GB allocated, "
                f"{_gb(log['memory']['peak_reserved_bytes']):.2f} GB reserved"
            )
            ckpt = " with checkpointing" if log["settings"]["checkpointing"] else ""
            what = "inference" if expectation.method == "inference" else "a training step"
            out.append(
                f"claim {expectation.claim} (read: {what}{ckpt} {reading} the "
                f"{expectation.card}): {verdict}, measured {shown}"
            )
    return out


def _gb(value: int | None) -> float:
    return round((value or 0) / GB, 4)


def _ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator to four significant figures: a fixed number of decimals
    loses most of a small ratio (0.0132 read 0.013 at three decimals, 1.5% off)."""
    return float(f"{numerator / denominator:.4g}")


STEP_TEXT = (
    "full fine-tuning step: fp32 weights, mean-pooled 2-class head, cross-entropy, AdamW (fp32 "
    "states); without, then with checkpoint_mixer and checkpoint_mlp"
)
CHECKPOINTING_TEXT = "Full training step, without and with gradient checkpointing"


@dataclass(frozen=True)
class Texts:
    """The words of one measurement's configuration and evaluation."""

    config_title: str
    config_summary: str
    training_setting: str
    fine_tuning: str | None
    title: str
    summary: str
    limitations: list[str]


def _memory_results(
    logs: Logs, keys: list[str], column_of: Callable[[dict[str, Any]], str]
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each log's peak-memory result in its column, and a line for the summary."""
    results, lines = [], []
    for key in keys:
        log = logs[key]
        column = column_of(log)
        result = _memory_result(column, log)
        results.append(result)
        shown = f"{result['value']:.2f} GB" if "value" in result else "out of memory"
        lines.append(f"{column}: {shown} ({fit_text(log).split(' (')[0]})")
    return results, lines


def _memory_run(
    run: Run, keys: list[str], column_of: Callable[[dict[str, Any]], str]
) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]], list[str]]:
    """The first of `keys`' logs, its environment as the record states it, and the logs'
    peak-memory results and summary lines (see `_memory_results`)."""
    first = run.logs[keys[0]]
    return (first, run.environment(first), *_memory_results(run.logs, keys, column_of))


def _memory_comparison(log: dict[str, Any], inputs: str, adaptation: str) -> dict[str, str]:
    s = log["settings"]
    return synthetic_comparison(
        steps="steps",
        population=f"A batch of {s['batch']} sequence(s) of {s['length']:,} random "
        "nucleotide tokens",
        inputs=inputs,
        adaptation=adaptation,
        aggregation=f"Peak over {log['steps']} step(s) after reset_peak_memory_stats() "
        "once the model (and optimizer) existed",
        budget=f"{s['length']:,} tokens, batch {s['batch']}",
        seed=log["seed"],
        metric_implementation="torch.cuda.max_memory_allocated() in measure/hyenadna/worker.py",
    )


TOKENS_TEXT = "Character-token ids of A, C, G and T drawn uniformly (seed {seed})"
LIMITATIONS_MEMORY = [
    "Random weights and synthetic tokens: valid for memory and time, not for accuracy.",
    "The long convolution runs through torch.fft in float32 (the authors' standalone path), "
    "not the repository's fused fftconv CUDA extension.",
]


def _method_text(s: dict[str, Any]) -> str:
    if s["method"] == "inference":
        return "inference: model.eval() under torch.inference_mode(), fp32 weights"
    ckpt = "checkpoint_mixer and checkpoint_mlp" if s["checkpointing"] else "no checkpointing"
    return (
        "full fine-tuning step: fp32 weights, mean-pooled 2-class head, cross-entropy, "
        f"AdamW (fp32 states), {ckpt}"
    )


def _memory_result(column: str, log: dict[str, Any]) -> dict[str, Any]:
    memory = log["memory"]
    result: dict[str, Any] = {"column": column, "unit": "gigabyte", "direction": "lower"}
    if log["status"] == "out_of_memory":
        result["status"] = "out_of_memory"
        result["note"] = (
            f"Did not fit in the {environment_gpu(log)}'s "
            f"{(memory['device_total_bytes'] or 0) / GB:.1f} GB (out of memory; "
            f"{_gb(memory['peak_allocated_bytes'])} GB allocated when it failed); " + fit_text(log)
        )
        return result
    result["status"] = "value"
    result["value"] = _gb(memory["peak_allocated_bytes"])
    result["note"] = "torch.cuda.max_memory_allocated() over the steps; " + fit_text(log)
    result["observations"] = [
        {
            "name": "peak-reserved-memory",
            "value": _gb(memory["peak_reserved_bytes"]),
            "unit": "gigabyte",
            "note": "torch.cuda.max_memory_reserved() over the steps",
        }
    ]
    if log.get("step_seconds"):
        result["observations"].append(
            {
                "name": "last-step-time",
                "value": round(log["step_seconds"][-1] * 1e3, 3),
                "unit": "millisecond",
                "note": "Wall time of the last step, synchronised before and after",
            }
        )
    return result


def _summary(environment: dict[str, Any], lines: list[str], checks: list[str]) -> str:
    text = f"Measured on {environment['gpu']}, batch 1: " + "; ".join(lines) + "."
    if checks:
        text += " Against the published claims: " + "; ".join(checks) + "."
    return text


def environment_gpu(log: dict[str, Any]) -> str:
    return str(log["environment"]["gpu"])


def _settings(log: dict[str, Any], **extra: str) -> dict[str, str]:
    s = log["settings"]
    out = {
        "model": str(s["model"]),
        "layers": str(s["n_layer"]),
        "width": str(s["d_model"]),
        "tokens_per_sequence": str(s["length"]),
        "length_unit": "tokens",
        "batch_size": str(s["batch"]),
        "precision": str(s["precision"]),
        "checkpointing": "yes" if s["checkpointing"] else "no",
    }
    out.update(extra)
    return out


Logs = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Run:
    """What a protocol's record writer reads: the recipe and protocol, the finished logs by
    item (and their files), the catalogue root, and the commit and note to state."""

    recipe: HyenaRecipe
    plan: ProtocolPlan
    logs: Logs
    paths: dict[str, Path]
    root: Path
    git_commit: str | None
    note: str | None

    def environment(self, log: dict[str, Any]) -> dict[str, Any]:
        """A log's environment as the records state it (with the run's commit and note)."""
        return measurement_environment(
            log["environment"], self.git_commit, log["environment"].get("note"), self.note
        )

    def pair(
        self,
        item: str,
        log: dict[str, Any],
        environment: dict[str, Any],
        settings: dict[str, str],
        texts: Texts,
        comparison: dict[str, str],
        results: list[dict[str, Any]],
        keys: list[str],
    ) -> list[dict[str, Any]]:
        """The configuration and the evaluation of one measurement (`item` names both ids),
        the logs of `keys` stored and cited as its artifacts."""
        run_id = log["run_id"]
        config_id, eval_id = record_ids(run_id, item)
        s = log["settings"]
        measured = Measured(run_id, environment, settings, added_on(log["ended_at"]))
        configuration = configuration_record(
            measured,
            config_id=config_id,
            title=texts.config_title,
            summary=texts.config_summary,
            reported_name=f"HyenaDNA {s['model']} ({s['n_layer']} layers, width {s['d_model']})",
            family=self.recipe.family,
            parameters=f"{log['parameters']:,} (counted)" if log.get("parameters") else None,
            fine_tuning=texts.fine_tuning,
            training_setting=texts.training_setting,
            version=f"measure/hyenadna/model.py (from {log['source']}), torch "
            f"{environment['packages'].get('torch', '?')}",
            provenance_note="Implemented and measured by Rewire (`measure/hyenadna`): a typed "
            "transcription of the authors' standalone model with random weights; dimensions: "
            f"{s['dims_source']}.",
            citations=[
                {
                    "source": MODEL_SOURCE,
                    "locator": "HyenaOperator, Block, LMBackbone",
                    "role": "context_only",
                    "supports": ["version"],
                }
            ],
            checkpoint_note="Random weights from the checkpoint's dimensions: memory and time "
            "do not depend on trained weights.",
            missing_metadata=None
            if texts.fine_tuning is not None
            else {
                "fine_tuning": {
                    "reason": "inapplicable",
                    "note": "Timed passes only; no optimizer step updates the weights.",
                }
            },
        )
        for result in results:
            result.setdefault("uncertainty", None)
            result.setdefault("coverage", None)
        artifacts = [
            cite_artifact(
                self.paths[key],
                self.root,
                run_id,
                self.paths[key].name,
                "Raw JSON log of one item: settings, allocator statistics, times and environment",
            )
            for key in keys
        ]
        evaluation = evaluation_record(
            measured,
            eval_id=eval_id,
            config_id=config_id,
            title=texts.title,
            summary=texts.summary,
            protocol=self.plan.protocol,
            dataset=self.recipe.dataset,
            comparison=comparison,
            results=results,
            artifacts=artifacts,
            reproduces=self.plan.reproduces,
            gaps=ResultGaps(
                "One run; the repeats behind a time are its observations.",
                "No samples are scored.",
            ),
            limitations=texts.limitations,
        )
        return [configuration, evaluation]


Builder = Callable[[Run], list[dict[str, Any]]]


def _colab_fit(run: Run) -> list[dict[str, Any]]:
    logs = run.logs
    records: list[dict[str, Any]] = []
    by_model: dict[str, list[str]] = {}
    for key, log in logs.items():
        by_model.setdefault(log["settings"]["model"], []).append(key)
    for model, keys in by_model.items():
        keys.sort(key=lambda k: 0 if logs[k]["settings"]["method"] == "inference" else 1)
        first, environment, results, lines = _memory_run(
            run,
            keys,
            lambda log: "inference" if log["settings"]["method"] == "inference" else "fine-tuning",
        )
        run_id, s = first["run_id"], first["settings"]
        texts = Texts(
            f"HyenaDNA {model} at {s['length']:,} tokens, batch 1, fp32 (Rewire measurement "
            f"{run_id})",
            f"The {model} checkpoint's architecture ({s['n_layer']} layers, width "
            f"{s['d_model']}) with random weights, one sequence of its maximum length.",
            "Inference and one full fine-tuning step at the maximum length, batch 1",
            _method_text({**s, "method": "finetune"}),
            f"HyenaDNA {model} peak GPU memory at {s['length']:,} tokens: inference and "
            "fine-tuning (Rewire measurement)",
            _summary(environment, lines, claim_checks(run.plan, [logs[k] for k in keys])),
            LIMITATIONS_MEMORY,
        )
        comparison = _memory_comparison(
            first,
            TOKENS_TEXT.format(seed=first["seed"]),
            "Inference (frozen, fp32) and a full fine-tuning step (fp32, AdamW)",
        )
        settings = _settings(first, methods="inference, fine-tuning")
        records += run.pair(
            f"colab-fit-{model}", first, environment, settings, texts, comparison, results, keys
        )
    return records


def _checkpointing(run: Run) -> list[dict[str, Any]]:
    logs = run.logs
    records: list[dict[str, Any]] = []
    pairs: dict[int, dict[bool, str]] = {}
    for key, log in logs.items():
        pairs.setdefault(log["settings"]["length"], {})[log["settings"]["checkpointing"]] = key
    for length, pair in sorted(pairs.items()):
        if set(pair) != {True, False}:
            continue
        off, on = logs[pair[False]], logs[pair[True]]
        if off["status"] != "value" or on["status"] != "value":
            continue  # a ratio needs both peaks
        run_id = off["run_id"]
        environment = run.environment(off)
        peak_off = _gb(off["memory"]["peak_allocated_bytes"])
        peak_on = _gb(on["memory"]["peak_allocated_bytes"])
        ratio = _ratio(peak_off, peak_on)
        reserved = _gb(off["memory"]["peak_reserved_bytes"]) / _gb(
            on["memory"]["peak_reserved_bytes"]
        )
        s = off["settings"]
        settings = _settings(off, checkpointing="compared: no and yes")
        result = {
            "column": "memory-saving",
            "status": "value",
            "value": ratio,
            "unit": "times",
            "direction": "higher",
            "note": f"{peak_off} GB without checkpointing / {peak_on} GB with checkpoint_mixer "
            "and checkpoint_mlp (peak allocated)",
            "observations": [
                {
                    "name": "peak-without-checkpointing",
                    "value": peak_off,
                    "unit": "gigabyte",
                    "note": "torch.cuda.max_memory_allocated(), no checkpointing",
                },
                {
                    "name": "peak-with-checkpointing",
                    "value": peak_on,
                    "unit": "gigabyte",
                    "note": "torch.cuda.max_memory_allocated(), checkpoint_mixer and "
                    "checkpoint_mlp",
                },
                {
                    "name": "reserved-memory-saving",
                    "value": round(reserved, 3),
                    "unit": "times",
                    "note": "The same ratio of torch.cuda.max_memory_reserved()",
                },
            ],
        }
        texts = Texts(
            f"HyenaDNA 1M architecture, training step at {length:,} tokens, with and without "
            f"checkpointing (Rewire measurement {run_id})",
            f"{s['n_layer']} layers, width {s['d_model']}, random weights, fp32, batch 1, "
            f"{length:,} tokens; the same step with and without the checkpointing flags.",
            f"Training step at {length:,} tokens, batch 1",
            STEP_TEXT,
            f"HyenaDNA checkpointing memory saving at {length:,} tokens (Rewire measurement)",
            f"On {environment['gpu']}, a training step of the 1M architecture at "
            f"{length:,} tokens peaks at {peak_off:.2f} GB without checkpointing and "
            f"{peak_on:.2f} GB with the flags: {ratio:.2f}x less memory.",
            LIMITATIONS_MEMORY,
        )
        comparison = _memory_comparison(
            off, TOKENS_TEXT.format(seed=off["seed"]), CHECKPOINTING_TEXT
        )
        keys = [pair[False], pair[True]]
        records += run.pair(
            f"checkpointing-{length}", off, environment, settings, texts, comparison, [result], keys
        )
    return records


def _train_1m(run: Run) -> list[dict[str, Any]]:
    logs = run.logs
    if not logs:
        return []
    keys = sorted(logs, key=lambda k: logs[k]["settings"]["checkpointing"])
    first, environment, results, lines = _memory_run(
        run,
        keys,
        lambda log: "checkpointing" if log["settings"]["checkpointing"] else "no-checkpointing",
    )
    run_id, s = first["run_id"], first["settings"]
    texts = Texts(
        f"HyenaDNA 1M architecture, training step at {s['length']:,} tokens "
        f"(Rewire measurement {run_id})",
        f"{s['n_layer']} layers, width {s['d_model']}, random weights, fp32, batch 1, one "
        f"sequence of {s['length']:,} tokens; without and with the checkpointing flags.",
        f"Training step at {s['length']:,} tokens, batch 1",
        STEP_TEXT,
        f"HyenaDNA 1M architecture, peak memory of a training step at {s['length']:,} "
        "tokens (Rewire measurement)",
        _summary(environment, lines, claim_checks(run.plan, [logs[k] for k in keys])),
        LIMITATIONS_MEMORY,
    )
    comparison = _memory_comparison(
        first, TOKENS_TEXT.format(seed=first["seed"]), CHECKPOINTING_TEXT
    )
    settings = _settings(first, checkpointing="compared: no and yes")
    return run.pair("train-1m", first, environment, settings, texts, comparison, results, keys)


def _speedup(run: Run) -> list[dict[str, Any]]:
    logs = run.logs
    sides: dict[int, dict[str, str]] = {}
    for key, log in logs.items():
        if log["status"] == "value":
            sides.setdefault(log["settings"]["length"], {})[log["settings"]["mixer"]] = key
    lengths = [n for n in sorted(sides) if set(sides[n]) == {"hyena", "attention"}]
    if not lengths:
        return []
    first = logs[sides[lengths[0]]["hyena"]]
    run_id = first["run_id"]
    environment = run.environment(first)
    environment["attention_backend"] = logs[sides[lengths[0]]["attention"]]["environment"][
        "attention_backend"
    ]
    results = []
    keys: list[str] = []
    lines = []
    for length in lengths:
        hyena, attention = logs[sides[length]["hyena"]], logs[sides[length]["attention"]]
        keys += [sides[length]["hyena"], sides[length]["attention"]]
        t_h, t_a = hyena["median_seconds"], attention["median_seconds"]
        u_h = statistics.median(hyena["unsynchronised_seconds"])
        u_a = statistics.median(attention["unsynchronised_seconds"])
        ratio = _ratio(t_a, t_h)
        column = LENGTH_COLUMNS.get(length)
        if column is None:
            continue
        lines.append(f"{length:,} tokens: {ratio}x")
        results.append(
            {
                "column": column,
                "status": "value",
                "value": ratio,
                "unit": "times",
                "direction": "higher",
                "note": f"Transformer {t_a * 1e3:.1f} ms / HyenaDNA {t_h * 1e3:.1f} ms (medians "
                f"of {len(hyena['synchronised_seconds'])} synchronised passes after "
                f"{hyena['warmup']} warm-up passes)",
                "observations": [
                    {
                        "name": "hyenadna-median-time",
                        "value": round(t_h * 1e3, 3),
                        "unit": "millisecond",
                        "note": "Forward and backward, synchronised before both clock reads",
                    },
                    {
                        "name": "transformer-median-time",
                        "value": round(t_a * 1e3, 3),
                        "unit": "millisecond",
                        "note": "Forward and backward, synchronised before both clock reads",
                    },
                    {
                        "name": "unsynchronised-speed-up",
                        "value": _ratio(u_a, u_h),
                        "unit": "times",
                        "note": f"The same ratio from time.time() without synchronising the "
                        f"GPU at the end (as src/callbacks/timer.py): Transformer "
                        f"{u_a * 1e3:.1f} ms / HyenaDNA {u_h * 1e3:.1f} ms",
                    },
                ],
            }
        )
    s = first["settings"]
    settings = _settings(first, mixers="HyenaDNA and Transformer (causal SDPA FlashAttention)")
    del settings["tokens_per_sequence"]
    settings["lengths"] = ", ".join(f"{n}" for n in lengths)
    texts = Texts(
        f"HyenaDNA and a Transformer, 2 layers, width 128, gradient checkpointing, batch 1 "
        f"(Rewire measurement {run_id})",
        "Random-weight HyenaDNA and GPT-style Transformer of 2 layers and width 128 with "
        "every mixer and MLP checkpointed, forward and backward at batch 1, bf16 autocast.",
        "Forward and backward pass (training step without optimizer), batch 1",
        None,
        "HyenaDNA speed-up over a Transformer against length, forward and backward "
        "(Rewire measurement)",
        f"On {environment['gpu']}: " + "; ".join(lines) + " (Transformer time / HyenaDNA "
        "time, synchronised).",
        [
            "Random weights: valid for time, not for accuracy.",
            "HyenaDNA's long convolution runs through torch.fft in float32, not the "
            "repository's fused fftconv kernel; the Transformer uses PyTorch's "
            "FlashAttention backend of scaled_dot_product_attention, not the flash-attn "
            "package.",
        ],
    )
    comparison = synthetic_comparison(
        steps="passes",
        population="One sequence of random nucleotide tokens per length",
        inputs=TOKENS_TEXT.format(seed=first["seed"]),
        adaptation="Training passes (forward and backward), gradient checkpointing",
        aggregation=f"Median of {first['repeats']} synchronised passes after "
        f"{first['warmup']} warm-up passes, per model and length",
        budget=f"Batch size {s['batch']}",
        seed=first["seed"],
        metric_implementation="time.perf_counter() between torch.cuda.synchronize() "
        "calls in measure/hyenadna/worker.py",
    )
    return run.pair("speedup", first, environment, settings, texts, comparison, results, keys)


BUILDERS: dict[str, Builder] = {
    "colab-fit": _colab_fit,
    "checkpointing": _checkpointing,
    "train-1m": _train_1m,
    "speedup": _speedup,
}


def build_run_records(
    recipe: HyenaRecipe,
    plan: ProtocolPlan,
    logs: Sequence[Path],
    root: Path,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> list[dict[str, Any]]:
    """The records of a protocol's finished GPU logs that have none yet (artifacts stored)."""
    loaded: Logs = {}
    paths: dict[str, Path] = {}
    for path, log in finished_logs(logs):
        if log["memory"].get("device_total_bytes") is None:
            continue  # not run on a GPU
        loaded[log["item"]] = log
        paths[log["item"]] = path
    if not loaded:
        return []
    builder = BUILDERS.get(plan.key)
    if builder is None:
        raise KeyError(f"no record builder for protocol {plan.key!r}")
    records = builder(Run(recipe, plan, loaded, paths, root, git_commit, note))
    return [r for r in records if not recorded(root, r["id"])]
