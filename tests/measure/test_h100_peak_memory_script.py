"""measure/h100_peak_memory.sh checked on the CPU: a dry run plans its stages in order,
most wanted first (the declared reading, its ZeRO-2 stage, the other precision policies,
the LoRA points), each with the points the recipe selects for its command line, and packs
$OUT as the GPU run does."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from dry_run import dry_run_env

from measure.peak_memory.recipe import load_recipe, work_items

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "measure" / "h100_peak_memory.sh"
PLANNED = re.compile(r"^run (?P<run>\S+): (?P<items>\d+) items, 0 finished already, "
                     r"(?P<todo>\d+) to run, 0 not runnable$", re.M)  # fmt: skip
DECLARED = "precision=fp32-autocast,update=full,length=1000nt"
POLICIES = (
    "precision=bf16,update=full,length=1000nt",
    "precision=bf16-fp32-states,update=full,length=1000nt",
)


def _selected(stages: list[str], *settings: str) -> int:
    return len(work_items(load_recipe(), stages=stages, settings=list(settings)))


@pytest.mark.slow
def test_the_dry_run_plans_every_stage_in_order_with_the_recipes_points(tmp_path: Path) -> None:
    env = dry_run_env(tmp_path / "pm", tmp_path / "out")
    done = subprocess.run(
        ["bash", str(SCRIPT), "19990101-dry"], cwd=REPO, env=env, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    r = tmp_path / "pm"
    expected = {
        "declared": _selected(["baseline", "flashattention", "checkpointing"], DECLARED),
        "declared-offload": _selected(["deepspeed"], DECLARED),
        "policies": _selected([], *POLICIES),
        "lora": _selected(["checkpointing", "deepspeed"], "update=lora-r16-qkv,length=1000nt"),
    }
    assert expected["declared"] == 6 and expected["declared-offload"] == 2  # both models
    for name, count in expected.items():
        found = PLANNED.search((r / f"{name}.txt").read_text(encoding="utf-8"))
        assert found, (r / f"{name}.txt").read_text(encoding="utf-8")[-2000:]
        assert found.group("run") == "19990101-dry"
        assert int(found.group("todo")) == count, name
    stages = (r / "timing.txt").read_text(encoding="utf-8").splitlines()
    assert [s.rsplit(" at ", 1)[0] for s in stages] == [
        "declared start", "declared-offload start", "policies start", "lora start", "end",
    ]  # fmt: skip
    assert (tmp_path / "out" / "runs.tar.gz").is_file()
