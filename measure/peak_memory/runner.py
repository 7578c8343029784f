"""Run the peak-memory recipe: plan, one process per stage (one at a time per GPU), progress,
summary table, records. Resumable: finished stages in the run folder are skipped.

Nothing lost when a run is killed: a stage's log is written whole or not at all (the
worker), a stage process dies with the runner (Linux: PR_SET_PDEATHSIG), so a killed run
leaves no stage running and its resume never runs one stage twice at once; one runner at
a time holds a run folder (flock), and a folder `rewire measure` did not make (no
run.json, not empty) is never written into."""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from measure import env
from measure.console import wide_console
from measure.peak_memory.plan import Planned, make_plan
from measure.peak_memory.recipe import RECIPE_FILE, PeakMemoryRecipe, load_recipe, work_items
from measure.peak_memory.summary import summary_table
from measure.registry import PlanItem, Recipe, RunOptions
from measure.run_logs import read_status
from measure.slots import gpu_of, run_on_slots

ITEM_TIMEOUT_S = 420.0


def new_run_id(now: datetime | None = None) -> str:
    """A run id: UTC date and time to the second, e.g. 20261129-193012."""
    return (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")


class PeakMemory(Recipe):
    id = "training-peak-memory"
    protocol_id = "saadat-fellay-20261015-protocol-training-peak-memory"
    title = "Training peak GPU memory under progressive optimizations (Figure 3)"

    def __init__(self, recipe_file: Path = RECIPE_FILE) -> None:
        self.recipe_file = recipe_file

    def load(self, options: RunOptions) -> PeakMemoryRecipe:
        return load_recipe(Path(options.extra.get("recipe", str(self.recipe_file))))

    def planned(self, options: RunOptions) -> tuple[PeakMemoryRecipe, list[Planned], Path]:
        recipe = self.load(options)
        items = work_items(
            recipe, models=options.models, stages=options.stages, settings=options.settings
        )
        run_dir = options.runs_dir / (options.run_id or new_run_id())
        return recipe, make_plan(recipe, items, run_dir), run_dir

    def plan(self, options: RunOptions) -> list[PlanItem]:
        return [p.plan for p in self.planned(options)[1]]

    def run(self, options: RunOptions) -> int:
        console = wide_console()
        recipe, planned, run_dir = self.planned(options)
        run_id = run_dir.name
        todo = [p for p in planned if p.plan.runnable and not p.finished]
        done = [p for p in planned if p.finished]
        console.print(
            f"run {run_id}: {len(planned)} items, {len(done)} finished already, "
            f"{len(todo)} to run, {sum(not p.plan.runnable for p in planned)} not runnable"
        )
        if options.dry_run:
            return 0
        if options.extra.get("records_only"):
            console.print(summary_table(planned, options.root, recipe.protocol))
            return self._records(recipe, planned, run_dir, options, console)
        with contextlib.ExitStack() as held:
            try:
                held.enter_context(claim_run_dir(run_dir))  # until the run ends
            except RunFolderError as error:
                console.print(f"[red]{error}[/red]")
                return 2
            _write_run_file(run_dir, recipe, options)
            device = options.extra.get("device", "cuda")
            gpus = env.gpu_slots(options.gpus, device)
            if not gpus:
                console.print("[red]no CUDA GPU is visible; this recipe measures GPU memory[/red]")
                return 2
            started = time.monotonic()
            failures = self._execute(recipe, todo, run_dir, gpus, options, console, started)
            wall = time.monotonic() - started
            console.print(
                f"sweep wall time: {wall:.0f} s ({wall / 60:.1f} min) on {len(gpus)} slot(s)"
            )
            console.print(summary_table(planned, options.root, recipe.protocol))
            code = self._records(recipe, planned, run_dir, options, console)
            return code or (1 if failures else 0)

    def _records(
        self,
        recipe: PeakMemoryRecipe,
        planned: list[Planned],
        run_dir: Path,
        options: RunOptions,
        console: Console,
    ) -> int:
        """Write the records of the run's finished stages; 1 when they do not validate."""
        if not options.write_records:
            return 0
        from measure.peak_memory.records import write_run_records
        from measure.records import RecordExists
        from rewire_site.problems import RecordsInvalid

        try:
            written = write_run_records(
                recipe,
                planned,
                run_dir,
                options.root,
                console,
                git_commit=options.extra.get("git_commit"),
                note=options.extra.get("note"),
            )
        except RecordsInvalid as error:
            for problem in error.problems:
                console.print(f"[red]{problem}[/red]")
            console.print("[red]records not written: they do not validate[/red]")
            return 1
        except RecordExists as error:
            console.print(f"[red]{error}[/red]")
            return 1
        for path in written:
            console.print(f"wrote {path}")
        console.print(f"{len(written)} record file(s) written")
        return 0

    def _execute(
        self,
        recipe: PeakMemoryRecipe,
        todo: list[Planned],
        run_dir: Path,
        gpus: list[str],
        options: RunOptions,
        console: Console,
        started: float,
    ) -> int:
        """Run the items, one process at a time on each GPU slot: the recipe's sweep entries
        in order, the longest items of an entry first."""
        queue = sorted(todo, key=lambda p: (p.item.group, -(p.plan.estimated_seconds or 0.0)))
        extensions = run_dir.parent / "torch_extensions"
        base_env = {
            **os.environ,
            "TORCH_EXTENSIONS_DIR": os.environ.get(
                "TORCH_EXTENSIONS_DIR", str(extensions.resolve())
            ),
            "PYTHONUNBUFFERED": "1",
            "OMP_NUM_THREADS": str(max(1, (os.cpu_count() or 2) // len(gpus))),
        }
        prebuild = _start_prebuild(queue, base_env, run_dir)
        failures = 0
        budget = options.time_budget_s
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        ) as progress:
            task = progress.add_task("stages", total=len(queue))

            def pick(left: list[Planned]) -> Planned | None:
                return _next_item(left, prebuild is None or prebuild.poll() is not None)

            def admit(planned: Planned) -> bool:
                elapsed = time.monotonic() - started
                if budget is None or elapsed + (planned.plan.estimated_seconds or 0.0) <= budget:
                    return True
                progress.console.print(
                    f"time budget: {planned.item.key} not started ({elapsed:.0f} s used)"
                )
                progress.advance(task)
                return False

            def launch(slot: str, planned: Planned) -> subprocess.Popen[bytes]:
                gpu = gpu_of(slot)
                process = _launch(gpu, planned, recipe, run_dir, base_env, len(gpus), options)
                progress.console.print(f"[gpu {gpu}] start {planned.plan.description}")
                return process

            def ended(slot: str, planned: Planned, timed_out: bool) -> None:
                nonlocal failures
                status = read_status(planned.log_path) or ("timed out" if timed_out else "crashed")
                failures += status not in ("value", "out_of_memory")
                progress.console.print(f"[gpu {gpu_of(slot)}] {_result_line(planned, status)}")
                progress.advance(task)

            run_on_slots(
                queue,
                gpus,
                launch=launch,
                ended=ended,
                timeout_s=ITEM_TIMEOUT_S,
                pick=pick,
                admit=admit,
                poll_s=0.5,
            )
        if prebuild is not None and prebuild.poll() is None:
            prebuild.kill()
        return failures


class RunFolderError(Exception):
    """A run folder that is not this runner's to write: another runner holds it, or
    `rewire measure` did not make it."""


@contextlib.contextmanager
def claim_run_dir(run_dir: Path) -> Iterator[None]:
    """Make or reuse `run_dir` and hold its lock until the process ends (or the block
    does). `RunFolderError`, with nothing written, when the folder exists, is not empty
    and holds no run.json, or when another runner holds it."""
    if run_dir.is_dir() and not (run_dir / "run.json").is_file() and any(run_dir.iterdir()):
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in run_dir.iterdir())
        raise RunFolderError(
            f"{run_dir}: not a run folder of rewire measure (it has no run.json) and not "
            f"empty: it holds {', '.join(names[:5])}; nothing was written. Choose another "
            "--run-id or --runs-dir"
        )
    run_dir.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(run_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise RunFolderError(
            f"run {run_dir.name} is in progress in another process (its folder {run_dir} "
            "is locked); wait for it to end, or choose another --run-id"
        ) from None
    try:
        yield
    finally:
        os.close(descriptor)


def die_with_parent(parent: int) -> None:
    """In a stage process before exec: SIGKILL when the runner dies (Linux prctl
    PR_SET_PDEATHSIG), and at once when it is already gone."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


def _next_item(queue: list[Planned], prebuild_done: bool) -> Planned | None:
    for planned in queue:
        if prebuild_done or not planned.item.stage.zero2_offload:
            return planned
    return None


def _start_prebuild(queue: list[Planned], base_env: dict[str, str], run_dir: Path) -> Any:
    if not any(p.item.stage.zero2_offload for p in queue):
        return None
    out = (run_dir / "prebuild.txt").open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "measure.peak_memory.prebuild"],
        env={**base_env, "CUDA_VISIBLE_DEVICES": ""},
        stdout=out,
        stderr=subprocess.STDOUT,
        preexec_fn=functools.partial(die_with_parent, os.getpid()),
    )


def item_spec(
    recipe: PeakMemoryRecipe, planned: Planned, run_id: str, options: RunOptions, note: str
) -> dict[str, Any]:
    """What the worker process is told to run."""
    item = planned.item
    length = item.setting.length
    return {
        "recipe": recipe.id,
        "protocol": recipe.protocol,
        "run_id": run_id,
        "item": item.key,
        "model": item.model.key,
        "stage": item.stage.__dict__,
        "setting": item.setting.as_dict(),
        "tokens": item.tokens,
        "nucleotides": int(length.removesuffix("nt")) if length.endswith("nt") else None,
        "batch": recipe.batch_size,
        "steps": recipe.steps,
        "seed": recipe.seed,
        "optimizer": dict(recipe.optimizer),
        "lora": dict(recipe.lora),
        "deepspeed": recipe.deepspeed_for(
            item.setting.comm, int(item.model.architecture.config["hidden_size"])
        ),
        "device": options.extra.get("device", "cuda"),
        "command": options.command or env.command_line(),
        "environment_note": note,
    }


def _launch(
    gpu: str,
    planned: Planned,
    recipe: PeakMemoryRecipe,
    run_dir: Path,
    base_env: dict[str, str],
    slots: int,
    options: RunOptions,
) -> subprocess.Popen[bytes]:
    note = (
        f"One process per stage; {slots} stage process(es) ran at a time, one per GPU slot "
        f"(this one with CUDA_VISIBLE_DEVICES={gpu}, OMP_NUM_THREADS="
        f"{base_env['OMP_NUM_THREADS']}; slots may share a GPU: allocator peaks are per "
        "process); random weights from the architecture config."
    )
    spec = item_spec(recipe, planned, run_dir.name, options, note)
    spec_path = run_dir / "specs" / f"{planned.item.key}.json"
    spec_path.parent.mkdir(parents=True, exist_ok=True)
    spec_path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    out_dir = run_dir / "stdout"
    out_dir.mkdir(exist_ok=True)
    handle = (out_dir / f"{planned.item.key}.txt").open("ab")  # a resumed stage appends
    child_env = dict(base_env)
    if gpu != "cpu":
        child_env["CUDA_VISIBLE_DEVICES"] = gpu
    return subprocess.Popen(
        [sys.executable, "-m", "measure.peak_memory.worker", str(spec_path), str(planned.log_path)],
        env=child_env,
        stdout=handle,
        stderr=subprocess.STDOUT,
        preexec_fn=functools.partial(die_with_parent, os.getpid()),
    )


def _result_line(planned: Planned, status: str) -> str:
    if status != "value":
        return f"{planned.item.key}: {status}"
    log = json.loads(planned.log_path.read_text(encoding="utf-8"))
    memory = log["memory"]
    if memory.get("peak_allocated_bytes") is None:
        return f"{planned.item.key}: finished (no GPU allocator statistics on this device)"
    return (
        f"{planned.item.key}: peak allocated {memory['peak_allocated_bytes'] / 1e9:.2f} GB, "
        f"reserved {memory['peak_reserved_bytes'] / 1e9:.2f} GB, "
        f"step {log['step_time_median_s'] * 1000:.0f} ms"
    )


def _write_run_file(run_dir: Path, recipe: PeakMemoryRecipe, options: RunOptions) -> None:
    path = run_dir / "run.json"
    if path.exists():
        return
    data = {
        "run_id": run_dir.name,
        "recipe": recipe.raw,
        "command": options.command,
        "created_at": env.now_utc(),
    }
    path.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
