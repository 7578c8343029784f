"""One point of a memory curve, in its own process.

`python -m measure.memory_curve.worker SPEC.json LOG.json` builds the model on the GPU,
runs the method's steps on a batch of random tokens, reads the allocator peak over them
(after `reset_peak_memory_stats()` once the model and optimizer exist) and writes the raw
JSON log. Out of memory is a result: the point does not fit.
"""

from __future__ import annotations

import sys
import time
import traceback
from typing import Any

import torch
import torch.nn.functional as F

from measure import env
from measure.architectures import build_model, count_parameters, get_architecture, hf_config
from measure.peak_memory import train
from measure.peak_memory.worker import _Memory, is_out_of_memory, worker_main

LOG_SCHEMA = "rewire-memory-curve-log/1"


def _model(spec: dict[str, Any], device: torch.device) -> tuple[Any, str]:
    """The model of the point's method, and what its trainable part is."""
    arch = get_architecture(spec["model"])
    method = spec["method"]
    if method == "peft" and arch.family == "esm":
        from measure.ia3.adapters import build_ia3_classifier

        model = build_ia3_classifier(hf_config(arch), 2, device, torch.bfloat16)
        return model, "IA3 vectors and a 2-class head (fp32)"
    model = build_model(arch, device=device, attn_implementation="sdpa").to(torch.bfloat16)
    if method == "peft":
        model = train.apply_lora(model, spec["lora"], "bf16")
        return model, "LoRA adapters (bf16, the weights' dtype)"
    return model, "none" if method == "inference" else "every weight (bf16)"


def run_point(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one point as `spec` says and return its log."""
    started = env.now_utc()
    arch = get_architecture(spec["model"])
    device = torch.device(spec.get("device", "cuda"))
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", 0)
    memory = _Memory(device)
    method = spec["method"]
    log: dict[str, Any] = {
        "schema": LOG_SCHEMA,
        "recipe": spec["recipe"],
        "protocol": spec["protocol"],
        "run_id": spec["run_id"],
        "item": spec["item"],
        "model": {"key": arch.key, "name": arch.name, "checkpoint": arch.checkpoint},
        "method": method,
        "method_text": spec["method_text"],
        "batch": spec["batch"],
        "tokens": spec["tokens"],
        "steps": spec["steps"],
        "seed": spec["seed"],
        "status": "error",
        "memory": {"device_total_bytes": memory.total()},
        "step_seconds": [],
        "error": None,
    }
    torch.manual_seed(spec["seed"])
    phase = "setup"
    try:
        [batch] = train.synthetic_batches(
            arch,
            batch=spec["batch"],
            tokens=spec["tokens"],
            nucleotides=None,
            steps=1,
            seed=spec["seed"],
        )
        if device.type == "cuda":
            torch.cuda.set_device(device)
        model, trainable_text = _model(spec, device)
        log["model"]["class"] = type(model).__name__
        log["trainable"] = trainable_text
        batch = {k: v.to(device) for k, v in batch.items()}
        classifier = method == "peft" and arch.family == "esm"
        if classifier:
            generator = torch.Generator().manual_seed(spec["seed"])
            classes = torch.randint(0, 2, (spec["batch"],), generator=generator).to(device)
        params = [p for p in model.parameters() if p.requires_grad]
        log["model"].update(
            parameters_total=count_parameters(model),
            parameters_trainable=sum(p.numel() for p in params) if method != "inference" else 0,
        )
        optimizer = None
        if method == "inference":
            model.eval()
        else:
            model.train()
            optimizer = train.make_optimizer(params, "bf16", spec["optimizer"])
            log["optimizer"] = f"{type(optimizer).__module__}.{type(optimizer).__name__}"
        memory.sync()
        memory.reset()
        log["memory"]["model_allocated_bytes"] = memory.read()["allocated"]
        phase = "steps"
        for _ in range(spec["steps"]):
            memory.sync()
            tick = time.perf_counter()
            if optimizer is None:
                with torch.inference_mode():
                    model(**{k: v for k, v in batch.items() if k != "labels"})
            else:
                if classifier:
                    with torch.autocast(device.type, dtype=torch.bfloat16):
                        logits = model(input_ids=batch["input_ids"]).logits
                    loss = F.cross_entropy(logits.float(), classes)
                else:
                    loss = model(**batch).loss
                loss.backward()
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
            memory.sync()
            log["step_seconds"].append(time.perf_counter() - tick)
        log["status"] = "value"
    except Exception as error:
        if is_out_of_memory(error):
            log["status"] = "out_of_memory"
            total = memory.total()
            limit = f"{total / 1e9:.1f} GB" if total else "the available memory"
            log["error"] = f"did not fit in {limit} (out of memory during {phase}): {error}"[:2000]
        else:
            log["error"] = "".join(traceback.format_exception(error))[-4000:]
    reading = memory.read()
    log["memory"].update(
        peak_allocated_bytes=reading["peak_allocated"],
        peak_reserved_bytes=reading["peak_reserved"],
    )
    ended = env.now_utc()
    log["started_at"], log["ended_at"] = started, ended
    log["environment"] = env.capture(
        seed=spec["seed"],
        started_at=started,
        ended_at=ended,
        attention_backend="torch scaled_dot_product_attention (transformers sdpa), "
        "backend chosen by PyTorch",
        command=spec.get("command"),
        note=spec.get("environment_note"),
    )
    log["worker_command"] = " ".join(sys.argv)
    return log


def main(argv: list[str] | None = None) -> int:
    return worker_main("measure.memory_curve.worker", run_point, argv)


if __name__ == "__main__":
    raise SystemExit(main())
