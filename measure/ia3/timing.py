"""Step-time summaries and the extrapolation of a short run to the full 10,000 steps.

Step times come from CUDA events recorded on the training stream at every step boundary
(read once after the final synchronisation), or from the host clock on the CPU. The first
`warmup` steps (compilation, allocator growth, cuDNN/cuBLAS heuristics) are left out of
every summary.

Extrapolation: a run of n steps whose whole wall time (launch to exit) was W_n is carried
to N steps as W_N = W_n + (N - n) x mean step time after warm-up. The mean, not the median,
because a run's duration is the sum of its steps. A full-length run confirms the method by
computing, from its own log, what a run stopped after n steps would have taken and
extrapolating that: the relative error against the measured W_N must be within 5%.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

CONFIRMATION_TOLERANCE = 0.05


@dataclass(frozen=True)
class StepSummary:
    """Step times after warm-up, milliseconds."""

    steps: int
    warmup: int
    median_ms: float
    mean_ms: float
    p10_ms: float
    p90_ms: float
    iqr_ms: float
    min_ms: float
    max_ms: float


def summarize(step_ms: Sequence[float], warmup: int) -> StepSummary:
    """Median, mean and spread of the steps after the first `warmup`."""
    if warmup < 0:
        raise ValueError(f"warmup must be >= 0, got {warmup}")
    kept = list(step_ms[warmup:])
    if len(kept) < 4:
        raise ValueError(f"need at least 4 steps after {warmup} warm-up steps, got {len(kept)}")
    deciles = statistics.quantiles(kept, n=10, method="inclusive")
    quartiles = statistics.quantiles(kept, n=4, method="inclusive")
    return StepSummary(
        steps=len(kept),
        warmup=warmup,
        median_ms=statistics.median(kept),
        mean_ms=statistics.fmean(kept),
        p10_ms=deciles[0],
        p90_ms=deciles[-1],
        iqr_ms=quartiles[2] - quartiles[0],
        min_ms=min(kept),
        max_ms=max(kept),
    )


def extrapolate_wall(
    wall_s: float, measured_steps: int, target_steps: int, mean_step_ms: float
) -> float:
    """Wall seconds of a `target_steps` run from a `measured_steps` run (see module doc)."""
    if measured_steps < 1 or target_steps < measured_steps:
        raise ValueError("need 1 <= measured_steps <= target_steps")
    return wall_s + (target_steps - measured_steps) * mean_step_ms / 1000.0


@dataclass(frozen=True)
class Confirmation:
    """How well a prefix of a full run, extrapolated, predicts the run's measured wall time."""

    prefix_steps: int
    target_steps: int
    predicted_s: float
    measured_s: float

    @property
    def relative_error(self) -> float:
        return (self.predicted_s - self.measured_s) / self.measured_s

    @property
    def confirmed(self) -> bool:
        return abs(self.relative_error) <= CONFIRMATION_TOLERANCE


def confirm_from_full_run(
    wall_s: float, step_ms: Sequence[float], prefix_steps: int, warmup: int
) -> Confirmation:
    """Extrapolate the first `prefix_steps` of a full run and compare with its wall time.

    The wall time of a run stopped after the prefix is the full wall time less the time of
    the steps after it (the steps' own recorded durations).
    """
    total = len(step_ms)
    if not warmup + 4 <= prefix_steps <= total:
        raise ValueError(f"prefix {prefix_steps} must lie in {warmup + 4}..{total}")
    tail_s = sum(step_ms[prefix_steps:]) / 1000.0
    prefix_wall = wall_s - tail_s
    prefix_mean = summarize(step_ms[:prefix_steps], warmup).mean_ms
    predicted = extrapolate_wall(prefix_wall, prefix_steps, total, prefix_mean)
    return Confirmation(
        prefix_steps=prefix_steps, target_steps=total, predicted_s=predicted, measured_s=wall_s
    )
