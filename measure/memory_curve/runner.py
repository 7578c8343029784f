"""Run the memory-curve recipe: plan, one process per point on GPU slots, records.

`--stages` selects methods (inference, peft, full); `--settings batch=1` selects batches.
Resumable: points whose log in the run folder says value or out_of_memory are kept. A
curve stops growing at its first out-of-memory point: longer inputs of the same model,
method and batch are not started (they cannot fit either) and say so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from measure import env
from measure.console import wide_console
from measure.memory_curve.recipe import (
    RECIPE_FILE,
    CurveRecipe,
    Point,
    estimate_point,
    load_recipe,
    points,
)
from measure.registry import PlanItem, Recipe, RunOptions

FINISHED = ("value", "out_of_memory")
ITEM_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class PlannedPoint:
    point: Point
    plan: PlanItem
    log_path: Path
    status: str | None


def read_status(path: Path) -> str | None:
    try:
        return str(json.loads(path.read_text(encoding="utf-8"))["status"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


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

    def __init__(self, recipe_file: Path = RECIPE_FILE) -> None:
        self.recipe_file = recipe_file

    def planned(self, options: RunOptions) -> tuple[CurveRecipe, list[PlannedPoint], Path]:
        recipe = load_recipe(Path(options.extra.get("recipe", str(self.recipe_file))))
        batches = _batches(list(options.settings))
        unknown = [b for b in batches if b not in recipe.batches]
        if unknown:
            raise ValueError(f"batch {unknown[0]}: the recipe's batches are {recipe.batches}")
        chosen = points(recipe, models=options.models, methods=options.stages, batches=batches)
        run_id = options.run_id or datetime.now(UTC).strftime("%Y%m%d-curves-%H%M%S")
        run_dir = options.runs_dir / run_id
        planned = []
        for point in chosen:
            gb, seconds = estimate_point(recipe, point)
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
            gpus = [str(g) for g in options.gpus] or _visible_gpus(options)
            if not gpus:
                console.print("[red]no CUDA GPU is visible; this recipe measures GPU memory[/red]")
                return 2
            self._execute(recipe, todo, run_dir, gpus, options)
        if not options.write_records:
            return 0
        from measure.memory_curve.records import write_run_records

        written = write_run_records(
            recipe,
            [p.log_path for p in planned],
            options.root,
            git_commit=options.extra.get("git_commit"),
            note=options.extra.get("note"),
        )
        console.print(f"{len(written)} record file(s) written")
        return 0

    def _execute(
        self,
        recipe: CurveRecipe,
        todo: list[PlannedPoint],
        run_dir: Path,
        gpus: list[str],
        options: RunOptions,
    ) -> None:
        """Points in order on the GPU slots; a curve's longer points are skipped after its
        first out-of-memory point; the time budget stops new starts."""
        queue = list(todo)
        slots: dict[str, tuple[subprocess.Popen[bytes], PlannedPoint, float] | None] = {
            f"{i}:{gpu}": None for i, gpu in enumerate(gpus)
        }
        full_curves: set[tuple[str, str, int]] = set()
        started = time.monotonic()
        base_env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        while queue or any(slots.values()):
            for slot, running in slots.items():
                if running is not None:
                    process, point, since = running
                    if process.poll() is None and time.monotonic() - since < ITEM_TIMEOUT_S:
                        continue
                    if process.poll() is None:
                        process.kill()
                        process.wait()
                    status = read_status(point.log_path) or "crashed or timed out"
                    if status == "out_of_memory":
                        p = point.point
                        full_curves.add((p.model.key, p.method, p.batch))
                    print(f"[{slot}] {point.plan.description}: {status}", flush=True)
                    slots[slot] = None
                while slots[slot] is None and queue:
                    point = queue.pop(0)
                    p = point.point
                    if (p.model.key, p.method, p.batch) in full_curves:
                        print(f"skip {point.plan.description}: a shorter input did not fit")
                        continue
                    elapsed = time.monotonic() - started
                    budget = options.time_budget_s
                    if (
                        budget is not None
                        and elapsed + (point.plan.estimated_seconds or 0) > budget
                    ):
                        print(f"time budget: {point.plan.description} not started", flush=True)
                        continue
                    slots[slot] = (self._launch(recipe, point, run_dir, slot, base_env, options),
                                   point, time.monotonic())  # fmt: skip
            time.sleep(0.2)

    def _launch(
        self,
        recipe: CurveRecipe,
        planned: PlannedPoint,
        run_dir: Path,
        slot: str,
        base_env: dict[str, str],
        options: RunOptions,
    ) -> subprocess.Popen[bytes]:
        gpu = slot.split(":", 1)[1]
        spec = point_spec(recipe, planned.point, run_dir.name, options, slot_note(slot))
        spec_path = run_dir / "specs" / f"{planned.point.key}.json"
        spec_path.parent.mkdir(parents=True, exist_ok=True)
        spec_path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
        out = run_dir / "stdout"
        out.mkdir(exist_ok=True)
        handle = (out / f"{planned.point.key}.txt").open("wb")
        child_env = dict(base_env)
        if gpu != "cpu":
            child_env["CUDA_VISIBLE_DEVICES"] = gpu
        command = [sys.executable, "-m", "measure.memory_curve.worker", str(spec_path),
                   str(planned.log_path)]  # fmt: skip
        return subprocess.Popen(command, env=child_env, stdout=handle, stderr=subprocess.STDOUT)


def slot_note(slot: str) -> str:
    index, gpu = slot.split(":", 1)
    return (
        f"One process per point on GPU slot {index} (CUDA_VISIBLE_DEVICES={gpu}; slots may "
        "share a GPU: allocator peaks are per process); random weights from the architecture "
        "config."
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
        "seed": recipe.seed,
        "optimizer": dict(recipe.optimizer),
        "lora": dict(recipe.lora),
        "device": options.extra.get("device", "cuda"),
        "command": options.command or env.command_line(),
        "environment_note": note,
    }


def _visible_gpus(options: RunOptions) -> list[str]:
    if options.extra.get("device") == "cpu":
        return ["cpu"]
    import torch

    return [str(i) for i in range(torch.cuda.device_count())]
