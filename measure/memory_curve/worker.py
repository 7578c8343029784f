"""One point of a memory curve, in its own process.

`python -m measure.memory_curve.worker SPEC.json LOG.json` builds the model on the GPU,
runs the method's steps on a batch of random tokens, reads the allocator peak over them
(after `reset_peak_memory_stats()` once the model and optimizer exist) and writes the raw
JSON log. `--group GROUP.json` runs several points of one model and method in one process
(the model built once; gradients released, `empty_cache()` and `reset_peak_memory_stats()`
before each point). Out of memory is a result: the point does not fit.
"""

from __future__ import annotations

import gc
import json
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import torch
import torch.nn.functional as F

from measure import env
from measure.architectures.build import build_model, count_parameters, hf_config
from measure.architectures.registry import get_architecture
from measure.peak_memory import train
from measure.peak_memory.worker import (
    _Memory,
    is_out_of_memory,
    log_head,
    worker_main,
    write_log,
)

LOG_SCHEMA = "rewire-memory-curve-log/1"
MIXED = {"full-mixed": False, "full-mixed-ckpt": True}
"""The mixed-precision full fine-tuning methods (fp32 master weights, gradients and AdamW
states; forward and loss under bf16 autocast), and whether each checkpoints activations."""


def precision_text(method: str, precision: str = "bf16") -> str:
    """The precision policy of a method, as the records state it (`precision`: the weights
    of the frozen methods, bf16 or fp32)."""
    if method in MIXED:
        return "fp32 master weights, gradients and AdamW states; forward under bf16 autocast" + (
            "; activation checkpointing per layer" if MIXED[method] else ""
        )
    if method in ("inference", "embed"):
        return f"{precision} weights"
    return "bf16 weights, see trainable"


