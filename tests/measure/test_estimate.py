from __future__ import annotations

import pytest

from measure.peak_memory.estimate import (
    GB,
    activation_gb,
    deepspeed_zero2_offload,
    model_state_floor,
)

P = 1_000_000_000


@pytest.mark.parametrize(
    ("precision", "bytes_per_param"),
    [("bf16", 8), ("bf16-fp32-states", 12), ("fp32-autocast", 16)],
)
def test_full_update_bytes_per_parameter(precision: str, bytes_per_param: int) -> None:
    floor = model_state_floor(
        total_params=P, trainable_params=P, precision=precision, zero2_offload=False
    )
    assert floor.value_gb == pytest.approx(bytes_per_param * P / GB)
    assert f"{bytes_per_param} bytes per trainable parameter" in floor.method


def test_lora_counts_frozen_weights_once() -> None:
    floor = model_state_floor(
        total_params=P, trainable_params=1000, precision="bf16", zero2_offload=False
    )
    assert floor.value_gb == pytest.approx(((P - 1000) * 2 + 1000 * 8) / GB)


def test_zero2_offload_keeps_weights_and_one_bucket_on_the_gpu() -> None:
    floor = model_state_floor(
        total_params=P, trainable_params=P, precision="bf16", zero2_offload=True
    )
    assert floor.value_gb == pytest.approx((2 * P + 2 * 500_000_000) / GB)
    small = model_state_floor(
        total_params=1000, trainable_params=1000, precision="fp32-autocast", zero2_offload=True
    )
    # the bucket is allocated whole, however few parameters the model trains
    assert small.value_gb == pytest.approx((4 * 1000 + 4 * 500_000_000) / GB)


def test_unknown_policy_is_an_error() -> None:
    with pytest.raises(ValueError, match="fp8"):
        model_state_floor(total_params=1, trainable_params=1, precision="fp8", zero2_offload=False)


def test_deepspeed_estimator_gives_two_bytes_per_parameter_on_the_gpu() -> None:
    pytest.importorskip("deepspeed", reason="DeepSpeed not installed (pip install deepspeed)")
    estimate = deepspeed_zero2_offload(P)
    assert estimate is not None
    assert estimate.value_gb == pytest.approx(2 * P / GB)
    assert "cpu_offload=True" in estimate.method


def test_activation_term_falls_with_each_stage() -> None:
    dims = {"batch": 16, "tokens": 1000, "hidden": 2560, "layers": 32, "heads": 20, "vocab": 4105}
    eager = activation_gb(**dims, flash=False, checkpointing=False)
    flash = activation_gb(**dims, flash=True, checkpointing=False)
    checkpointed = activation_gb(**dims, flash=True, checkpointing=True)
    assert eager > flash > checkpointed > 0
