"""Run every HyenaDNA protocol on a lent GPU, writing logs only (no records).

    rewire measure hyenadna-device RUN_DIR [KEY ...] [--budget S]

(on the lent machine, without the console script:
`python3 -c 'from measure.cli import app; app()' hyenadna-device ...`, as
measure/hyenadna/h200_run.sh does) writes each protocol's spec and runs its worker process
(`measure.hyenadna.worker`), one protocol after another (KEYs: the protocols of
`recipe.yaml`, all by default), with the logs in RUN_DIR/logs. It imports torch only in the
workers and needs no pydantic, so no wheel has to travel for it (typer and rich, which the
command line needs, are on the lent machines' Python: `rewire measure run` ran there for
the memory curves). Records are written afterwards where the catalogue lives:
`rewire measure run PROTOCOL --run-id RUN_ID --records-only`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from measure.hyenadna.recipe import RECIPE_FILE, load_recipe, run_spec


def run_device(
    run_dir: Path,
    keys: Sequence[str] = (),
    *,
    budget: float = 420.0,
    device: str = "cuda",
    recipe_file: Path = RECIPE_FILE,
    command: str = "",
) -> int:
    """Write each protocol's spec under `run_dir`/specs and run its worker process, one
    protocol after another (`keys`: protocols of the recipe, all when empty), within
    `budget` seconds in all; print each item's status. The worst exit code: 0 when every
    worker succeeded, 124 when the budget ran out. `command` is recorded in each spec (the
    command line that ran). Raises ValueError naming an unknown key and the known ones."""
    recipe = load_recipe(recipe_file)
    chosen = list(keys) or list(recipe.protocols)
    unknown = [k for k in chosen if k not in recipe.protocols]
    if unknown:
        raise ValueError(f"no protocol {unknown[0]!r} (known: {', '.join(recipe.protocols)})")
    (run_dir / "specs").mkdir(parents=True, exist_ok=True)
    (run_dir / "stdout").mkdir(exist_ok=True)
    started = time.monotonic()
    worst = 0
    for key in chosen:
        plan = recipe.protocols[key]
        spec = run_spec(
            recipe,
            plan,
            list(plan.items),
            run_dir.name,
            device=device,
            command=command,
        )
        spec_path = run_dir / "specs" / f"{key}.json"
        spec_path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
        left = budget - (time.monotonic() - started)
        if left < 10:
            print(f"{key}: not started (budget spent)", flush=True)
            worst = max(worst, 124)
            continue
        tick = time.monotonic()
        with (run_dir / "stdout" / f"{key}.txt").open("ab") as handle:
            try:
                code = subprocess.run(
                    [sys.executable, "-m", "measure.hyenadna.worker", str(spec_path),
                     str(run_dir / "logs")],
                    stdout=handle, stderr=subprocess.STDOUT, timeout=left, check=False,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                ).returncode  # fmt: skip
            except subprocess.TimeoutExpired:
                code = 124
        print(f"{key}: exit {code} after {time.monotonic() - tick:.0f} s", flush=True)
        worst = max(worst, code)
        for item in spec["items"]:
            path = run_dir / "logs" / f"{item['key']}.json"
            if not path.exists():
                print(f"  {item['key']}: no log", flush=True)
                continue
            log = json.loads(path.read_text(encoding="utf-8"))
            peak = log["memory"]["peak_allocated_bytes"]
            shown = f"{peak / 1e9:.2f} GB" if peak is not None else "-"
            timing = log.get("median_seconds")
            shown += f", median {timing * 1e3:.1f} ms" if timing is not None else ""
            print(f"  {item['key']}: {log['status']}, {shown}", flush=True)
    return worst
