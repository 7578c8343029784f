"""Run the memory-curve recipe: plan, one process per point on GPU slots, records.

`--stages` selects methods (inference, peft, full); `--settings batch=1` selects batches.
Resumable: points whose log in the run folder says value or out_of_memory are kept. The
points of one model and method run in one process (the model built once; the allocator's
peak statistics reset before each point: see `worker.run_points`). A curve stops growing at
its first out-of-memory point: longer inputs of the same model, method and batch are not
started (they cannot fit either) and say so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from measure import env
from measure.console import wide_console
from measure.memory_curve.recipe import (
    CLAIMS_DIR,
    RECIPE_FILE,
    THROUGHPUT_FILE,
    CurveRecipe,
    Point,
    estimate_point,
    load_recipe,
    points,
)
from measure.registry import PlanItem, Recipe, RunOptions
from measure.run_logs import FINISHED, read_status
from measure.slots import gpu_of, run_on_slots

NOT_RUN = "not run (skipped after a shorter input did not fit, or the process crashed or timed out)"
GROUP_TIMEOUT_S = 480.0
"""A process running one model and method's points is stopped after this."""


@dataclass(frozen=True)
class PlannedPoint:
    point: Point
    plan: PlanItem
    log_path: Path
    status: str | None


def _batches(settings: list[str]) -> list[int]:
    out = []
    for value in settings:
        key, sep, text = value.partition("=")
        if not sep or key != "batch" or not text.isdigit():
            raise ValueError(f"setting {value!r}: use batch=N (a batch of the recipe)")
        out.append(int(text))
    return out


class MemoryCurves(Recipe):
    id = "memory-curves"
    protocol_id = "rewire-20261130-protocol-gpu-memory-curves"
    title = "Peak GPU memory against input length: inference, PEFT, full fine-tuning"

    run_stamp = "%Y%m%d-embed-%H%M%S"
    """strftime pattern of a new run's id (the memory curves keep their own, above)."""

    def __init__(self, recipe_file: Path = RECIPE_FILE) -> None:
        self.recipe_file = recipe_file

    def planned(self, options: RunOptions) -> tuple[CurveRecipe, list[PlannedPoint], Path]:
        recipe = load_recipe(Path(options.extra.get("recipe", str(self.recipe_file))))
        batches = _batches(list(options.settings))
        unknown = [b for b in batches if b not in recipe.batches]
        if unknown:
            raise ValueError(f"batch {unknown[0]}: the recipe's batches are {recipe.batches}")
        chosen = points(recipe, models=options.models, methods=options.stages, batches=batches)
        stamp = {"memory-curves": "%Y%m%d-curves-%H%M%S"}.get(self.id, self.run_stamp)
        run_id = options.run_id or datetime.now(UTC).strftime(stamp)
        run_dir = options.runs_dir / run_id
        planned = []
        started: set[tuple[str, str]] = set()
        for point in chosen:
            group = (point.model.key, point.method)
            gb, seconds = estimate_point(recipe, point, process_start=group not in started)
            started.add(group)
            description = (
                f"{point.model.architecture.name}, {point.method}, batch {point.batch}, "
                f"{point.tokens} tokens"
            )
            log_path = run_dir / "logs" / f"{point.key}.json"
            planned.append(
                PlannedPoint(
                    point,
                    PlanItem(point.key, description, gb, seconds),
                    log_path,
                    read_status(log_path),
                )
            )
        return recipe, planned, run_dir

    def plan(self, options: RunOptions) -> list[PlanItem]:
        return [p.plan for p in self.planned(options)[1]]

    def run(self, options: RunOptions) -> int:
        console = wide_console()
        recipe, planned, run_dir = self.planned(options)
        todo = [p for p in planned if p.status not in FINISHED]
        console.print(f"run {run_dir.name}: {len(planned)} points, {len(todo)} to run")
        if options.dry_run:
            return 0
        if not options.extra.get("records_only"):
            run_dir.mkdir(parents=True, exist_ok=True)
            gpus = env.gpu_slots(options.gpus, run_device(recipe, options))
            if not gpus:
                console.print("[red]no CUDA GPU is visible; this recipe measures GPU memory[/red]")
                return 2
            self._execute(recipe, todo, run_dir, gpus, options)
        if not options.write_records:
            return 0
        written = self.write(recipe, [p.log_path for p in planned], options)
        console.print(f"{len(written)} record file(s) written")
        return 0

    def write(self, recipe: CurveRecipe, logs: list[Path], options: RunOptions) -> list[Path]:
        """The records of the run's finished points, by this runner's writer."""
        return self.writer()(
            recipe,
            logs,
            options.root,
            git_commit=options.extra.get("git_commit"),
            note=options.extra.get("note"),
        )

    def writer(self) -> Callable[..., list[Path]]:
        """Memory curves and throughput: a configuration and an evaluation per point."""
        from measure.memory_curve.records import write_run_records

        return write_run_records

    def _execute(
        self,
        recipe: CurveRecipe,
        todo: list[PlannedPoint],
        run_dir: Path,
        gpus: list[str],
        options: RunOptions,
    ) -> None:
        """One process per model and method (its points in order, shortest first), the
        processes spread over the GPU slots; the time budget stops new starts."""
        started = time.monotonic()
        base_env = {**os.environ, "PYTHONUNBUFFERED": "1"}

        def admit(group: list[PlannedPoint]) -> bool:
            elapsed, budget = time.monotonic() - started, options.time_budget_s
            needed = sum(p.plan.estimated_seconds or 0.0 for p in group)
            if budget is not None and elapsed + needed > budget:
                first = group[0].point
                what = f"{first.model.key} {first.method} ({len(group)} points)"
                print(f"time budget: {what} not started", flush=True)
                return False
            return True

        def launch(slot: str, group: list[PlannedPoint]) -> subprocess.Popen[bytes]:
            return self._launch(recipe, group, run_dir, slot, base_env, options)

        def ended(slot: str, group: list[PlannedPoint], timed_out: bool) -> None:
            for point in group:
                status = read_status(point.log_path) or NOT_RUN
                print(f"[{slot}] {point.plan.description}: {status}", flush=True)

        run_on_slots(
            groups(todo),
            gpus,
            launch=launch,
            ended=ended,
            timeout_s=GROUP_TIMEOUT_S,
            admit=admit,
        )

    def _launch(
        self,
        recipe: CurveRecipe,
        group: list[PlannedPoint],
        run_dir: Path,
        slot: str,
        base_env: dict[str, str],
        options: RunOptions,
    ) -> subprocess.Popen[bytes]:
        gpu = gpu_of(slot)
        pairs = []
        for planned in group:
            spec = point_spec(recipe, planned.point, run_dir.name, options, slot_note(slot))
            spec_path = run_dir / "specs" / f"{planned.point.key}.json"
            spec_path.parent.mkdir(parents=True, exist_ok=True)
            spec_path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
            pairs.append([str(spec_path), str(planned.log_path)])
        first = group[0].point
        name = f"{first.model.key}--{first.method}"
        group_path = run_dir / "groups" / f"{name}.json"
        group_path.parent.mkdir(parents=True, exist_ok=True)
        group_path.write_text(json.dumps({"points": pairs}, indent=2) + "\n", encoding="utf-8")
        out = run_dir / "stdout"
        out.mkdir(exist_ok=True)
        handle = (out / f"{name}.txt").open("wb")
        child_env = dict(base_env)
        # a CPU slot sees no GPU, so that nothing runs there and the log names no GPU
        child_env["CUDA_VISIBLE_DEVICES"] = "" if gpu == "cpu" else gpu
        command = [sys.executable, "-m", "measure.memory_curve.worker", "--group",
                   str(group_path)]  # fmt: skip
        return subprocess.Popen(command, env=child_env, stdout=handle, stderr=subprocess.STDOUT)


