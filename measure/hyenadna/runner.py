"""Run one HyenaDNA protocol: plan, one worker process for its items, records.

Four recipes share this runner, one per protocol in `recipe.yaml`. `--models` and
`--stages` (methods) filter the items. Resumable: items whose log in the run folder says
value or out_of_memory are kept.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from measure.console import wide_console
from measure.hyenadna.recipe import (
    RECIPE_FILE,
    HyenaRecipe,
    Item,
    ProtocolPlan,
    estimate,
    load_recipe,
    run_spec,
)
from measure.registry import PlanItem, Recipe, RunOptions
from measure.run_logs import FINISHED, read_status

RUN_TIMEOUT_S = 540.0


def select(plan: ProtocolPlan, options: RunOptions) -> list[Item]:
    """The protocol's items that the options name (all when none)."""
    items = list(plan.items)
    known_models = {i.model.key for i in items}
    known_methods = {i.method for i in items}
    for model in options.models:
        if model not in known_models:
            known = ", ".join(sorted(known_models))
            raise ValueError(f"--models: no model {model!r} in {plan.key} ({known})")
    for method in options.stages:
        if method not in known_methods:
            known = ", ".join(sorted(known_methods))
            raise ValueError(f"--stages: no method {method!r} in {plan.key} ({known})")
    if options.settings:
        raise ValueError("--settings: this recipe has no settings to choose")
    return [
        i
        for i in items
        if (not options.models or i.model.key in options.models)
        and (not options.stages or i.method in options.stages)
    ]


class HyenaProtocolRecipe(Recipe):
    """The recipe of one protocol of `recipe.yaml`."""

    def __init__(self, key: str, recipe_file: Path = RECIPE_FILE) -> None:
        self.key = key
        self.recipe_file = recipe_file
        plan = load_recipe(recipe_file).protocols[key]
        self.id = f"hyenadna-{key}"
        self.protocol_id = plan.protocol
        self.title = plan.title

    def planned(self, options: RunOptions) -> tuple[HyenaRecipe, ProtocolPlan, list[Item], Path]:
        recipe = load_recipe(Path(options.extra.get("recipe", str(self.recipe_file))))
        plan = recipe.protocols[self.key]
        run_id = options.run_id or datetime.now(UTC).strftime("%Y%m%d-hyenadna-%H%M%S")
        return recipe, plan, select(plan, options), options.runs_dir / run_id

    def plan(self, options: RunOptions) -> list[PlanItem]:
        _, plan, items, _ = self.planned(options)
        out = []
        for i, item in enumerate(items):
            gb, seconds = estimate(item, plan.warmup, plan.repeats)
            if i == 0:
                seconds += 15.0  # the process start
            out.append(PlanItem(item.key, item.description, gb, seconds))
        return out

    def run(self, options: RunOptions) -> int:
        console = wide_console()
        recipe, plan, items, run_dir = self.planned(options)
        log_dir = run_dir / "logs"
        todo = [i for i in items if read_status(log_dir / f"{i.key}.json") not in FINISHED]
        console.print(f"run {run_dir.name}: {len(items)} items, {len(todo)} to run")
        if options.dry_run:
            return 0
        code = 0
        if todo and not options.extra.get("records_only"):
            code = self._execute(recipe, plan, todo, run_dir, options)
        if not options.write_records:
            return code
        from measure.hyenadna.records import build_run_records
        from measure.records import write_new

        records = build_run_records(
            recipe,
            plan,
            [log_dir / f"{i.key}.json" for i in items],
            options.root,
            git_commit=options.extra.get("git_commit"),
            note=options.extra.get("note"),
        )
        written = write_new(records, options.root)
        console.print(f"{len(written)} record file(s) written")
        return code

    def _execute(
        self,
        recipe: HyenaRecipe,
        plan: ProtocolPlan,
        todo: list[Item],
        run_dir: Path,
        options: RunOptions,
    ) -> int:
        spec = run_spec(
            recipe,
            plan,
            todo,
            run_dir.name,
            device=options.extra.get("device", "cuda"),
            command=options.command,
        )
        spec_path = run_dir / "specs" / f"{plan.key}.json"
        spec_path.parent.mkdir(parents=True, exist_ok=True)
        spec_path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
        out = run_dir / "stdout"
        out.mkdir(exist_ok=True)
        child_env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if options.gpus:
            child_env["CUDA_VISIBLE_DEVICES"] = str(options.gpus[0])
        command = [sys.executable, "-m", "measure.hyenadna.worker", str(spec_path),
                   str(run_dir / "logs")]  # fmt: skip
        timeout = options.time_budget_s or RUN_TIMEOUT_S
        with (out / f"{plan.key}.txt").open("ab") as handle:
            try:
                result = subprocess.run(
                    command, env=child_env, stdout=handle, stderr=subprocess.STDOUT,
                    timeout=timeout, check=False,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                print(f"{plan.key}: stopped after {timeout:.0f} s", flush=True)
                return 124
        return result.returncode
