"""measure.env.gpu_slots: the one helper the peak-memory and memory-curve runners take
their GPU slots from (each had its own copy)."""

from __future__ import annotations

from measure import env


def test_given_gpus_are_the_slots_in_order() -> None:
    assert env.gpu_slots([2, 0], "cuda") == ["2", "0"]
    assert env.gpu_slots([1], "cpu") == ["1"]


def test_a_cpu_run_has_one_cpu_slot() -> None:
    assert env.gpu_slots([], "cpu") == ["cpu"]
