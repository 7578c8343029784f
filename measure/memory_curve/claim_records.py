"""Records of a published-claim run (`claims/*.yaml`): for each finished point the
configuration the memory curves write, and one evaluation per claim value in the claim
protocol's own column, reproducing the published evaluation. The claim file's `claim:`
block says how logs become that value:

- `card-memory`: the memory a card needs for the point, the allocator's reserved peak plus
  `context_gb` for the CUDA context; one evaluation per point.
- `time-ratio`: a model's median pass time over the reference model's, both from one run on
  one processor; one evaluation per model and reading (`readings` maps a reading of the
  `setting` to each model's tokens).

Everything a measurement record shares is written by measure/builder.py.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from measure.builder import ResultGaps, evaluation_record, measured_result, synthetic_comparison
from measure.memory_curve.recipe import CurveRecipe
from measure.memory_curve.records import (
    MEMORY_GAPS,
    MEMORY_LIMITATIONS,
    MeasuredPoint,
    memory_comparison,
    point_observations,
    stored_point,
)
from measure.recipe_file import RecipeError, require
from measure.records import GB, write_new
from measure.records import record_ids as measurement_ids
from measure.run_logs import finished_logs

KINDS = ("card-memory", "time-ratio")


@dataclass(frozen=True)
class Claim:
    kind: str
    column: str
    """card-memory: the protocol's column (time-ratio: per model, in `columns`)."""
    reproduces: str
    context_gb: float
    reference: str
    setting: str
    readings: Mapping[str, Mapping[str, int]]
    columns: Mapping[str, tuple[str, str]]
    """time-ratio: model key -> (column, the published evaluation it reproduces)."""


def parse_claim(recipe: CurveRecipe) -> Claim:
    """The recipe's `claim:` block; RecipeError names the wrong field."""
    data = require(recipe.raw, "claim", dict)
    kind = require(data, "kind", str, "claim.")
    if kind not in KINDS:
        raise RecipeError(f"claim.kind: expected one of {', '.join(KINDS)}")
    if kind == "card-memory":
        return Claim(
            kind,
            require(data, "column", str, "claim."),
            require(data, "reproduces", str, "claim."),
            float(require(data, "context_gb", (int, float), "claim.")),
            "",
            "tokens_per_sequence",
            {},
            {},
        )
    keys = {m.key for m in recipe.models}
    columns = {}
    for model, entry in require(data, "columns", dict, "claim.").items():
        where = f"claim.columns.{model}."
        if model not in keys:
            raise RecipeError(f"{where[:-1]}: not a model of the recipe")
        column = require(entry, "column", str, where)
        columns[model] = (column, require(entry, "reproduces", str, where))
    readings = require(data, "readings", dict, "claim.")
    for label, tokens in readings.items():
        lengths = {m.key: m.tokens for m in recipe.models}
        for model, count in tokens.items():
            if model not in keys or count not in lengths[model]:
                raise RecipeError(f"claim.readings.{label}.{model}: not a measured point")
    reference = require(data, "reference", str, "claim.")
    if reference not in keys:
        raise RecipeError("claim.reference: not a model of the recipe")
    return Claim(
        kind, "", "", 0.0, reference, require(data, "setting", str, "claim."), readings, columns
    )


def median_pass_seconds(log: Mapping[str, Any]) -> float:
    """Median of the timed passes (after the warm-up) of one point's log."""
    timed = log["step_seconds"][int(log.get("warmup", 0)) :]
    if not timed:
        raise ValueError(f"{log['item']}: no timed passes")
    return float(statistics.median(timed))


def _card_memory(claim: Claim, point: MeasuredPoint) -> dict[str, Any]:
    """The memory a card needs for a point: the reserved peak plus the CUDA context."""
    log = point.log
    # the status stands after the observations in these records: added below
    result = measured_result(
        claim.column, None, "gigabyte", "lower", observations=point_observations(log, None)
    )
    if log["status"] == "out_of_memory":
        result |= {"status": "out_of_memory", "note": str(log["error"]).split(":")[0]}
    else:
        reserved = log["memory"]["peak_reserved_bytes"] / GB
        result |= {
            "status": "value",
            "value": round(reserved + claim.context_gb, 2),
            "note": f"torch.cuda.max_memory_reserved() {reserved:.2f} GB + {claim.context_gb:g} "
            "GB for the CUDA context",
        }
        allocated = round(log["memory"]["peak_allocated_bytes"] / GB, 4)
        result["observations"] = [
            {
                "name": "peak-allocated-memory",
                "value": allocated,
                "unit": "gigabyte",
                "note": "torch.cuda.max_memory_allocated() over the steps",
            },
            *result["observations"],
        ]
    name, label = log["model"]["name"], point.label
    return point.evaluation(
        title=f"{name}: GPU memory its training step needs, {label} (Rewire measurement)",
        summary=f"Memory a card needs for {name}'s step ({log['method_text']}), {label}:"
        " the reserved peak plus the CUDA context. Measured by Rewire on "
        f"{point.measured.environment['gpu']}.",
        comparison={
            **memory_comparison(point),
            "metric_implementation": "torch.cuda.max_memory_"
            "reserved() + CUDA context, measure/memory_curve/worker.py",
        },
        results=[result],
        gaps=MEMORY_GAPS,
        limitations=MEMORY_LIMITATIONS[:1],
        reproduces=claim.reproduces,
    )


