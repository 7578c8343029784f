"""The stage runner on the CPU torch build, with tiny models: real stages, real steps."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from measure.peak_memory.worker import is_out_of_memory, run_stage  # noqa: E402


def test_a_stage_trains_and_logs_what_ran(tiny_spec: Any) -> None:
    log = run_stage(tiny_spec("tiny-esm", "baseline"))
    assert log["status"] == "value", log["error"]
    assert len(log["step_seconds"]) == 2
    assert all(math.isfinite(loss) for loss in log["losses"])
    assert log["model"]["parameters_total"] == log["model"]["parameters_trainable"] > 0
    assert log["features"]["attn_implementation"] == "eager"
    assert log["estimates"][0]["label"] == "model-state floor"
    assert log["environment"]["seed"] == 42
    assert log["optimizer"] == "torch.optim.adamw.AdamW"


def test_fp32_state_policy_keeps_fp32_moments_on_bf16_weights(tiny_spec: Any) -> None:
    log = run_stage(tiny_spec("tiny-gena", "checkpointing", precision="bf16-fp32-states"))
    assert log["status"] == "value", log["error"]
    assert log["optimizer"].endswith("Fp32StateAdamW")
    assert log["features"]["checkpointing"] is True


def test_lora_trains_only_the_adapters(tiny_spec: Any) -> None:
    log = run_stage(tiny_spec("tiny-esm", "flashattention", update="lora-r16-qkv"))
    assert log["status"] == "value", log["error"]
    hidden, layers, rank = 32, 2, 16
    assert log["model"]["parameters_trainable"] == layers * 3 * 2 * rank * hidden
    assert log["features"]["sdpa_flash_only"] is True


def test_out_of_memory_inside_a_step_is_a_result(tiny_spec: Any) -> None:
    """The model raises CUDA's OutOfMemoryError from its forward pass in the measured
    region: the runner must record 'did not fit', not crash."""

    def plant(model: Any) -> None:
        def raise_oom(*_: Any) -> None:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 40.00 GiB")

        model.register_forward_pre_hook(raise_oom)

    log = run_stage(tiny_spec("tiny-esm", "checkpointing"), model_hook=plant)
    assert log["status"] == "out_of_memory"
    assert log["error"].startswith(
        "did not fit in the available memory (out of memory during steps)"
    )
    assert log["step_seconds"] == []


def test_another_error_is_logged_as_an_error(tiny_spec: Any) -> None:
    def plant(model: Any) -> None:
        def fail(*_: Any) -> None:
            raise ValueError("shapes differ")

        model.register_forward_pre_hook(fail)

    log = run_stage(tiny_spec("tiny-gena", "baseline"), model_hook=plant)
    assert log["status"] == "error"
    assert "shapes differ" in log["error"]


def test_out_of_memory_is_recognised_in_its_two_forms() -> None:
    assert is_out_of_memory(torch.cuda.OutOfMemoryError("x"))
    assert is_out_of_memory(RuntimeError("CUDA error: out of memory"))
    assert not is_out_of_memory(RuntimeError("device-side assert"))


def test_flash_stage_passes_no_attention_mask(tiny_spec: Any, monkeypatch: Any) -> None:
    """FlashAttention kernels take no mask: with no padding the models must pass none."""
    import torch.nn.functional as F

    seen: list[bool] = []
    original = F.scaled_dot_product_attention

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("attn_mask") is None)
        return original(*args, **kwargs)

    monkeypatch.setattr(F, "scaled_dot_product_attention", spy)
    for model in ("tiny-esm", "tiny-gena"):
        log = run_stage(tiny_spec(model, "flashattention"))
        assert log["status"] == "value", log["error"]
    assert seen and all(seen)


@pytest.mark.slow
def test_zero2_offload_stage_runs_deepspeed_cpu_adam(tiny_spec: Any) -> None:
    """The ZeRO-2 stage through deepspeed.initialize and DeepSpeedCPUAdam (DeepSpeed's CPU
    accelerator here; its cpu_adam op compiles on first use)."""
    pytest.importorskip("deepspeed", reason="DeepSpeed not installed (pip install deepspeed)")
    log = run_stage(tiny_spec("tiny-esm", "deepspeed", precision="fp32-autocast"))
    assert log["status"] == "value", log["error"]
    assert log["optimizer"].startswith("DeepSpeedCPUAdam")
    assert log["deepspeed_config"]["zero_optimization"]["offload_optimizer"]["device"] == "cpu"
    assert log["deepspeed_config"]["torch_autocast"] == {"enabled": True, "dtype": "bfloat16"}
    labels = [e["label"] for e in log["estimates"]]
    assert labels == ["model-state floor", "DeepSpeed ZeRO-2 offload estimate"]
    # compiled into the project's own cache (conftest), not ~/.cache/torch_extensions
    cache = Path(__file__).resolve().parents[2] / ".cache" / "torch_extensions"
    assert list(cache.rglob("cpu_adam*.so")), f"no compiled cpu_adam op under {cache}"