def embed(model: Any, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    """Sequence embeddings: the encoder's last hidden states (no language-model head), the
    mean over each sequence's tokens, in fp32 (the pooling of the NT and DNABERT-2 papers;
    applied to every model here so that speeds compare)."""
    inputs = {k: v for k, v in batch.items() if k != "labels"}
    if hasattr(model, "hidden_states"):  # measure/dnabert2.py: no transformers base model
        hidden = model.hidden_states(inputs["input_ids"])
    else:
        hidden = model.base_model(**inputs).last_hidden_state
    return cast(torch.Tensor, hidden.float().mean(dim=1))


def _checkpoint_layers(model: Any) -> None:
    """Recompute each layer's activations in the backward pass (non-reentrant)."""
    if hasattr(model, "enable_layer_checkpointing"):  # measure/dnabert2.py
        model.enable_layer_checkpointing()
    elif hasattr(model, "activation_checkpointing_enable"):  # transformers >= 5.2x's name
        model.activation_checkpointing_enable({"use_reentrant": False})
    else:
        model.gradient_checkpointing_enable({"use_reentrant": False})


def _model(spec: dict[str, Any], device: torch.device) -> tuple[Any, str]:
    """The model of the point's method, and what its trainable part is."""
    arch = get_architecture(spec["model"])
    method = spec["method"]
    if method == "peft" and arch.family == "esm":
        from measure.ia3.adapters import build_ia3_classifier

        model = build_ia3_classifier(hf_config(arch), 2, device, torch.bfloat16)
        return model, "IA3 vectors and a 2-class head (fp32)"
    model = build_model(arch, device=device, attn_implementation="sdpa")
    if method in MIXED:
        model = model.to(torch.float32)
        if MIXED[method]:
            _checkpoint_layers(model)
        return model, "every weight (fp32 master weights; bf16 autocast)"
    if method in ("inference", "embed") and spec.get("precision", "bf16") == "fp32":
        return model.to(torch.float32), "none"
    model = model.to(torch.bfloat16)
    if method == "peft":
        lora = dict(spec["lora"])
        # the architecture's attention projections (DNABERT-2: one fused Wqkv; Mixtral: q/k/v_proj)
        lora["target_modules"] = list(arch.attention_modules)
        model = train.apply_lora(model, lora, "bf16")
        targets = ", ".join(lora["target_modules"])
        return model, f"LoRA adapters on {targets} (bf16, the weights' dtype)"
    return model, "none" if method in ("inference", "embed") else "every weight (bf16)"


def attention_text(arch_key: str) -> str:
    """What attention ran, for the record."""
    family = get_architecture(arch_key).family
    if family == "hyena-lm":
        return (
            "none: Hyena long convolutions through torch.fft in float32 (measure/hyenadna/model.py)"
        )
    if family == "caduceus":
        return (
            "none: bidirectional Mamba with a reference PyTorch selective scan, not the fused "
            "kernel: memory and time are upper bounds for the kernel (measure/caduceus.py)"
        )
    if family == "mosaic-bert-alibi":
        return (
            "explicit softmax(QK^T/sqrt(d) + ALiBi bias) V in PyTorch (the PyTorch path of "
            "DNABERT-2's hub code; measure/dnabert2.py)"
        )
    return "torch scaled_dot_product_attention (transformers sdpa), backend chosen by PyTorch"


@dataclass
class _Prepared:
    """A model (and optimizer) built once and reused by every point of a process."""

    model: Any
    trainable: str
    optimizer: Any
    parameters_total: int
    parameters_trainable: int
    classifier: bool


def _prepare(spec: dict[str, Any], device: torch.device) -> _Prepared:
    if device.type == "cuda":
        torch.cuda.set_device(device)
    method = spec["method"]
    arch = get_architecture(spec["model"])
    model, trainable_text = _model(spec, device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = None
    if method in ("inference", "embed"):
        model.eval()
    else:
        model.train()
        policy = "fp32-autocast" if method in MIXED else "bf16"
        optimizer = train.make_optimizer(params, policy, spec["optimizer"])
    return _Prepared(
        model=model,
        trainable=trainable_text,
        optimizer=optimizer,
        parameters_total=count_parameters(model),
        parameters_trainable=0 if optimizer is None else sum(p.numel() for p in params),
        classifier=method == "peft" and arch.family == "esm",
    )


def release(prepared: _Prepared) -> None:
    """Drop what a point left behind: gradients (set to None, as between steps) and any
    garbage; the optimizer's states stay, as they would between steps of one run."""
    prepared.model.zero_grad(set_to_none=True)
    if prepared.optimizer is not None:
        prepared.optimizer.zero_grad(set_to_none=True)
    gc.collect()


def run_points(
    specs: list[dict[str, Any]],
    on_log: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Run points of one model and method in this process: the model (and optimizer) is
    built once; before each point its gradients are released, the caching allocator's free
    blocks returned (`empty_cache`) and the peak statistics reset
    (`reset_peak_memory_stats`), so each point's peak is its own. After an out-of-memory
    point, longer inputs at the same batch are not run (they cannot fit either)."""
    if not specs:
        return []
    keys = {(s["model"], s["method"]) for s in specs}
    if len(keys) != 1:
        raise ValueError(f"a group runs one model and method, not {sorted(keys)}")
    device = torch.device(specs[0].get("device", "cuda"))
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", 0)
    memory = _Memory(device)
    logs: list[dict[str, Any]] = []
    prepared: _Prepared | None = None
    setup_error: str | None = None
    setup_status = "error"
    full_batches: set[int] = set()
    group_started = env.now_utc()
    for index, spec in enumerate(specs):
        if spec["batch"] in full_batches:
            print(f"skip {spec['item']}: a shorter input at this batch did not fit", flush=True)
            continue
        log = _new_log(spec, memory, index, len(specs), group_started)
        torch.manual_seed(spec["seed"])
        if prepared is None and setup_error is None:
            try:
                prepared = _prepare(spec, device)
            except Exception as error:
                setup_status = "out_of_memory" if is_out_of_memory(error) else "error"
                setup_error = _error_text(error, memory, "setup")
        if prepared is None:
            log["status"], log["error"] = setup_status, setup_error
        else:
            _measure(spec, prepared, memory, device, log)
            if log["status"] == "out_of_memory":
                full_batches.add(spec["batch"])
            release(prepared)
        _finish(spec, log)
        logs.append(log)
        if on_log is not None:
            on_log(log)
    return logs


def run_point(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one point as `spec` says, in a process of its own, and return its log."""
    [log] = run_points([spec])
    return log


def _new_log(
    spec: dict[str, Any], memory: _Memory, index: int, count: int, group_started: str
) -> dict[str, Any]:
    return {
        **log_head(LOG_SCHEMA, spec),
        "method": spec["method"],
        "method_text": spec["method_text"],
        "precision": precision_text(spec["method"], spec.get("precision", "bf16")),
        "batch": spec["batch"],
        "tokens": spec["tokens"],
        "steps": spec["steps"],
        "warmup": spec.get("warmup", 0),
        "seed": spec["seed"],
        "status": "error",
        "process": {
            "points": count,
            "index": index,
            "started_at": group_started,
            "note": "one process for all points of this model and method"
            if count > 1
            else "a process of its own",
        },
        "started_at": env.now_utc(),
        "cpu_threads": torch.get_num_threads(),
        "memory": {"device_total_bytes": memory.total()},
        "step_seconds": [],
        "error": None,
    }


def _error_text(error: BaseException, memory: _Memory, phase: str) -> str:
    if is_out_of_memory(error):
        total = memory.total()
        limit = f"{total / 1e9:.1f} GB" if total else "the available memory"
        return f"did not fit in {limit} (out of memory during {phase}): {error}"[:2000]
    return "".join(traceback.format_exception(error))[-4000:]


def _measure(
    spec: dict[str, Any],
    prepared: _Prepared,
    memory: _Memory,
    device: torch.device,
    log: dict[str, Any],
) -> None:
    """One point's steps between a reset and a reading of the allocator statistics."""
    arch = get_architecture(spec["model"])
    model, optimizer = prepared.model, prepared.optimizer
    log["model"].update(
        {
            "class": type(model).__name__,
            "parameters_total": prepared.parameters_total,
            "parameters_trainable": prepared.parameters_trainable,
        }
    )
    log["trainable"] = prepared.trainable
    if optimizer is not None:
        log["optimizer"] = f"{type(optimizer).__module__}.{type(optimizer).__name__}"
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
        batch = {k: v.to(device) for k, v in batch.items()}
        classes = None
        if prepared.classifier:
            generator = torch.Generator().manual_seed(spec["seed"])
            classes = torch.randint(0, 2, (spec["batch"],), generator=generator).to(device)
        memory.sync()
        memory.reset()
        log["memory"]["model_allocated_bytes"] = memory.read()["allocated"]
        phase = "steps"
        for _ in range(spec["steps"]):
            memory.sync()
            tick = time.perf_counter()
            if spec["method"] == "embed":
                with torch.inference_mode():
                    embed(model, batch)
            elif optimizer is None:
                with torch.inference_mode():
                    model(**{k: v for k, v in batch.items() if k != "labels"})
            else:
                if classes is not None:
                    with torch.autocast(device.type, dtype=torch.bfloat16):
                        logits = model(input_ids=batch["input_ids"]).logits
                    loss = F.cross_entropy(logits.float(), classes)
                elif spec["method"] in MIXED:
                    with torch.autocast(device.type, dtype=torch.bfloat16):
                        loss = model(**batch).loss
                else:
                    loss = model(**batch).loss
                loss.backward()
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
                del loss
            memory.sync()
            log["step_seconds"].append(time.perf_counter() - tick)
        log["status"] = "value"
    except Exception as error:
        log["status"] = "out_of_memory" if is_out_of_memory(error) else "error"
        log["error"] = _error_text(error, memory, phase)
        del error
    reading = memory.read()
    log["memory"].update(
        peak_allocated_bytes=reading["peak_allocated"],
        peak_reserved_bytes=reading["peak_reserved"],
    )


def _finish(spec: dict[str, Any], log: dict[str, Any]) -> None:
    started, ended = log["started_at"], env.now_utc()
    log["ended_at"] = ended
    log["environment"] = env.capture(
        seed=spec["seed"],
        started_at=started,
        ended_at=ended,
        attention_backend=attention_text(spec["model"]),
        command=spec.get("command"),
        note=spec.get("environment_note"),
    )
    log["worker_command"] = " ".join(sys.argv)


def main(argv: list[str] | None = None) -> int:
    """`SPEC.json LOG.json` runs one point; `--group GROUP.json` runs the points listed in
    GROUP.json ({"points": [[SPEC.json, LOG.json], ...]}) in this one process, writing each
    log as its point ends. Exit 1 when any log says error."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "--group":
        return worker_main("measure.memory_curve.worker", run_point, args)
    if len(args) != 2:
        print("usage: python -m measure.memory_curve.worker --group GROUP.json", file=sys.stderr)
        return 2
    group = json.loads(Path(args[1]).read_text(encoding="utf-8"))
    specs, paths = [], {}
    for spec_path, log_path in group["points"]:
        spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
        specs.append(spec)
        paths[spec["item"]] = Path(log_path)

    def write(log: dict[str, Any]) -> None:
        write_log(log, paths[log["item"]])
        print(f"{log['item']}: {log['status']}", flush=True)

    logs = run_points(specs, write)
    errors = [log for log in logs if log["status"] == "error"]
    for log in errors:
        print(log["error"], file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
