"""The result of one IA3 run: its run time (measured, extrapolated when a full-length run
confirms it, or incomplete), with the note that says which and why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from measure.builder import measured_result

from .catalogue import COLUMN
from .evidence import NotConfirmed, RunLog, RunTime, run_time
from .observations import LossCheck, observations
from .timing import CONFIRMATION_TOLERANCE, confirm_from_full_run

SELF_CHECK_FRACTIONS = (0.1, 0.4)
"""Prefixes (of the full length) on which a full run checks the extrapolation rule."""


def incomplete_note(log: RunLog) -> str:
    """Why an unconfirmed short run claims no run time."""
    return (
        f"{log.steps:,} of {log.target_steps:,} steps run; a {log.target_steps:,}-step run "
        "time is not claimed because no full-length run on this setup confirmed the "
        f"extrapolation within {CONFIRMATION_TOLERANCE:.0%}. The run made took "
        f"{log.wall_s / 60:.2f} min from launch to exit (observation measured-wall-time); "
        "the observations hold its step times, rates, MFU and peak memory."
    )


def run_time_result(
    log: RunLog,
    time: RunTime | None,
    confirmed_by: str | None,
    checks: Sequence[LossCheck] = (),
) -> dict[str, Any]:
    result = measured_result(
        COLUMN,
        "incomplete" if time is None else None,  # a complete run's result states no status
        "minute",
        "lower",
        value=round(time.minutes, 3) if time is not None else None,
        observations=observations(log, checks),
    )
    if time is None:
        return result | {"note": incomplete_note(log)}
    if time.extrapolated and time.confirmation is not None:
        result["extrapolation"] = {
            "measured_steps": time.measured_steps,
            "target_steps": time.target_steps,
            "confirmed_by": confirmed_by,
            "confirmation_error": round(time.confirmation.relative_error, 4),
        }
        result["note"] = (
            f"EXTRAPOLATED: {time.measured_steps} steps measured "
            f"({log.wall_s / 60:.2f} min launch to exit) plus "
            f"{time.target_steps - time.measured_steps} steps at the mean step time. "
            f"Confirmation: {time.confirmation_note}."
        )
    else:
        result["note"] = (
            f"Measured: a full {time.measured_steps}-step run, launch to exit. "
            f"{self_check_note(log)}"
        )
    return result


def self_check_note(log: RunLog) -> str:
    """The extrapolation rule tried on a full run's own prefixes (not used for its value)."""
    warmup = int(log.settings["warmup"])
    parts = []
    for fraction in SELF_CHECK_FRACTIONS:
        prefix = int(log.steps * fraction)
        if prefix < warmup + 4:
            continue
        check = confirm_from_full_run(log.wall_s, log.step_ms, prefix, warmup)
        verdict = "within" if check.confirmed else "outside"
        parts.append(
            f"its first {prefix:,} steps extrapolated predict {check.predicted_s / 60:.2f} min "
            f"({check.relative_error:+.1%}, {verdict} {CONFIRMATION_TOLERANCE:.0%})"
        )
    if not parts:
        return ""
    return "The extrapolation rule, tried on this run: " + "; ".join(parts) + "."


def run_time_or_none(log: RunLog, logs: Sequence[RunLog], incomplete: bool) -> RunTime | None:
    """The run time of `log`; None for an unconfirmed short run when `incomplete` allows
    it (it is then written as an incomplete run), else NotConfirmed is raised."""
    try:
        return run_time(log, logs)
    except NotConfirmed:
        if incomplete and not log.full_length:
            return None
        raise
