"""One protocol's items, one after another, in one process.

`python -m measure.hyenadna.worker SPEC.json LOGDIR` builds each item's random-weight model,
runs it and writes `LOGDIR/<item>.json`. Before each item: gc, empty_cache() and
reset_peak_memory_stats(), so an item's allocator peak is its own. Out of memory is a result
(status out_of_memory); other errors are logged with their traceback and the next item runs.

Memory items: inference (model.eval() under torch.inference_mode(), as huggingface.py runs
it) or a fine-tuning step (forward, mean-pooled 2-class head, cross-entropy, backward, AdamW
step; `steps` of them). Time items: forward and backward of the backbone (mean of its output
as the loss), timed twice per repeat: with torch.cuda.synchronize() before both clock reads,
and the way the HyenaDNA repository's step timer does it (time.time() at batch start and
end, no synchronisation) on a separate pass.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
import traceback
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

from measure import env
from measure.hyenadna.model import HyenaConfig, build, count_parameters

LOG_SCHEMA = "rewire-hyenadna-log/1"


def is_out_of_memory(error: BaseException) -> bool:
    """torch's OutOfMemoryError, or a RuntimeError that says CUDA ran out of memory (as
    measure.peak_memory.worker decides; not imported, to keep this worker's imports light)."""
    if isinstance(error, torch.cuda.OutOfMemoryError):
        return True
    return isinstance(error, RuntimeError) and "out of memory" in str(error).lower()


def _cuda(device: torch.device) -> bool:
    return device.type == "cuda"


def _sync(device: torch.device) -> None:
    if _cuda(device):
        torch.cuda.synchronize(device)


def _reset(device: torch.device) -> None:
    gc.collect()
    if _cuda(device):
        torch.cuda.synchronize(device)
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(device)


def _memory(device: torch.device) -> dict[str, int | None]:
    if not _cuda(device):
        return {"allocated": None, "peak_allocated": None, "peak_reserved": None, "total": None}
    return {
        "allocated": int(torch.cuda.memory_allocated(device)),
        "peak_allocated": int(torch.cuda.max_memory_allocated(device)),
        "peak_reserved": int(torch.cuda.max_memory_reserved(device)),
        "total": int(torch.cuda.get_device_properties(device).total_memory),
    }


def config_of(item: dict[str, Any]) -> HyenaConfig:
    """The model of an item: the checkpoint's dims, l_max = max length + 2 as the source."""
    return HyenaConfig(
        d_model=item["d_model"],
        n_layer=item["n_layer"],
        l_max=item["max_length"] + 2,
        mixer=item["mixer"],
        checkpoint_mixer=item["checkpointing"],
        checkpoint_mlp=item["checkpointing"],
    )


def _autocast(device: torch.device, precision: str) -> AbstractContextManager[Any]:
    if precision == "bf16-autocast":
        return torch.autocast(device.type, dtype=torch.bfloat16)
    return nullcontext()


def _attention_backend(device: torch.device, mixer: str) -> AbstractContextManager[Any]:
    """The baseline on a GPU: PyTorch's FlashAttention backend only (an error, not a silent
    fallback, if it cannot run); elsewhere whatever SDPA picks."""
    if mixer != "attention" or not _cuda(device):
        return nullcontext()
    from torch.nn.attention import SDPBackend, sdpa_kernel

    return sdpa_kernel(SDPBackend.FLASH_ATTENTION)


def _tokens(item: dict[str, Any], seed: int, device: torch.device) -> torch.Tensor:
    """Random nucleotide ids (the character tokenizer's A, C, G, T: ids 7 to 10)."""
    generator = torch.Generator().manual_seed(seed)
    ids = torch.randint(7, 11, (item["batch"], item["length"]), generator=generator)
    return ids.to(device)


def run_memory_item(
    item: dict[str, Any], spec: dict[str, Any], device: torch.device
) -> dict[str, Any]:
    """Inference or fine-tuning steps; the allocator peak over them."""
    log: dict[str, Any] = {"step_seconds": []}
    cfg = config_of(item)
    inference = item["method"] == "inference"
    model = build(cfg, device, n_classes=None if inference else 2)
    log["parameters"] = count_parameters(model)
    ids = _tokens(item, spec["seed"], device)
    labels = torch.zeros(item["batch"], dtype=torch.long, device=device)
    optimizer = None
    if inference:
        model.eval()
    else:
        model.train()
        opt = spec["optimizer"]
        optimizer = torch.optim.AdamW(
            model.parameters(),
            lr=opt["lr"],
            betas=tuple(opt["betas"]),
            eps=opt["eps"],
            weight_decay=opt["weight_decay"],
        )
        log["optimizer"] = "torch.optim.AdamW (fp32 states)"
    _sync(device)
    log["model_allocated_bytes"] = _memory(device)["allocated"]
    if _cuda(device):
        torch.cuda.reset_peak_memory_stats(device)
    for _ in range(spec["steps"]):
        _sync(device)
        tick = time.perf_counter()
        with _autocast(device, item["precision"]):
            if optimizer is None:
                with torch.inference_mode():
                    model(ids)
            else:
                loss = F.cross_entropy(model(ids).float(), labels)
                loss.backward()
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
        _sync(device)
        log["step_seconds"].append(time.perf_counter() - tick)
    return log


