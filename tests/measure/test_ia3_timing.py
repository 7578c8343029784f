"""Step-time summaries, extrapolation and its confirmation by a full-length run."""

from __future__ import annotations

import pytest

from measure.ia3.timing import (
    Confirmation,
    confirm_from_full_run,
    extrapolate_wall,
    summarize,
)


def test_summary_leaves_out_warmup() -> None:
    steps = [5000.0, 900.0, 10.0, 12.0, 11.0, 13.0, 10.0, 14.0]
    s = summarize(steps, warmup=2)
    assert s.steps == 6
    assert s.median_ms == pytest.approx(11.5)
    assert s.mean_ms == pytest.approx(70 / 6)
    assert s.max_ms == 14.0
    with pytest.raises(ValueError, match="at least 4"):
        summarize(steps, warmup=5)


def test_extrapolation_adds_the_remaining_steps_at_the_mean() -> None:
    assert extrapolate_wall(60.0, 1000, 10_000, 40.0) == pytest.approx(60.0 + 9000 * 0.04)
    with pytest.raises(ValueError):
        extrapolate_wall(60.0, 2000, 1000, 40.0)


def test_steady_full_run_confirms_its_prefix() -> None:
    steps = [3000.0] + [40.0] * 9999
    wall = 20.0 + sum(steps) / 1000.0
    check = confirm_from_full_run(wall, steps, prefix_steps=1000, warmup=50)
    assert check.relative_error == pytest.approx(0.0, abs=1e-9)
    assert check.confirmed


def test_a_run_that_slows_down_is_not_confirmed() -> None:
    steps = [3000.0] + [40.0] * 999 + [60.0] * 9000
    wall = 20.0 + sum(steps) / 1000.0
    check = confirm_from_full_run(wall, steps, prefix_steps=1000, warmup=50)
    assert check.relative_error < -0.05
    assert not check.confirmed


def test_confirmation_tolerance_is_five_percent() -> None:
    assert Confirmation(10, 100, 104.9, 100.0).confirmed
    assert not Confirmation(10, 100, 105.1, 100.0).confirmed
