"""`rewire measure run gfm-guide-20261014-protocol-nt-ia3-finetune-runtime`: plan and run.

The plan: every model (NT 500M, NT 2.5B) on every GPU count that divides the global
batch of 8 and fits the GPUs given (1, 2, 4, 8), each a full-length run of 10,000 steps by
default. With `--settings steps=N` (N < 10,000) every setup is a short run, and the
setups named by `confirm=MODEL:GPUS[+MODEL:GPUS...]` (default: the first model on one GPU;
`none` for no full run) also get a full-length run. A short run's wall time is
extrapolated only where a full run of its own setup confirms it within 5%; the others are
written as incomplete results (what was measured, no run time claimed).
Runs go one after another through torchrun (`launch`); finished ones are kept on resume.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from measure.architectures.registry import get_architecture
from measure.registry import PlanItem, Recipe, RunOptions

from .launch import FULL_STEPS, GLOBAL_BATCH, Setup, launch
from .tasks import DEFAULT_TASK

PROTOCOL_ID = "gfm-guide-20261014-protocol-nt-ia3-finetune-runtime"
DEFAULT_MODELS = ("nt-500m", "nt-2-5b")
GPU_COUNTS = tuple(n for n in range(1, GLOBAL_BATCH + 1) if GLOBAL_BATCH % n == 0)
STARTUP_S = 135.0
"""Launch to exit minus the steps, cold compile cache: 93-135 s in the 10,000-step H200 runs
of 2026-11-30 (run 20261130-ia3-2015: start-up, first step with compilation, teardown)."""
STARTUP_WARM_S = 33.0
"""The same with a warm compile cache (`cache=DIR` holding an earlier run's caches): 32 s
for NT 2.5B on one H200 (run 20261130-ia3-2315, 235 s launch to exit for 10,000 steps)."""
STEP_MS = {("nt-500m", 1): 45.0, ("nt-500m", 2): 49.0, ("nt-2-5b", 1): 47.0, ("nt-2-5b", 2): 52.0}
"""Mean step times with `compile=default` of the 10,000-step H200 runs of 2026-11-29 (run
20261129-ia3-2147; NT 500M on 2 GPUs: 4,000 steps), for planning only."""
STEP_MS_CUDA_GRAPHS = {
    ("nt-500m", 1): 8.2,
    ("nt-500m", 2): 12.4,
    ("nt-2-5b", 1): 20.3,
    ("nt-2-5b", 2): 16.2,
}
"""Mean step times with `compile=reduce-overhead` (CUDA graphs) of the 10,000-step H200 runs
of 2026-11-30 (runs 20261130-ia3-2015 and, NT 2.5B on one GPU, 20261130-ia3-2315)."""
DEFAULT_STEP_MS = 60.0
DEFAULT_COMPILE = "reduce-overhead"


def _settings(values: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        key, sep, text = value.partition("=")
        if not sep or key not in {"steps", "confirm", "compile", "task", "counts", "cache"}:
            raise ValueError(
                f"setting {value!r}: use steps=N, confirm=MODEL:GPUS[+MODEL:GPUS] or none, "
                "compile=reduce-overhead|default|none, task=NAME, counts=1+2, cache=DIR"
            )
        if key == "compile" and text not in {"reduce-overhead", "default", "none"}:
            raise ValueError(f"setting {value!r}: compile is reduce-overhead, default or none")
        out[key] = text
    return out


def _visible_gpus(options: RunOptions) -> int:
    if options.gpus:
        return len(options.gpus)
    if options.extra.get("device") == "cpu":
        return int(options.extra.get("processes", "2"))
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return 1
    listing = subprocess.run([smi, "-L"], capture_output=True, text=True, check=False).stdout
    return max(1, sum(line.startswith("GPU ") for line in listing.splitlines()))


def setups(options: RunOptions) -> list[Setup]:
    """The setups a run makes, confirmation run first."""
    chosen = _settings(options.settings)
    models = list(options.models) or list(DEFAULT_MODELS)
    for key in models:
        if get_architecture(key).family != "esm":
            raise ValueError(f"{key}: the IA3 recipe takes NT (ESM) architectures")
    available = _visible_gpus(options)
    if "counts" in chosen:
        counts = [int(c) for c in chosen["counts"].split("+")]
    else:
        counts = [n for n in GPU_COUNTS if n <= available]
    for n in counts:
        if n > available:
            raise ValueError(f"{n} GPUs asked for, {available} available")
    steps = int(chosen.get("steps", str(FULL_STEPS)))
    base = Setup(
        arch=models[0],
        gpus=counts[0],
        steps=steps,
        compile=chosen.get("compile", DEFAULT_COMPILE),
        task=chosen.get("task", DEFAULT_TASK),
        cache_dir=chosen.get("cache"),
    )
    planned = [replace(base, arch=m, gpus=n) for m in models for n in counts]
    confirm = chosen.get("confirm", f"{models[0]}:1")
    if steps < FULL_STEPS and confirm != "none":
        for position, named in enumerate(confirm.split("+")):
            arch, _, gpus = named.partition(":")
            full = replace(base, arch=arch, gpus=int(gpus or 1), steps=FULL_STEPS)
            planned.insert(position, full)
    return planned


def cache_is_warm(cache_dir: str | None) -> bool:
    """Whether a compile-cache folder already holds files (an earlier run's caches)."""
    if cache_dir is None:
        return False
    folder = Path(cache_dir)
    return folder.is_dir() and any(p.is_file() for p in folder.rglob("*"))


def estimated_seconds(setup: Setup) -> float:
    table = STEP_MS_CUDA_GRAPHS if setup.compile == "reduce-overhead" else STEP_MS
    step = table.get((setup.arch, setup.gpus), DEFAULT_STEP_MS)
    startup = STARTUP_WARM_S if cache_is_warm(setup.cache_dir) else STARTUP_S
    return startup + setup.steps * step / 1000.0


class IA3Runtime(Recipe):
    """NT IA3 fine-tuning run time over torchrun/DDP on 1..N GPUs."""

    id = "nt-ia3-runtime"
    protocol_id = PROTOCOL_ID
    title = "NT IA3 fine-tuning run time, data-parallel on 1..N GPUs (torchrun, DDP)"

    def plan(self, options: RunOptions) -> list[PlanItem]:
        return [
            PlanItem(
                key=s.key,
                description=f"{s.arch} on {s.gpus} GPU(s), {s.steps} steps "
                f"({'full length' if s.steps >= FULL_STEPS else 'extrapolated'}), "
                f"compile {s.compile}",
                estimated_seconds=estimated_seconds(s),
            )
            for s in setups(options)
        ]

    def run(self, options: RunOptions) -> int:
        planned = setups(options)
        if options.dry_run:
            return 0
        run_id = options.run_id or datetime.now(UTC).strftime("%Y%m%d-ia3-%H%M")
        out = options.runs_dir / run_id
        env_gpus = [str(g) for g in options.gpus]
        budget = options.time_budget_s
        spent = 0.0
        logs: list[Path] = []
        for setup in planned:
            merged = out / f"{setup.key}.json"
            if merged.exists():
                logs.append(merged)
                continue
            if options.extra.get("records_only"):  # run nothing: records of what ran
                continue
            if budget is not None and spent + estimated_seconds(setup) > budget:
                print(f"SKIPPED {setup.key}: would overrun the time budget", flush=True)
                continue
            visible = (
                "" if options.extra.get("device") == "cpu" else ",".join(env_gpus[: setup.gpus])
            )
            if visible or options.extra.get("device") == "cpu":
                os.environ["CUDA_VISIBLE_DEVICES"] = visible
            start = datetime.now(UTC)
            logs.append(launch(setup, out))
            spent += (datetime.now(UTC) - start).total_seconds()
        if not options.write_records or not logs:
            return 0
        from .records import write

        machine = options.extra.get("machine", f"one host with {_visible_gpus(options)} GPU(s)")
        written = write(logs, options.root, run_id, machine, unconfirmed_as_incomplete=True)
        for path in written:
            print(f"wrote {path}", flush=True)
        return 0