def _time_ratio(
    recipe: CurveRecipe,
    claim: Claim,
    model: str,
    label: str,
    points: Mapping[tuple[str, int], MeasuredPoint],
) -> dict[str, Any] | None:
    """A model's median pass time over the reference model's at one reading."""
    reading = claim.readings[label]
    mine_found = points.get((model, reading[model]))
    ref_found = points.get((claim.reference, reading[claim.reference]))
    if mine_found is None or ref_found is None:
        return None
    log, ref = mine_found.log, ref_found.log
    mine, theirs = median_pass_seconds(log), median_pass_seconds(ref)
    column, reproduces = claim.columns[model]
    environment = mine_found.measured.environment
    name, ref_name = log["model"]["name"], ref["model"]["name"]
    where = "on the CPU" if environment["gpu"].startswith("none") else f"on {environment['gpu']}"
    batch = log["batch"]
    observations = [
        {
            "name": f"median-pass-time-{m['model']['key']}",
            "value": float(f"{s * 1000:.4g}"),
            "unit": "millisecond",
            "note": f"{m['model']['name']}: median of {m['steps'] - int(m.get('warmup', 0))} "
            f"timed passes, batch {batch} of {m['tokens']} tokens",
        }
        for m, s in ((log, mine), (ref, theirs))
    ]
    settings = {
        claim.setting: label,
        "batch_size": str(batch),
        "tokens_per_sequence": str(log["tokens"]),
        "reference_tokens_per_sequence": str(ref["tokens"]),
        "precision": str(log["precision"]),
        "device": "cpu" if where == "on the CPU" else "cuda",
        "cpu_threads": str(log.get("cpu_threads", "unknown")),
    }
    # both token counts name the pair: one reading may keep a model's length and change only
    # the reference's (HyenaDNA reads 70 tokens under both of Feng et al.'s readings)
    _, eval_id = measurement_ids(
        log["run_id"], f"{model}-{log['tokens']}tok-to-{claim.reference}-{ref['tokens']}tok"
    )
    return evaluation_record(
        replace(mine_found.measured, settings=settings),
        eval_id=eval_id,
        config_id=mine_found.configuration["id"],
        title=f"{name} embedding time relative to {ref_name}, {claim.setting.replace('_', ' ')} "
        f"{label} (Rewire measurement)",
        summary=f"{name} takes {mine / theirs:.3g} times {ref_name}'s time to embed a batch of "
        f"{batch} ({log['tokens']} and {ref['tokens']} tokens), both timed {where} in one run.",
        protocol=recipe.protocol,
        dataset=recipe.dataset,
        comparison=synthetic_comparison(
            steps="passes",
            population=f"A batch of {batch} sequences of random tokens per model",
            inputs=f"Token ids drawn uniformly from each model's vocabulary, seed {log['seed']}",
            adaptation=log["method_text"],
            aggregation="Median timed pass of each model, then their quotient",
            budget=f"{log['steps']} passes per model, the first {log.get('warmup', 0)} untimed",
            seed=log["seed"],
            metric_implementation="time.perf_counter() around each pass in "
            "measure/memory_curve/worker.py; quotient in measure/memory_curve/claim_records.py",
        ),
        results=[
            measured_result(
                column,
                "value",
                "times",
                "lower",
                value=round(mine / theirs, 4),
                note=f"{mine * 1000:.4g} ms / {theirs * 1000:.4g} ms",
                observations=observations,
            )
        ],
        artifacts=[mine_found.artifact, ref_found.artifact],
        gaps=ResultGaps(
            "One process per model; the timed passes are not an interval.",
            "No samples are scored.",
        ),
        limitations=[
            "Random weights and synthetic tokens: valid for time, not for accuracy.",
            "Tokenisation is not timed.",
        ],
        reproduces=reproduces,
    )


def write_claim_records(
    recipe: CurveRecipe,
    log_paths: Sequence[Path],
    root: Path,
    *,
    git_commit: str | None = None,
    note: str | None = None,
) -> list[Path]:
    """Configurations and claim evaluations for a run's finished points; none is
    overwritten (write_records refuses an existing file)."""
    claim = parse_claim(recipe)
    records: list[dict[str, Any]] = []
    points: dict[tuple[str, int], MeasuredPoint] = {}
    for path, log in finished_logs(log_paths):
        point = stored_point(recipe, path, log, root, git_commit=git_commit, note=note)
        if claim.kind == "card-memory":
            records += [point.configuration, _card_memory(claim, point)]
            continue
        if log["status"] != "value":
            continue
        points[(log["model"]["key"], int(log["tokens"]))] = point
        if log["model"]["key"] != claim.reference:
            # the reference's log is an artifact of each quotient; no evaluation names a
            # configuration of it (an unreferenced configuration fails strict validation)
            records.append(point.configuration)
    for model in claim.columns:
        for label in claim.readings:
            made = _time_ratio(recipe, claim, model, label, points)
            if made is not None:
                records.append(made)
    return write_new(records, root)


__all__ = ["Claim", "median_pass_seconds", "parse_claim", "write_claim_records"]
