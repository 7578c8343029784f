"""The device scripts that pack as they go (measure/device_common.sh), checked on the CPU:
a dry run of each plans its stages with the command lines the GPU run uses, and the
resuming script plans exactly the points the committed runs lack."""

from __future__ import annotations

import re
import subprocess
import tarfile
from pathlib import Path

import pytest
from dry_run import dry_run_env

from measure.memory_curve.recipe import RECIPE_FILE, THROUGHPUT_FILE, load_recipe, points
from measure.run_logs import FINISHED, read_status

REPO = Path(__file__).resolve().parents[2]
COMMON = REPO / "measure" / "device_common.sh"
REST = REPO / "measure" / "h100_generator_rest.sh"
PLANNED = re.compile(r"^run (?P<run>\S+): (?P<points>\d+) points, (?P<todo>\d+) to run$", re.M)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A dry run with its run folders and $OUT under tmp_path."""
    return dry_run_env(tmp_path / "curves", tmp_path / "out", **extra)


def _missing(recipe_file: Path, run: str, model: str, methods: list[str], batch: int | None) -> int:
    """Points of the recipe for this model and methods (and batch) without a finished log
    in the committed run."""
    recipe = load_recipe(recipe_file)
    chosen = points(recipe, models=[model], methods=methods, batches=[batch] if batch else [])
    logs = REPO / "artifacts" / "measurements" / run
    return sum(read_status(logs / f"{p.key}.json") not in FINISHED for p in chosen)


def _plan(path: Path) -> tuple[str, int]:
    found = PLANNED.search(path.read_text(encoding="utf-8"))
    assert found, path.read_text(encoding="utf-8")[-2000:]
    return found.group("run"), int(found.group("todo"))


@pytest.mark.slow
def test_the_resuming_script_plans_exactly_the_points_the_committed_runs_lack(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        ["bash", str(REST)], cwd=REPO, env=_env(tmp_path), capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    r = tmp_path / "curves"
    model = "generator-eukaryote-1-2b"
    for method in ("full", "peft", "full-mixed-ckpt"):
        run, todo = _plan(r / f"curves-{method}.txt")
        assert run == "20261207-h100-curves"
        assert todo == _missing(RECIPE_FILE, run, model, [method], None), method
    run, todo = _plan(r / "embed.txt")
    assert run == "20261207-h100-embed"
    assert todo == _missing(THROUGHPUT_FILE, run, model, ["embed"], 32)
    # the committed logs were copied in (the runner keeps their points) and packed
    committed = {p.name for p in (REPO / "artifacts" / "measurements" / run).glob("*.json")}
    with tarfile.open(tmp_path / "out" / "runs.tar.gz") as packed:
        names = {Path(n).name for n in packed.getnames() if f"/{run}/logs/" in n}
    assert committed and committed <= names
    stages = (r / "timing.txt").read_text(encoding="utf-8").splitlines()
    assert [s.rsplit(" at ", 1)[0] for s in stages] == [
        "full start", "peft start", "full-mixed-ckpt start", "throughput start", "end",
    ]  # fmt: skip


def _till(deadline: int, end: int, elapsed: int) -> int:
    script = f'. "{COMMON}"; DEADLINE_S={deadline}; SECONDS={elapsed}; till {end}'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_a_stage_ends_at_its_own_end_or_the_deadline_whichever_is_sooner() -> None:
    assert _till(deadline=540, end=150, elapsed=40) == 110
    assert _till(deadline=100, end=150, elapsed=40) == 60
    assert _till(deadline=540, end=150, elapsed=200) == -50  # stage_limit runs nothing


@pytest.mark.slow
def test_the_first_scripts_dry_run_still_plans_every_stage(tmp_path: Path) -> None:
    """measure/h100_grover_generator.sh after its setup moved to device_common.sh."""
    script = REPO / "measure" / "h100_grover_generator.sh"
    done = subprocess.run(
        ["bash", str(script), "19990101-dry"], cwd=REPO, env=_env(tmp_path),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    r = tmp_path / "curves"
    for name in ("curves-grover", "curves-generator-inference", "curves-generator-mixed",
                 "curves-generator-ckpt", "embed"):  # fmt: skip
        run, todo = _plan(r / f"{name}.txt")
        assert run.startswith("19990101-dry-") and todo > 0, name
    assert (tmp_path / "out" / "runs.tar.gz").is_file()
