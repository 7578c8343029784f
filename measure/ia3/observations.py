"""The figures of one IA3 run as result observations: step times, rates, model FLOPs and
MFU, wall times, peak memory per GPU, trainable parameters, and per-step loss checks
against other runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measure.records import GB

from .evidence import RunLog, Throughput, throughput
from .flops import FORMULA, H200_MEASURED_MATMUL_TFLOPS, H200_MEASURED_SOURCE


def start_up_seconds(log: RunLog) -> float:
    """Launch to exit minus the steps after the first: interpreter start, process group,
    model build, the first step (compilation) and teardown."""
    return log.wall_s - sum(log.step_ms[1:]) / 1000.0


@dataclass(frozen=True)
class LossCheck:
    """Per-step losses of one run against another's over the steps both traced."""

    label: str
    other: Path
    steps: int
    first_step: float
    max_difference: float
    mean_difference: float


def loss_check(log: RunLog, other: RunLog, label: str) -> LossCheck | None:
    """|loss difference| step by step over the first steps both runs traced (their
    `loss_trace`: mean over ranks); None when either has no trace or the models differ."""
    mine, theirs = log.data.get("loss_trace") or [], other.data.get("loss_trace") or []
    n = min(len(mine), len(theirs))
    if n == 0 or log.arch != other.arch or log.path == other.path:
        return None
    diffs = [abs(float(a) - float(b)) for a, b in zip(mine[:n], theirs[:n], strict=True)]
    return LossCheck(label, other.path, n, diffs[0], max(diffs), sum(diffs) / n)


def _loss_observations(checks: Sequence[LossCheck]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in checks:
        against = f"against {c.other.name} ({c.label}), same seed and batches"
        out += [
            {"name": f"loss-first-step-difference-vs-{c.label}",
             "value": round(c.first_step, 6), "unit": "nat",
             "note": f"|cross-entropy difference| at step 1 (same weights, same batch), {against}"},
            {"name": f"loss-max-difference-vs-{c.label}",
             "value": round(c.max_difference, 6), "unit": "nat",
             "note": f"largest |cross-entropy difference| over the first {c.steps} steps, "
             f"{against}"},
            {"name": f"loss-mean-difference-vs-{c.label}",
             "value": round(c.mean_difference, 6), "unit": "nat",
             "note": f"mean |cross-entropy difference| over the first {c.steps} steps, "
             f"{against}"},
        ]  # fmt: skip
    return out


def _mfu_observations(log: RunLog, rates: Throughput) -> list[dict[str, Any]]:
    """MFU against the datasheet peak of the GPU the log names (none for a GPU the peak
    table lacks, or the CPU) and against the matrix-product rate measured on an H200."""
    out: list[dict[str, Any]] = []
    device = log.device_peak
    if device is not None and rates.mfu_datasheet is not None:
        out.append(
            {"name": "mfu-datasheet-peak", "value": round(100 * rates.mfu_datasheet, 3),
             "unit": "percent", "note": f"against {log.gpus} x "
             f"{device.bf16_dense_tflops:g} TFLOP/s: {device.source}"}
        )  # fmt: skip
    if rates.mfu_measured is not None:
        out.append(
            {"name": "mfu-measured-matmul-rate", "value": round(100 * rates.mfu_measured, 3),
             "unit": "percent", "note": f"against {log.gpus} x "
             f"{H200_MEASURED_MATMUL_TFLOPS:.0f} TFLOP/s: {H200_MEASURED_SOURCE}"}
        )  # fmt: skip
    return out


def observations(log: RunLog, checks: Sequence[LossCheck] = ()) -> list[dict[str, Any]]:
    summary, rates = log.summary, throughput(log)
    after = f"over {summary.steps} steps after {summary.warmup} warm-up steps"
    ms = "millisecond"
    out: list[dict[str, Any]] = [
        {"name": "step-time-median", "value": round(summary.median_ms, 3), "unit": ms,
         "note": f"CUDA events at every step boundary on rank 0, {after}"},
        {"name": "step-time-mean", "value": round(summary.mean_ms, 3), "unit": ms, "note": after},
        {"name": "step-time-p10", "value": round(summary.p10_ms, 3), "unit": ms, "note": after},
        {"name": "step-time-p90", "value": round(summary.p90_ms, 3), "unit": ms, "note": after},
        {"name": "step-time-iqr", "value": round(summary.iqr_ms, 3), "unit": ms,
         "note": f"interquartile range, {after}"},
        {"name": "samples-per-second", "value": round(rates.samples_per_s, 2),
         "unit": "sample-per-second", "note": "global batch over mean step time"},
        {"name": "tokens-per-second", "value": round(rates.tokens_per_s, 1),
         "unit": "token-per-second", "note": "global batch x tokens per sequence over mean "
         "step time"},
        {"name": "model-flops-per-step", "value": float(log.step_flops()), "unit": "flop",
         "note": FORMULA},
        {"name": "achieved-model-tflops", "value": round(rates.tflops, 2),
         "unit": "teraflop-per-second", "note": "model FLOPs per step over mean step time, "
         "all GPUs together"},
        *_mfu_observations(log, rates),
        {"name": "measured-steps", "value": float(log.steps), "unit": "step",
         "note": f"of the protocol's {log.target_steps:,}"},
        {"name": "measured-wall-time", "value": round(log.wall_s / 60.0, 3), "unit": "minute",
         "note": "torchrun launch to exit of the run actually made"},
        {"name": "first-step-time", "value": round(log.step_ms[0] / 1000.0, 2),
         "unit": "second", "note": "includes torch.compile's compilation"},
        {"name": "start-up-and-teardown-time", "value": round(start_up_seconds(log), 2),
         "unit": "second", "note": "launch to exit minus the steps after the first: "
         "interpreter start, process group, model build, first step (compilation), teardown"},
    ]  # fmt: skip
    for rank in log.data["ranks"]:
        for kind in ("allocated", "reserved"):
            peak = rank.get(f"peak_{kind}_bytes")
            if peak is not None:
                out.append(
                    {"name": f"peak-{kind}-memory-gpu-{rank['rank']}",
                     "value": round(peak / GB, 3), "unit": "gigabyte",
                     "note": f"torch.cuda.max_memory_{kind}() over the whole run, rank "
                     f"{rank['rank']}"}
                )  # fmt: skip
    params = log.data["parameters"]
    out.append(
        {"name": "trainable-parameters", "value": float(params["trainable"]),
         "unit": "parameter", "note": f"IA3 vectors {params['adapters']:,} (layers x "
         f"(2 x hidden + ffn)) + head {params['head']:,}"}
    )  # fmt: skip
    return out + _loss_observations(checks)
