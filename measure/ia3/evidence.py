"""Summaries of IA3 run logs: step statistics, throughput, MFU, and the extrapolation rule.

A log is the JSON that `measure.ia3.launch` writes (worker log + launcher wall time). One
setup (model, GPU count) is measured either by a full-length run (10,000 steps: its wall
time is the result) or by a shorter run whose wall time is extrapolated. Extrapolation is
allowed only when the logs include a full-length run of the same setup (model and GPU
count) and the same levers that confirms the method within 5%: the full run's own prefix,
extrapolated, and the short run itself, extrapolated (see `timing`). Without such a run
`NotConfirmed` is raised and nothing is extrapolated.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..peak_flops import DevicePeak, UnknownDevice, peak_for
from .flops import (
    H200_MEASURED_MATMUL_TFLOPS,
    flops_per_step,
)
from .launch import FULL_STEPS
from .timing import (
    CONFIRMATION_TOLERANCE,
    Confirmation,
    StepSummary,
    confirm_from_full_run,
    extrapolate_wall,
    summarize,
)


class NotConfirmed(ValueError):
    """Short runs cannot be extrapolated: no full-length run confirms the method."""


@dataclass(frozen=True)
class RunLog:
    """One run's merged log and what follows from it."""

    path: Path
    data: dict[str, Any]
    target_steps: int = FULL_STEPS
    """Steps of a full-length run (10,000 in the protocol; fewer in tests)."""

    @classmethod
    def load(cls, path: Path, target_steps: int = FULL_STEPS) -> RunLog:
        data = json.loads(path.read_text(encoding="utf-8"))
        for key in ("settings", "step_ms", "launcher", "environment", "parameters"):
            if key not in data:
                raise ValueError(f"{path}: not a merged IA3 run log (no '{key}')")
        return cls(path=path, data=data, target_steps=target_steps)

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.data["settings"])

    @property
    def arch(self) -> str:
        return str(self.settings["arch"])

    @property
    def gpus(self) -> int:
        return int(self.settings["world_size"])

    @property
    def steps(self) -> int:
        return int(self.settings["steps"])

    @property
    def setup(self) -> tuple[str, int]:
        return (self.arch, self.gpus)

    @property
    def levers(self) -> tuple[str, str, str, str]:
        """What must match for one run to confirm another's extrapolation."""
        s = self.settings
        return (str(s["precision"]), str(s["compile"]), str(s["optimizer"]), str(s["task"]))

    @property
    def full_length(self) -> bool:
        return self.steps >= self.target_steps

    @property
    def wall_s(self) -> float:
        return float(self.data["launcher"]["wall_s"])

    @property
    def step_ms(self) -> list[float]:
        return [float(v) for v in self.data["step_ms"]]

    @property
    def summary(self) -> StepSummary:
        return summarize(self.step_ms, int(self.settings["warmup"]))

    @property
    def stdout_path(self) -> Path:
        return self.path.with_name(str(self.data["launcher"]["stdout_file"]))

    @property
    def interval(self) -> tuple[datetime, datetime]:
        launcher = self.data["launcher"]
        return (
            datetime.fromisoformat(launcher["started_at"]),
            datetime.fromisoformat(launcher["ended_at"]),
        )

    @property
    def device_peak(self) -> DevicePeak | None:
        """The datasheet peak of the GPU the log records (`measure.peak_flops`); None for
        a GPU the table lacks, or a run on the CPU: no MFU is computed then."""
        try:
            return peak_for(str(self.data["environment"]["gpu"]))
        except UnknownDevice:
            return None

    def step_flops(self) -> int:
        arch = self.data["architecture"]
        return flops_per_step(
            int(self.data["parameters"]["backbone_matmul"]),
            int(arch["layers"]),
            int(self.settings["tokens_per_sequence"]),
            int(arch["hidden"]),
            int(self.settings["global_batch"]),
        )


@dataclass(frozen=True)
class Throughput:
    """Steady-state rates from the mean step time after warm-up."""

    samples_per_s: float
    tokens_per_s: float
    tflops: float
    mfu_datasheet: float | None
    """Over the datasheet peak of the GPU the log names; None when the table lacks it."""
    mfu_measured: float | None
    """Over the matrix-product rate measured on an H200; None on other GPUs."""


