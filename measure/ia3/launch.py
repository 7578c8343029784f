"""Start IA3 runs through `torchrun` and time each from launch to exit.

    rewire measure ia3-launch nt-500m:2:1000 [ARCH:GPUS:STEPS ...] --out runs/ia3

(on a lent GPU machine without the console script:
`python3 -c 'from measure.cli import app; app()' ia3-launch ...`). torchrun is the process
manager (`python -m torch.distributed.run --standalone`); this module only builds its
command line, clocks the whole run (interpreter start, process group, model build,
compilation, training, teardown) and folds that wall time into the worker's JSON log beside
torchrun's own output. It imports no torch, so it runs anywhere. The per-rank entry point
that torchrun starts is `measure.ia3.worker` (see its docstring). The records are written
where the catalogue lives, with `rewire measure ia3-records`.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .tasks import DEFAULT_TASK, task

GLOBAL_BATCH = 8
FULL_STEPS = 10_000
MULTICAST_OFF = {
    "NCCL_NVLS_ENABLE": "0",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
    "NVSHMEM_DISABLE_NVLS": "1",
}
"""NVLink multicast stays off on the lent multi-GPU machines (workplace rule)."""


@dataclass(frozen=True)
class Setup:
    """One measured setup: model, GPU count, steps and the speed levers."""

    arch: str
    gpus: int
    steps: int = FULL_STEPS
    task: str = DEFAULT_TASK
    warmup: int = 50
    precision: str = "bf16"
    compile: str = "reduce-overhead"
    fused_adam: bool = True
    seed: int = 0
    cache_dir: str | None = None
    """torch.compile's cache folder (TORCHINDUCTOR_CACHE_DIR); a second run of the same
    setup with the same folder starts from its compiled graphs and kernels."""

    def __post_init__(self) -> None:
        check_gpus(self.gpus)
        task(self.task)
        if self.steps <= self.warmup + 3:
            raise ValueError(f"steps ({self.steps}) must exceed warm-up ({self.warmup}) by 4+")

    @property
    def key(self) -> str:
        return f"{self.arch}-{self.gpus}gpu-{self.steps}steps"


def check_gpus(gpus: int, global_batch: int = GLOBAL_BATCH) -> None:
    """Refuse a process count that does not divide the global batch."""
    if gpus < 1 or global_batch % gpus:
        divisors = [n for n in range(1, global_batch + 1) if global_batch % n == 0]
        raise ValueError(
            f"{gpus} GPUs cannot share a global batch of {global_batch} evenly; "
            f"use one of {divisors}"
        )


def torchrun_command(setup: Setup, log_file: Path, python: str = sys.executable) -> list[str]:
    """The torchrun command line of a setup."""
    return [
        python, "-m", "torch.distributed.run", "--standalone",
        "--nproc_per_node", str(setup.gpus),
        "-m", "measure.ia3.worker",
        "--arch", setup.arch,
        "--task", setup.task,
        "--steps", str(setup.steps),
        "--warmup", str(setup.warmup),
        "--global-batch", str(GLOBAL_BATCH),
        "--precision", setup.precision,
        "--compile", setup.compile,
        "--fused-adam" if setup.fused_adam else "--no-fused-adam",
        "--seed", str(setup.seed),
        "--log-file", str(log_file),
    ]  # fmt: skip


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def launch(setup: Setup, out_dir: Path, extra_args: Sequence[str] = (), echo: bool = True) -> Path:
    """Run one setup; return the path of its merged JSON log (raises on failure)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    worker_log = out_dir / f"{setup.key}.worker.json"
    text_log = out_dir / f"{setup.key}.stdout.txt"
    merged = out_dir / f"{setup.key}.json"
    command = [*torchrun_command(setup, worker_log), *extra_args]
    env = {**os.environ, **MULTICAST_OFF, "REWIRE_COMMAND": shlex.join(command)}
    env.update(cache_environment(setup.cache_dir))
    env.setdefault("PYTHONUNBUFFERED", "1")
    started_at = _now()
    start = time.monotonic()
    with text_log.open("w", encoding="utf-8") as sink:
        proc = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        assert proc.stdout is not None

        def _stop(signum: int, _frame: object) -> None:  # `timeout` reaches torchrun too
            proc.terminate()
            raise SystemExit(128 + signum)

        previous = signal.signal(signal.SIGTERM, _stop)
        try:
            for line in proc.stdout:
                sink.write(line)
                if echo:
                    sys.stdout.write(line)
            returncode = proc.wait()
        finally:  # the handler names this run's torchrun: never left behind it
            signal.signal(signal.SIGTERM, previous)
    wall_s = time.monotonic() - start
    if returncode != 0 or not worker_log.exists():
        raise RuntimeError(f"{setup.key}: torchrun exited {returncode}; see {text_log}")
    log: dict[str, Any] = json.loads(worker_log.read_text(encoding="utf-8"))
    log["launcher"] = {
        "setup": asdict(setup),
        "command": shlex.join(command),
        "wall_s": wall_s,
        "started_at": started_at,
        "ended_at": _now(),
        "returncode": returncode,
        "stdout_file": text_log.name,
    }
    partial = merged.with_name(merged.name + ".part")  # whole or absent: a resume trusts it
    partial.write_text(json.dumps(log, indent=1) + "\n", encoding="utf-8")
    partial.replace(merged)
    worker_log.unlink()
    progress = worker_log.with_name(worker_log.stem + ".progress.jsonl")
    progress.unlink(missing_ok=True)
    return merged


def cache_environment(cache_dir: str | None) -> dict[str, str]:
    """Environment that keeps torch.compile's FX graph, AOTAutograd and Triton kernel
    caches in `cache_dir` (nothing when None: torch's default location)."""
    if cache_dir is None:
        return {}
    folder = str(Path(cache_dir).resolve())
    return {
        "TORCHINDUCTOR_CACHE_DIR": folder,
        "TORCHINDUCTOR_FX_GRAPH_CACHE": "1",
        "TORCHINDUCTOR_AUTOGRAD_CACHE": "1",
        "TRITON_CACHE_DIR": str(Path(folder) / "triton"),
    }


def parse_setup(text: str, **defaults: Any) -> Setup:
    """`ARCH:GPUS:STEPS` -> Setup, e.g. `nt-500m:2:1000`."""
    parts = text.split(":")
    if len(parts) != 3 or not parts[0]:
        raise ValueError(f"setup {text!r} is not ARCH:GPUS:STEPS")
    if not (parts[1].isdigit() and parts[2].isdigit()):
        raise ValueError(f"setup {text!r}: GPUS and STEPS must be whole numbers")
    return Setup(arch=parts[0], gpus=int(parts[1]), steps=int(parts[2]), **defaults)


def launch_all(setups: Sequence[Setup], out: Path, *, keep_going: bool = False) -> int:
    """Run `setups` one after another, printing 'DONE key: wall s -> log' or 'FAILED ...'
    for each; 0 when every one succeeded, else 1 (without `keep_going`, the first failure
    ends the series)."""
    failed = 0
    for setup in setups:
        try:
            path = launch(setup, out)
        except RuntimeError as error:
            print(f"FAILED {error}", flush=True)
            failed += 1
            if not keep_going:
                return 1
            continue
        wall = json.loads(path.read_text(encoding="utf-8"))["launcher"]["wall_s"]
        print(f"DONE {setup.key}: {wall:.1f} s -> {path}", flush=True)
    return 1 if failed else 0
