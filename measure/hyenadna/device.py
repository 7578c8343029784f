"""Run every HyenaDNA protocol on a lent GPU without the catalogue's dependencies.

`python3 -m measure.hyenadna.device RUN_DIR [--budget S] [KEY ...]` writes each protocol's
spec and runs its worker process, one protocol after another (KEYs: the protocols of
`recipe.yaml`, all by default), with the logs in RUN_DIR/logs. It needs torch and PyYAML
only (no rich, typer or pydantic), hence a standard-library command line (argparse) rather
than `rewire measure`'s Typer app; records are written afterwards where the catalogue
lives: `rewire measure run PROTOCOL --run-id RUN_ID --records-only`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from measure.hyenadna.recipe import RECIPE_FILE, load_recipe, run_spec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m measure.hyenadna.device")
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("keys", nargs="*", help="protocol keys (default: all)")
    parser.add_argument("--budget", type=float, default=420.0, help="seconds for all")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--recipe", type=Path, default=RECIPE_FILE, help="another recipe file")
    args = parser.parse_args(argv)
    recipe = load_recipe(args.recipe)
    keys = args.keys or list(recipe.protocols)
    unknown = [k for k in keys if k not in recipe.protocols]
    if unknown:
        parser.error(f"no protocol {unknown[0]!r} (known: {', '.join(recipe.protocols)})")
    run_dir: Path = args.run_dir
    (run_dir / "specs").mkdir(parents=True, exist_ok=True)
    (run_dir / "stdout").mkdir(exist_ok=True)
    started = time.monotonic()
    worst = 0
    for key in keys:
        plan = recipe.protocols[key]
        spec = run_spec(
            recipe,
            plan,
            list(plan.items),
            run_dir.name,
            device=args.device,
            command=" ".join(["python3", "-m", "measure.hyenadna.device", *sys.argv[1:]]),
        )
        spec_path = run_dir / "specs" / f"{key}.json"
        spec_path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
        left = args.budget - (time.monotonic() - started)
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


if __name__ == "__main__":
    raise SystemExit(main())
