"""One IA3 fine-tuning run, data-parallel over the processes `torchrun` starts.

    torchrun --nproc_per_node N -m measure.ia3.worker --arch nt-500m --steps 10000 --log L

Every process builds the same random-weight model (same seed), trains on its share of
each global batch of 8 (8/N sequences; N must divide 8) with DDP averaging the gradients
of the trainable parameters, and rank 0 writes one JSON log: settings, per-step times
(rank 0's CUDA events), loss every `--log-every` steps, phase timestamps, peak memory of
every GPU and the environment. With one process DDP is not used (nothing to average).

This is the per-rank entry point, not a command for people: `launch.torchrun_command`
writes its options and torchrun starts one copy per rank (`-m measure.ia3.worker`: torchrun
runs a module or script per rank). Its standard-library command line (argparse) is that
internal interface; the commands a person runs are `rewire measure`'s (Typer), here
`rewire measure ia3-launch`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F
from transformers import EsmConfig

from measure.architectures.build import hf_config
from measure.architectures.registry import get_architecture
from measure.env import capture, now_utc

from .adapters import build_ia3_classifier, count_parameters
from .data import batch_indices, generate, local_share
from .tasks import task
from .tokens import VOCAB_SIZE

LOG_SCHEMA = "rewire-ia3-worker-log/1"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--arch", required=True, help="architecture key: nt-500m, nt-2-5b, tiny-esm")
    p.add_argument("--task", default="splice_sites_all_revised")
    p.add_argument("--steps", type=int, default=10_000)
    p.add_argument("--warmup", type=int, default=50)
    p.add_argument("--global-batch", type=int, default=8)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--precision", choices=["bf16", "fp32"], default="bf16")
    p.add_argument("--compile", choices=["none", "default", "reduce-overhead"], default="none")
    p.add_argument("--fused-adam", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--rows", type=int, default=None, help="synthetic rows (default: one fold)")
    p.add_argument("--log-every", type=int, default=500)
    p.add_argument(
        "--loss-trace-steps",
        type=int,
        default=200,
        help="keep every step's loss (on the GPU, no sync) for this many first steps; the "
        "log holds their mean over ranks, to compare compile modes and GPU counts",
    )
    p.add_argument("--log-file", required=True, type=Path, help="JSON log written by rank 0")
    return p.parse_args(argv)


class StepClock:
    """Per-step durations: CUDA events on the GPU (read after one final sync), host clock on CPU."""

    def __init__(self, device: torch.device, steps: int) -> None:
        self.cuda = device.type == "cuda"
        if self.cuda:
            self.events = [torch.cuda.Event(enable_timing=True) for _ in range(steps + 1)]
        self.host: list[float] = []
        self.n = 0

    def start(self) -> None:
        self.mark()

    def mark(self) -> None:
        if self.cuda:
            self.events[self.n].record()
        else:
            self.host.append(time.perf_counter())
        self.n += 1

    def step_ms(self) -> list[float]:
        if self.cuda:
            torch.cuda.synchronize()
            return [self.events[i].elapsed_time(self.events[i + 1]) for i in range(self.n - 1)]
        return [(b - a) * 1000.0 for a, b in zip(self.host, self.host[1:], strict=False)]


def compile_cache_state() -> dict[str, Any]:
    """Where torch.compile's caches live and how full they are before compiling: the
    inductor cache folder (FX graph, AOTAutograd and Triton kernel caches beneath it) when
    `TORCHINDUCTOR_CACHE_DIR` names one, and the cache switches in force."""
    folder = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    files = 0
    if folder and Path(folder).is_dir():
        files = sum(1 for p in Path(folder).rglob("*") if p.is_file())
    return {
        "dir": folder,
        "files_at_start": files if folder else None,
        "state": ("warm" if files else "cold") if folder else "default location",
        "fx_graph_cache": os.environ.get("TORCHINDUCTOR_FX_GRAPH_CACHE", "default"),
        "autograd_cache": os.environ.get("TORCHINDUCTOR_AUTOGRAD_CACHE", "default"),
        "origin": os.environ.get("REWIRE_COMPILE_CACHE_ORIGIN"),
    }


def compile_cache_counters() -> dict[str, int]:
    """How often torch.compile found its compiled graphs in the cache (hits) or compiled
    them anew (misses), read from torch's own counters after training: a carried cache that
    loads shows hits and no misses."""
    from torch._dynamo.utils import counters

    inductor, aot = counters["inductor"], counters["aot_autograd"]
    return {
        "fx_graph_cache_hit": int(inductor.get("fxgraph_cache_hit", 0)),
        "fx_graph_cache_miss": int(inductor.get("fxgraph_cache_miss", 0)),
        "autograd_cache_hit": int(aot.get("autograd_cache_hit", 0)),
        "autograd_cache_miss": int(aot.get("autograd_cache_miss", 0)),
    }


def _arch(key: str) -> EsmConfig:
    arch = get_architecture(key)
    if arch.family != "esm":
        raise SystemExit(f"{key}: the IA3 recipe takes NT (ESM) architectures, not {arch.family}")
    config: EsmConfig = hf_config(arch)
    return config


def run(args: argparse.Namespace) -> dict[str, Any] | None:
    phases: dict[str, float] = {"worker_start": time.time()}
    started_at = now_utc()
    use_cuda = torch.cuda.is_available()
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if use_cuda:
        torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank) if use_cuda else torch.device("cpu")
    dist.init_process_group(
        backend="nccl" if use_cuda else "gloo", device_id=device if use_cuda else None
    )
    rank, world = dist.get_rank(), dist.get_world_size()
    if args.global_batch % world:
        raise SystemExit(
            f"global batch {args.global_batch} is not divisible by {world} processes; "
            "use a process count that divides it"
        )
    phases["process_group_ready"] = time.time()

    shape = task(args.task)
    config = _arch(args.arch)
    if config.vocab_size != VOCAB_SIZE:
        raise SystemExit(f"architecture vocab {config.vocab_size} != NT 6-mer vocab {VOCAB_SIZE}")
    torch.manual_seed(args.seed)
    bf16 = args.precision == "bf16"
    model = build_ia3_classifier(
        config, shape.classes, device, torch.bfloat16 if bf16 else torch.float32
    )
    model.train()
    counts = count_parameters(model, config)
    attention = str(getattr(model.config, "_attn_implementation", "unknown"))
    params = [p for p in model.parameters() if p.requires_grad]
    fused = bool(args.fused_adam)
    optimizer = torch.optim.Adam(params, lr=args.lr, fused=fused)
    net: Any = model
    if world > 1:
        net = torch.nn.parallel.DistributedDataParallel(
            model, device_ids=[local_rank] if use_cuda else None
        )
    cache = compile_cache_state()
    if args.compile != "none":
        net = torch.compile(net, mode=None if args.compile == "default" else args.compile)
    _sync(device)
    phases["model_ready"] = time.time()

    data = generate(shape, args.seed, rows=args.rows)
    order = local_share(
        batch_indices(len(data.labels), args.steps, args.global_batch, args.seed), rank, world
    )
    token_ids = torch.from_numpy(data.token_ids).to(device)
    labels = torch.from_numpy(data.labels).to(device)
    order_t = torch.from_numpy(np.ascontiguousarray(order)).to(device)
    _sync(device)
    phases["data_ready"] = time.time()

    progress = args.log_file.with_name(args.log_file.stem + ".progress.jsonl")
    clock = StepClock(device, args.steps)
    losses: list[tuple[int, float]] = []
    traced = min(max(args.loss_trace_steps, 0), args.steps)
    loss_trace = torch.zeros(traced, dtype=torch.float32, device=device)
    clock.start()
    for step in range(args.steps):
        rows = order_t[step]
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            logits = net(input_ids=token_ids[rows]).logits
        loss = F.cross_entropy(logits.float(), labels[rows])
        if step < traced:  # a device copy, no sync (CUDA graph outputs are reused next step)
            loss_trace[step].copy_(loss.detach())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        clock.mark()
        if (step + 1) % args.log_every == 0 or step == 0 or step + 1 == args.steps:
            losses.append((step + 1, float(loss.detach())))  # synchronises the stream
            if rank == 0:
                _progress(progress, step + 1, losses[-1][1], phases["worker_start"])
    step_ms = clock.step_ms()
    phases["train_end"] = time.time()
    if args.compile != "none":
        cache = {**cache, **compile_cache_counters()}
    if world > 1 and traced:
        dist.all_reduce(loss_trace)
        loss_trace /= world

    memory = {
        "rank": rank,
        "device": str(device),
        "peak_allocated_bytes": torch.cuda.max_memory_allocated(device) if use_cuda else None,
        "peak_reserved_bytes": torch.cuda.max_memory_reserved(device) if use_cuda else None,
        "step_ms_sum": sum(step_ms),
    }
    gathered: list[Any] = [None] * world
    dist.all_gather_object(gathered, memory)
    if rank != 0:
        return None
    return {
        "schema": LOG_SCHEMA,
        "started_at": started_at,
        "ended_at": now_utc(),
        "argv": sys.argv,
        "settings": {
            "arch": args.arch,
            "task": shape.name,
            "length_bp": shape.length_bp,
            "classes": shape.classes,
            "tokens_per_sequence": data.tokens_per_sequence,
            "rows": len(data.labels),
            "steps": args.steps,
            "warmup": args.warmup,
            "global_batch": args.global_batch,
            "per_gpu_batch": args.global_batch // world,
            "world_size": world,
            "backend": dist.get_backend(),
            "ddp": world > 1,
            "lr": args.lr,
            "optimizer": "torch.optim.Adam" + (" (fused)" if fused else ""),
            "seed": args.seed,
            "precision": args.precision,
            "compile": args.compile,
            "attention": attention,
            "device_type": device.type,
        },
        "architecture": {
            "hidden": config.hidden_size,
            "layers": config.num_hidden_layers,
            "heads": config.num_attention_heads,
            "ffn": config.intermediate_size,
            "vocab": config.vocab_size,
            "max_positions": config.max_position_embeddings,
        },
        "parameters": counts.__dict__,
        "phases": phases,
        "step_ms": step_ms,
        "loss": losses,
        "loss_trace": [float(v) for v in loss_trace.tolist()],
        "loss_trace_note": f"loss of each of the first {traced} steps, mean over the "
        f"{world} rank(s) (each rank's loss is the mean over its share of the global batch)",
        "compile_cache": cache,
        "ranks": gathered,
        "environment": _environment(args, device, world, attention, started_at),
    }


def _environment(
    args: argparse.Namespace, device: torch.device, world: int, attention: str, started_at: str
) -> dict[str, Any]:
    env = capture(
        seed=args.seed,
        started_at=started_at,
        ended_at=now_utc(),
        attention_backend=f"transformers ESM attn_implementation={attention}",
    )
    env["gpu_count"] = world
    if device.type == "cuda":
        env["packages"]["nccl"] = ".".join(str(v) for v in torch.cuda.nccl.version())
    return env


def _progress(path: Path, step: int, loss: float, worker_start: float) -> None:
    """One line per logged step, so that a run cut off by a time limit leaves a trace."""
    line = {"step": step, "loss": loss, "elapsed_s": round(time.time() - worker_start, 3)}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    print(f"step {step} loss {loss:.4f} elapsed {line['elapsed_s']:.1f} s", flush=True)


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        log = run(args)
        if log is not None:
            args.log_file.parent.mkdir(parents=True, exist_ok=True)
            args.log_file.write_text(json.dumps(log, indent=1) + "\n")
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