def run_time_item(
    item: dict[str, Any], spec: dict[str, Any], device: torch.device
) -> dict[str, Any]:
    """Forward and backward passes: warm-up, then `repeats` synchronised and `repeats`
    unsynchronised timings."""
    cfg = config_of(item)
    model = build(cfg, device)
    model.train()
    ids = _tokens(item, spec["seed"], device)

    def one_pass() -> None:
        # forward, recompute and backward under one attention backend (gpu-facts.md pitfall)
        with _attention_backend(device, item["mixer"]):
            with _autocast(device, item["precision"]):
                out = model(ids)
            out.float().mean().backward()

    for _ in range(spec["warmup"]):
        one_pass()
    _sync(device)
    synchronised = []
    for _ in range(spec["repeats"]):
        _sync(device)
        tick = time.perf_counter()
        one_pass()
        _sync(device)
        synchronised.append(time.perf_counter() - tick)
    unsynchronised = []
    for _ in range(spec["repeats"]):
        _sync(device)  # start from an idle GPU, as a new training batch would
        start = time.time()
        one_pass()
        unsynchronised.append(time.time() - start)
    _sync(device)
    return {
        "parameters": count_parameters(model),
        "synchronised_seconds": synchronised,
        "unsynchronised_seconds": unsynchronised,
        "median_seconds": statistics.median(synchronised),
        "median_unsynchronised_seconds": statistics.median(unsynchronised),
    }


_ENVIRONMENT: dict[str, Any] = {}
"""This process's environment, captured once (GPU, driver, packages and git commit do not
change between items; reading them takes seconds)."""


def _environment(spec: dict[str, Any], started: str, ended: str, attention: str) -> dict[str, Any]:
    if not _ENVIRONMENT:
        _ENVIRONMENT.update(
            env.capture(
                seed=spec["seed"],
                started_at=started,
                ended_at=ended,
                command=spec.get("command"),
                note=spec.get("environment_note"),
            )
        )
    return {
        **_ENVIRONMENT,
        "started_at": started,
        "ended_at": ended,
        "attention_backend": attention,
    }


def run_item(item: dict[str, Any], spec: dict[str, Any], device: torch.device) -> dict[str, Any]:
    """One item's log, whatever happens."""
    started = env.now_utc()
    log: dict[str, Any] = {
        "schema": LOG_SCHEMA,
        "recipe": spec["recipe"],
        "protocol": spec["protocol"],
        "protocol_key": spec["protocol_key"],
        "run_id": spec["run_id"],
        "kind": spec["kind"],
        "item": item["key"],
        "settings": {k: v for k, v in item.items() if k != "key"},
        "steps": spec["steps"],
        "warmup": spec["warmup"],
        "repeats": spec["repeats"],
        "seed": spec["seed"],
        "source": spec["source"],
        "status": "error",
        "error": None,
    }
    _reset(device)
    torch.manual_seed(spec["seed"])
    try:
        if spec["kind"] == "memory":
            log.update(run_memory_item(item, spec, device))
        else:
            log.update(run_time_item(item, spec, device))
        log["status"] = "value"
    except Exception as error:
        if is_out_of_memory(error):
            log["status"] = "out_of_memory"
            total = _memory(device)["total"]
            limit = f"{total / 1e9:.1f} GB" if total else "the available memory"
            log["error"] = f"did not fit in {limit} (out of memory): {error}"[:2000]
        else:
            log["error"] = "".join(traceback.format_exception(error))[-4000:]
    _sync(device)
    reading = _memory(device)
    log["memory"] = {
        "device_total_bytes": reading["total"],
        "model_allocated_bytes": log.pop("model_allocated_bytes", None),
        "peak_allocated_bytes": reading["peak_allocated"],
        "peak_reserved_bytes": reading["peak_reserved"],
    }
    ended = env.now_utc()
    log["started_at"], log["ended_at"] = started, ended
    log["environment"] = _environment(
        spec,
        started,
        ended,
        "torch scaled_dot_product_attention, causal, restricted to the FlashAttention "
        "backend (sdpa_kernel(SDPBackend.FLASH_ATTENTION)) on a GPU"
        if item["mixer"] == "attention"
        else "none (Hyena operator: long convolution through torch.fft in float32)",
    )
    log["worker_command"] = " ".join(sys.argv)
    return log


def run_spec(spec: dict[str, Any], log_dir: Path) -> int:
    """Every item of the spec, skipping those whose log says value or out_of_memory."""
    device = torch.device(spec.get("device", "cuda"))
    if _cuda(device):
        if device.index is None:
            device = torch.device("cuda", 0)
        torch.cuda.set_device(device)
    log_dir.mkdir(parents=True, exist_ok=True)
    errors = 0
    for item in spec["items"]:
        path = log_dir / f"{item['key']}.json"
        if path.exists():
            try:
                if json.loads(path.read_text(encoding="utf-8"))["status"] != "error":
                    continue
            except (ValueError, KeyError):
                pass
        log = run_item(item, spec, device)
        temporary = path.with_suffix(".json.part")
        temporary.write_text(json.dumps(log, indent=2) + "\n", encoding="utf-8")
        temporary.replace(path)
        print(f"{item['key']}: {log['status']}", flush=True)
        if log["status"] == "error":
            errors += 1
            print(log["error"], file=sys.stderr, flush=True)
    return 1 if errors else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m measure.hyenadna.worker SPEC.json LOGDIR", file=sys.stderr)
        return 2
    spec = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    return run_spec(spec, Path(args[1]))


if __name__ == "__main__":
    raise SystemExit(main())
