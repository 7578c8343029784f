"""One stage of one model under one setting, in its own process.

`python -m measure.peak_memory.worker SPEC.json LOG.json` builds the model on the GPU,
runs the training steps of the stage, reads the allocator statistics over the measured
region (after `reset_peak_memory_stats()` once the model sits on the GPU) and the clock,
and writes the raw JSON log. Out of memory is a result, not a crash.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import socket
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import torch

from measure import env
from measure.architectures.build import count_parameters
from measure.architectures.registry import get_architecture
from measure.peak_memory import estimate, train
from measure.peak_memory.recipe import DEFAULT_ATTENTION, Stage
from measure.peak_memory.stages import (
    FA4_IMPLEMENTATION,
    StageFeatures,
    flash_attn_version,
    register_flash_attn_4,
    stage_features,
)

LOG_SCHEMA = "rewire-peak-memory-log/1"
ModelHook = Callable[[Any], None]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _single_process_distributed() -> None:
    """Environment for a one-process torch.distributed group (DeepSpeed needs one)."""
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("LOCAL_RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(_free_port()))


def is_out_of_memory(error: BaseException) -> bool:
    """torch's OutOfMemoryError, or a RuntimeError that says CUDA ran out of memory."""
    if isinstance(error, torch.cuda.OutOfMemoryError):
        return True
    return isinstance(error, RuntimeError) and "out of memory" in str(error).lower()


@contextlib.contextmanager
def _attention(features: StageFeatures) -> Iterator[None]:
    """A fresh `sdpa_kernel(FLASH_ATTENTION)` per step when the stage runs SDPA flash, so
    that the backward pass (and checkpoint recomputation) uses the same kernel."""
    if features.sdpa_flash_only:
        from torch.nn.attention import SDPBackend, sdpa_kernel

        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            yield
    else:
        yield


def _autocast(precision: str, device: torch.device) -> contextlib.AbstractContextManager[Any]:
    """bf16 autocast for the fp32-autocast policy (under DeepSpeed the engine's own
    torch_autocast config does it: pass "engine")."""
    if precision == "fp32-autocast":
        return torch.autocast(device_type=device.type, dtype=torch.bfloat16)
    return contextlib.nullcontext()


class _Memory:
    def __init__(self, device: torch.device) -> None:
        self.cuda = device.type == "cuda"

    def reset(self) -> None:
        if self.cuda:
            gc.collect()
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize()

    def read(self) -> dict[str, int | None]:
        if not self.cuda:
            return {"allocated": None, "peak_allocated": None, "peak_reserved": None}
        return {
            "allocated": int(torch.cuda.memory_allocated()),
            "peak_allocated": int(torch.cuda.max_memory_allocated()),
            "peak_reserved": int(torch.cuda.max_memory_reserved()),
        }

    def total(self) -> int | None:
        if not self.cuda:
            return None
        return int(torch.cuda.get_device_properties(torch.cuda.current_device()).total_memory)


def log_head(schema: str, spec: dict[str, Any]) -> dict[str, Any]:
    """What the log of a model built from its architecture (a peak-memory stage, a
    memory-curve point) starts with, as the record writers read it: its schema, recipe,
    protocol, run, item and model (key, name, checkpoint)."""
    arch = get_architecture(spec["model"])
    return {
        "schema": schema,
        "recipe": spec["recipe"],
        "protocol": spec["protocol"],
        "run_id": spec["run_id"],
        "item": spec["item"],
        "model": {"key": arch.key, "name": arch.name, "checkpoint": arch.checkpoint},
    }