def throughput(log: RunLog) -> Throughput:
    """Rates of a run; MFU over the GPUs' summed bf16 peak: the datasheet peak of the GPU
    the log records, and the matrix-product rate measured on an H200."""
    mean_s = log.summary.mean_ms / 1000.0
    batch = int(log.settings["global_batch"])
    tokens = batch * int(log.settings["tokens_per_sequence"])
    achieved = log.step_flops() / mean_s
    peak = log.device_peak
    return Throughput(
        samples_per_s=batch / mean_s,
        tokens_per_s=tokens / mean_s,
        tflops=achieved / 1e12,
        mfu_datasheet=(
            None if peak is None else achieved / (log.gpus * peak.bf16_dense_tflops * 1e12)
        ),
        mfu_measured=(
            achieved / (log.gpus * H200_MEASURED_MATMUL_TFLOPS * 1e12)
            if peak is not None and peak.model.startswith("H200")
            else None
        ),
    )


@dataclass(frozen=True)
class RunTime:
    """The protocol's value for one run: measured, or extrapolated and confirmed."""

    minutes: float
    measured_steps: int
    target_steps: int
    confirmation: Confirmation | None
    confirmation_note: str | None
    confirmed_by: RunLog | None = None
    """The full-length run whose check is `confirmation`."""

    @property
    def extrapolated(self) -> bool:
        return self.measured_steps < self.target_steps


def confirmations(logs: Sequence[RunLog]) -> list[tuple[RunLog, Confirmation, str]]:
    """Every check the full-length logs allow on short runs of their own setup and levers."""
    checks: list[tuple[RunLog, Confirmation, str]] = []
    for full in (log for log in logs if log.full_length):
        shorts = [
            short
            for short in logs
            if not short.full_length and short.setup == full.setup and short.levers == full.levers
        ]
        warmup = int(full.settings["warmup"])
        for steps in sorted({short.steps for short in shorts}):
            check = confirm_from_full_run(full.wall_s, full.step_ms, steps, warmup)
            checks.append((full, check, f"first {steps} steps of the full run, extrapolated"))
        for short in shorts:
            predicted = extrapolate_wall(
                short.wall_s, short.steps, full.steps, short.summary.mean_ms
            )
            check = Confirmation(short.steps, full.steps, predicted, full.wall_s)
            checks.append((full, check, f"separate {short.steps}-step run, extrapolated"))
    return checks


def run_time(log: RunLog, logs: Sequence[RunLog]) -> RunTime:
    """The run time of `log` in minutes; raises NotConfirmed for an unconfirmed short run."""
    if log.full_length:
        return RunTime(log.wall_s / 60.0, log.steps, log.steps, None, None)
    checks = [
        (full, check, how)
        for full, check, how in confirmations(logs)
        if full.setup == log.setup and full.levers == log.levers and check.prefix_steps == log.steps
    ]
    if not checks:
        raise NotConfirmed(
            f"{log.path.name}: a {log.steps}-step run may be extrapolated to {log.target_steps} "
            "steps only when a full-length run of the same setup (model, GPU count) and "
            "levers confirms it; none given"
        )
    failed = [(c, how) for _, c, how in checks if not c.confirmed]
    if failed:
        worst, how = max(failed, key=lambda item: abs(item[0].relative_error))
        raise NotConfirmed(
            f"{log.path.name}: extrapolation misses the full run by "
            f"{worst.relative_error:+.1%} ({how}); the limit is "
            f"{CONFIRMATION_TOLERANCE:.0%}"
        )
    # Prefer a separate short run over the full run's own prefix: it repeats the start-up.
    full, check, how = max(checks, key=lambda item: item[2].startswith("separate"))
    notes = "; ".join(
        f"{f.path.stem}, {h}: {c.predicted_s / 60:.2f} min predicted vs "
        f"{c.measured_s / 60:.2f} measured ({c.relative_error:+.1%})"
        for f, c, h in checks
    )
    minutes = extrapolate_wall(log.wall_s, log.steps, log.target_steps, log.summary.mean_ms) / 60.0
    return RunTime(minutes, log.steps, log.target_steps, check, notes, full)


def overlaps(log: RunLog, logs: Sequence[RunLog]) -> list[tuple[RunLog, float]]:
    """Other runs that ran at the same time as `log` (seconds of overlap)."""
    start, end = log.interval
    found: list[tuple[RunLog, float]] = []
    for other in logs:
        if other is log:
            continue
        o_start, o_end = other.interval
        seconds = (min(end, o_end) - max(start, o_start)).total_seconds()
        if seconds > 0:
            found.append((other, seconds))
    return found


def scaling_efficiency(one_gpu: RunLog, n_gpu: RunLog) -> float:
    """Throughput with N GPUs over N times the throughput with one (1.0 = linear)."""
    if n_gpu.arch != one_gpu.arch or one_gpu.gpus != 1:
        raise ValueError("compare the same model on one GPU and on N")
    return (one_gpu.summary.mean_ms / n_gpu.summary.mean_ms) / n_gpu.gpus