class EmbeddingThroughput(MemoryCurves):
    """The same runner over `throughput.yaml`: the `embed` method, timed passes."""

    id = "embedding-throughput"
    protocol_id = "rewire-20261202-protocol-embedding-throughput"
    title = "Embedding throughput against input length and batch (frozen model, bf16)"

    def __init__(self, recipe_file: Path = THROUGHPUT_FILE) -> None:
        super().__init__(recipe_file)


class PublishedClaim(MemoryCurves):
    """A published efficiency claim measured by this runner and worker: one file in
    `claims/` (the recipe format, with fixed token lengths, a precision and a device), its
    id, protocol and title read from the file."""

    run_stamp = "%Y%m%d-claim-%H%M%S"

    def __init__(self, recipe_file: Path) -> None:
        super().__init__(recipe_file)
        recipe = load_recipe(recipe_file)
        self.id, self.protocol_id, self.title = recipe.id, recipe.protocol, recipe.title

    def writer(self) -> Callable[..., list[Path]]:
        """The claim's records: configurations and one evaluation per claim value."""
        from measure.memory_curve.claim_records import write_claim_records

        return write_claim_records


def claim_recipes(folder: Path = CLAIMS_DIR) -> list[PublishedClaim]:
    """One recipe per claim file, in file-name order."""
    return [PublishedClaim(path) for path in sorted(folder.glob("*.yaml"))]


def run_device(recipe: CurveRecipe, options: RunOptions) -> str:
    """cpu for a recipe that runs on the CPU (a source timed there), else the command's
    device (cuda; cpu in tests)."""
    return "cpu" if recipe.device == "cpu" else options.extra.get("device", "cuda")


def groups(todo: list[PlannedPoint]) -> list[list[PlannedPoint]]:
    """The points of each model and method together, in plan order: one process each."""
    out: dict[tuple[str, str], list[PlannedPoint]] = {}
    for planned in todo:
        out.setdefault((planned.point.model.key, planned.point.method), []).append(planned)
    return list(out.values())


def slot_note(slot: str) -> str:
    index, gpu = slot.split(":", 1)
    return (
        f"One process per model and method on GPU slot {index} (CUDA_VISIBLE_DEVICES={gpu}; "
        "slots may share a GPU: allocator peaks are per process); random weights from the "
        "architecture config."
    )


def point_spec(
    recipe: CurveRecipe, point: Point, run_id: str, options: RunOptions, note: str
) -> dict[str, Any]:
    """What the worker process is told to run."""
    return {
        "recipe": recipe.id,
        "protocol": recipe.protocol,
        "run_id": run_id,
        "item": point.key,
        "model": point.model.key,
        "method": point.method,
        "method_text": recipe.methods[point.method],
        "batch": point.batch,
        "tokens": point.tokens,
        "steps": recipe.steps,
        "warmup": recipe.warmup,
        "seed": recipe.seed,
        "optimizer": dict(recipe.optimizer),
        "lora": dict(recipe.lora),
        "precision": recipe.precision,
        "device": run_device(recipe, options),
        "command": options.command or env.command_line(),
        "environment_note": note,
    }