def run_stage(spec: dict[str, Any], *, model_hook: ModelHook | None = None) -> dict[str, Any]:
    """Run one stage as `spec` says and return its log. `model_hook`, when given, is called
    with the built model before the measured region (tests use it to plant an error)."""
    started = env.now_utc()
    arch = get_architecture(spec["model"])
    stage = Stage(**spec["stage"])
    setting = dict(spec["setting"])
    precision = setting["precision"]
    features = stage_features(
        stage, flash_attn_version(), setting.get("attention", DEFAULT_ATTENTION)
    )
    if features.attn_implementation == FA4_IMPLEMENTATION:
        register_flash_attn_4()
    device = torch.device(spec.get("device", "cuda"))
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", 0)  # the one GPU CUDA_VISIBLE_DEVICES leaves visible
    memory = _Memory(device)
    log: dict[str, Any] = {
        **log_head(LOG_SCHEMA, spec),
        "stage": spec["stage"],
        "features": features.__dict__,
        "setting": setting,
        "tokens": spec["tokens"],
        "nucleotides": spec.get("nucleotides"),
        "batch": spec["batch"],
        "steps": spec["steps"],
        "seed": spec["seed"],
        "status": "error",
        "memory": {"device_total_bytes": memory.total()},
        "step_seconds": [],
        "losses": [],
        "estimates": [],
        "error": None,
    }
    torch.manual_seed(spec["seed"])
    phase = "setup"
    try:
        batches = train.synthetic_batches(
            arch,
            batch=spec["batch"],
            tokens=spec["tokens"],
            nucleotides=spec.get("nucleotides"),
            steps=spec["steps"],
            seed=spec["seed"],
        )
        if device.type == "cuda":
            torch.cuda.set_device(device)
        from measure.architectures.build import build_model

        model = build_model(arch, device=device, attn_implementation=features.attn_implementation)
        log["model"]["class"] = type(model).__name__
        model = model.to(train.model_dtype(precision))
        if features.checkpointing:
            model.gradient_checkpointing_enable(
                gradient_checkpointing_kwargs={"use_reentrant": False}
            )
        if setting["update"].startswith("lora"):
            model = train.apply_lora(model, spec["lora"], precision)
        model.train()
        params = [p for p in model.parameters() if p.requires_grad]
        total = count_parameters(model)
        trainable = sum(p.numel() for p in params)
        log["model"].update(parameters_total=total, parameters_trainable=trainable)
        batches = [{k: v.to(device) for k, v in b.items()} for b in batches]
        floor = estimate.model_state_floor(
            total_params=total,
            trainable_params=trainable,
            precision=precision,
            zero2_offload=features.zero2_offload,
            reduce_bucket_size=int(
                spec["deepspeed"]["zero_optimization"].get("reduce_bucket_size", 500_000_000)
            ),
            overlap_comm=bool(spec["deepspeed"]["zero_optimization"].get("overlap_comm", False)),
        )
        log["estimates"].append(floor.__dict__)
        engine = None
        if features.zero2_offload:
            _single_process_distributed()
            config = train.deepspeed_config(
                spec["deepspeed"], precision=precision, batch=spec["batch"]
            )
            log["deepspeed_config"] = config
            engine, log["optimizer"] = train.deepspeed_engine(
                model, params, config, spec["optimizer"]
            )
            from deepspeed.runtime.zero.stage_1_and_2 import model_to_params

            ds = estimate.deepspeed_zero2_offload(model_to_params(model))
            if ds is not None:
                log["estimates"].append(ds.__dict__)
            optimizer = None
        else:
            optimizer = train.make_optimizer(params, precision, spec["optimizer"])
            log["optimizer"] = f"{type(optimizer).__module__}.{type(optimizer).__name__}"
        if model_hook is not None:
            model_hook(model)
        memory.sync()
        log["memory"]["setup_peak_allocated_bytes"] = memory.read()["peak_allocated"]
        memory.reset()
        log["memory"]["model_states_allocated_bytes"] = memory.read()["allocated"]
        phase = "steps"
        runner = engine if engine is not None else model
        for batch in batches:
            memory.sync()
            tick = time.perf_counter()
            with _attention(features):
                with _autocast(precision if engine is None else "engine", device):
                    loss = runner(**batch).loss
                if engine is not None:
                    engine.backward(loss)
                    engine.step()
                else:
                    loss.backward()
                    assert optimizer is not None
                    optimizer.step()
                    optimizer.zero_grad(set_to_none=True)
            memory.sync()
            log["step_seconds"].append(time.perf_counter() - tick)
            log["losses"].append(float(loss.detach().float().item()))
        log["status"] = "value"
    except Exception as error:
        if is_out_of_memory(error):
            log["status"] = "out_of_memory"
            total_gb = memory.total()
            limit = f"{total_gb / 1e9:.1f} GB" if total_gb else "the available memory"
            log["error"] = f"did not fit in {limit} (out of memory during {phase}): {error}"[:2000]
        else:
            log["status"] = "error"
            log["error"] = "".join(traceback.format_exception(error))[-4000:]
    reading = memory.read()
    log["memory"].update(
        peak_allocated_bytes=reading["peak_allocated"],
        peak_reserved_bytes=reading["peak_reserved"],
    )
    times = log["step_seconds"][1:] or log["step_seconds"]
    log["step_time_median_s"] = train.median(times) if times else None
    ended = env.now_utc()
    log["started_at"], log["ended_at"] = started, ended
    log["environment"] = env.capture(
        seed=spec["seed"],
        started_at=started,
        ended_at=ended,
        attention_backend=features.attention_backend,
        command=spec.get("command"),
        note=spec.get("environment_note"),
    )
    log["worker_command"] = " ".join(sys.argv)
    return log


def write_log(log: dict[str, Any], path: Path) -> None:
    """Write the log atomically (a finished log is complete or absent)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    partial.write_text(json.dumps(log, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    partial.replace(path)


def worker_main(
    module: str, run: Callable[[dict[str, Any]], dict[str, Any]], argv: list[str] | None
) -> int:
    """A worker process: `python -m MODULE SPEC.json LOG.json` runs one spec and writes
    its log; exit 1 when the log's status is error, 2 on bad arguments."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(f"usage: python -m {module} SPEC.json LOG.json", file=sys.stderr)
        return 2
    spec = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    log = run(spec)
    write_log(log, Path(args[1]))
    if log["status"] == "error":
        print(log["error"], file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    return worker_main("measure.peak_memory.worker", run_stage, argv)


if __name__ == "__main__":
    raise SystemExit(main())
